/**
 * The machine's vocabulary: its id, the executor's name and events, and the guards and actions
 * (`setup`) that bind the pure run semantics (execute.ts, route.ts) to XState. machine.ts builds
 * the states that use them.
 */
import type {
  ActorRefFromLogic,
  DoneActorEvent,
  ErrorActorEvent,
  EventObject,
  MetaObject,
  NonReducibleUnknown,
  PromiseActorLogic,
  StateMachine,
} from "xstate";
import { assign, fromPromise, setup } from "xstate";
import type { FlowContext } from "./context.js";
import {
  acceptedOutput,
  acceptOutput,
  beginAttempt,
  blockAfterFailure,
  blockAttempt,
  blockOutput,
  canRetry,
  prepareAttempt,
  retryAfterFailure,
} from "./execute.js";
import { isOutputObject, outputProblem } from "./outputs.js";
import type { Plan } from "./plan.js";
import { blockDecision, complete, takeRoute, takesRoute } from "./route.js";
import type { ExecutorInput, ExecutorOutput, MachineInput, SimulationState } from "./types.js";

/** The machine's id; targets are written `#agentflow.n3`. */
export const MACHINE_ID = "agentflow";
/** The invoke id and actor name llm/tool states use; hosts provide an actor under this name. */
export const EXECUTOR = "execute";

/** The event a finished executor sends (its output). */
export type ExecutorDoneEvent = DoneActorEvent<ExecutorOutput, typeof EXECUTOR>;
/** The event a failed executor sends. */
export type ExecutorErrorEvent = ErrorActorEvent<unknown, typeof EXECUTOR>;
/** Every event the machine handles: an executor's result. */
export type FlowEvent = ExecutorDoneEvent | ExecutorErrorEvent;

/** The placeholder executor: a machine nobody provided an executor for fails every node. */
const missingExecutor = fromPromise<ExecutorOutput, ExecutorInput>(({ input }) =>
  Promise.reject(new Error(`no "${EXECUTOR}" actor provided to run "${input.nodeId}"`)),
);

/** Params of the guards and actions that act on one node (its index). */
export interface NodeParams {
  readonly node: number;
}
/**
 * Params of the guard and actions of a step from one llm/tool node (`node`) straight into the
 * next llm/tool node (`next`): its output accepted and the next attempt checked in one transition.
 */
export interface StepParams {
  readonly node: number;
  readonly next: number;
}
/** Params of the route guard: the decision's index and the route's. */
export interface RouteParams {
  readonly node: number;
  readonly route: number;
}

function outputOf(event: FlowEvent): unknown {
  return event.type === `xstate.done.actor.${EXECUTOR}` ? event.output : undefined;
}

function errorOf(event: FlowEvent): unknown {
  return event.type === `xstate.error.actor.${EXECUTOR}` ? event.error : undefined;
}

/** XState `setup` with every guard and action of a run of `plan`. */
export function machineSetup(plan: Plan) {
  return setup({
    // XState's typing idiom: the assertion carries the machine's type parameters to `setup`.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    types: {} as {
      context: FlowContext;
      events: FlowEvent;
      input: MachineInput | undefined;
      output: SimulationState;
    },
    actors: { [EXECUTOR]: missingExecutor },
    guards: {
      attemptBlocked: ({ context }, p: NodeParams) =>
        prepareAttempt(plan, context, p.node).kind === "block",
      outputRefused: ({ event }, p: NodeParams) =>
        outputProblem(plan, p.node, outputOf(event)) !== undefined,
      nextAttemptBlocked: ({ context, event }, p: StepParams) => {
        const output = outputOf(event);
        if (!isOutputObject(output)) return false;
        const next = acceptedOutput(plan, context, p.node, output);
        return prepareAttempt(plan, next, p.next).kind === "block";
      },
      canRetry: ({ context }, p: NodeParams) => canRetry(plan, context, p.node),
      route: ({ context }, p: RouteParams) => takesRoute(plan, context, p.node, p.route),
    },
    actions: {
      blockAttempt: assign(({ context }, p: NodeParams) => blockAttempt(plan, context, p.node)),
      beginAttempt: assign(({ context }, p: NodeParams) => beginAttempt(plan, context, p.node)),
      blockOutput: assign(({ context, event }, p: NodeParams) =>
        blockOutput(plan, context, p.node, outputOf(event)),
      ),
      accept: assign(({ context, event }, p: NodeParams) => {
        const output = outputOf(event);
        // The `outputRefused` guard ran first, so this is an object; stay total regardless.
        return isOutputObject(output)
          ? acceptOutput(plan, context, p.node, output)
          : blockOutput(plan, context, p.node, output);
      }),
      acceptAndBlock: assign(({ context, event }, p: StepParams) => {
        const output = outputOf(event);
        return isOutputObject(output)
          ? blockAttempt(plan, acceptedOutput(plan, context, p.node, output), p.next)
          : blockOutput(plan, context, p.node, output);
      }),
      acceptAndBegin: assign(({ context, event }, p: StepParams) => {
        const output = outputOf(event);
        return isOutputObject(output)
          ? beginAttempt(plan, acceptedOutput(plan, context, p.node, output), p.next)
          : blockOutput(plan, context, p.node, output);
      }),
      retry: assign(({ context, event }, p: NodeParams) =>
        retryAfterFailure(plan, context, p.node, errorOf(event)),
      ),
      blockFailure: assign(({ context, event }, p: NodeParams) =>
        blockAfterFailure(plan, context, p.node, errorOf(event)),
      ),
      takeRoute: assign(({ context }, p: NodeParams) => takeRoute(plan, context, p.node)),
      blockDecision: assign(({ context }, p: NodeParams) => blockDecision(plan, context, p.node)),
      complete: assign(({ context }) => complete(plan, context)),
    },
  });
}

/** The executor actor's logic: a promise from {@link ExecutorInput} to the node's output. */
export type ExecutorLogic = PromiseActorLogic<ExecutorOutput, ExecutorInput>;

/** Actions that act on one node (their params are {@link NodeParams}). */
export type NodeAction =
  | "retry"
  | "blockAttempt"
  | "beginAttempt"
  | "blockOutput"
  | "accept"
  | "blockFailure"
  | "takeRoute"
  | "blockDecision";
/** Guards that test one node (their params are {@link NodeParams}). */
export type NodeGuard = "attemptBlocked" | "outputRefused" | "canRetry";

/** The machine's named actions with their params. */
export type FlowAction =
  | { [K in NodeAction]: { type: K; params: NodeParams } }[NodeAction]
  | { type: "acceptAndBlock"; params: StepParams }
  | { type: "acceptAndBegin"; params: StepParams }
  | { type: "complete"; params: NonReducibleUnknown };

/** The machine's named guards with their params. */
export type FlowGuard =
  | { type: "route"; params: RouteParams }
  | { type: "nextAttemptBlocked"; params: StepParams }
  | { [K in NodeGuard]: { type: K; params: NodeParams } }[NodeGuard];

/**
 * The type of the machine `toMachine` returns, written out so that it can be named: XState's
 * `StateMachine` with this module's context, events, executor, actions, guards, input and output.
 */
export type FlowMachine = StateMachine<
  FlowContext,
  FlowEvent,
  Record<string, ActorRefFromLogic<ExecutorLogic> | undefined>,
  { src: typeof EXECUTOR; logic: ExecutorLogic; id: string | undefined },
  FlowAction,
  FlowGuard,
  never,
  // XState infers `{}` for the child state values of a config built at run time.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  Record<string, {}>,
  string,
  MachineInput | undefined,
  SimulationState,
  EventObject,
  MetaObject,
  {
    id: typeof MACHINE_ID;
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    states: Record<string, { states?: {}; id?: string }>;
  },
  MetaObject
>;
