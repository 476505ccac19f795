/**
 * The workflow as an XState v5 machine (SPEC 5), for hosts that run it with real executors. The
 * machine holds the run (run.ts) in its context and has four states: `run` invokes the executor
 * for the attempt the run paused at, `check` goes on to the next, and `completed` and `blocked`
 * are final. Its actions call the run itself, so a host gets the budgets, retries, error
 * boundaries, schema checks and trail of `simulate`, which is the same run with the fixtures as
 * its executor.
 */
import type {
  ActorRefFromLogic,
  DoneActorEvent,
  ErrorActorEvent,
  EventObject,
  MetaObject,
  PromiseActorLogic,
  StateMachine,
} from "xstate";
import { assign, fromPromise, setup } from "xstate";
import type { AgentWorkflow } from "../model/index.js";
import type { FlowContext } from "./context.js";
import { executorInput } from "./execute.js";
import type { Plan } from "./plan.js";
import { compilePlan, interpret, resume } from "./run.js";
import { toSimulationState } from "./state.js";
import type {
  CostModel,
  ExecutorInput,
  ExecutorOutput,
  MachineInput,
  SimulationState,
} from "./types.js";

/** The machine's id. */
export const MACHINE_ID = "agentflow";
/** The invoke id and actor name of the executor; hosts provide an actor under this name. */
export const EXECUTOR = "execute";

/** The event a finished executor sends (its output). */
export type ExecutorDoneEvent = DoneActorEvent<ExecutorOutput, typeof EXECUTOR>;
/** The event a failed executor sends. */
export type ExecutorErrorEvent = ErrorActorEvent<unknown, typeof EXECUTOR>;
/** Every event the machine handles: an executor's result. */
export type FlowEvent = ExecutorDoneEvent | ExecutorErrorEvent;
/** The executor actor's logic: a promise from {@link ExecutorInput} to the node's output. */
export type ExecutorLogic = PromiseActorLogic<ExecutorOutput, ExecutorInput>;

declare const RUN: unique symbol;

/**
 * What the machine's snapshots hold in `context`: the run so far. Read it with
 * {@link snapshotState}; its fields are the simulator's own, laid out for speed, not an API.
 */
// A type alias: XState's context type is an index signature, which interfaces do not satisfy.
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions
export type RunContext = { readonly [RUN]: true };

/**
 * The type of the machine `toMachine` returns, written out so that it can be named: XState's
 * `StateMachine` with the run as its context, the executor's events, input and output.
 */
export type FlowMachine = StateMachine<
  RunContext,
  FlowEvent,
  Record<string, ActorRefFromLogic<ExecutorLogic> | undefined>,
  { src: typeof EXECUTOR; logic: ExecutorLogic; id: string | undefined },
  never,
  never,
  never,
  "run" | "check" | "completed" | "blocked",
  string,
  MachineInput | undefined,
  SimulationState,
  EventObject,
  MetaObject,
  {
    id: typeof MACHINE_ID;
    // XState's schema of a state without children.
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    states: { check: {}; run: {}; completed: {}; blocked: {} };
  },
  MetaObject
>;

/** The placeholder executor: a machine nobody provided an executor for fails every node. */
const missingExecutor = fromPromise<ExecutorOutput, ExecutorInput>(({ input }) =>
  Promise.reject(new Error(`no "${EXECUTOR}" actor provided to run "${input.nodeId}"`)),
);

/**
 * The run without input, shared: XState's pure `transition` builds a throwaway actor, and so an
 * initial context, on every call. The machine never writes a context it holds (see `resume`).
 */
const started = new WeakMap<Plan, FlowContext>();

function start(plan: Plan, input: MachineInput | undefined): FlowContext {
  if (input !== undefined) return interpret(plan, undefined, input);
  let ctx = started.get(plan);
  if (ctx === undefined) {
    ctx = interpret(plan, undefined, undefined);
    started.set(plan, ctx);
  }
  return ctx;
}

function buildMachine(plan: Plan): FlowMachine {
  const machine = runMachine(plan);
  // The run's context, typed for the steps inside, is opaque outside (`RunContext`).
  return machine as unknown as FlowMachine;
}

function runMachine(plan: Plan) {
  const ended = (ctx: FlowContext) => ctx.complete || ctx.blocked !== null;
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
  }).createMachine({
    id: MACHINE_ID,
    context: ({ input }) => start(plan, input),
    initial: "check",
    states: {
      check: {
        always: [
          { guard: ({ context }) => context.complete, target: "completed" },
          { guard: ({ context }) => ended(context), target: "blocked" },
          { target: "run" },
        ],
      },
      run: {
        invoke: {
          id: EXECUTOR,
          src: EXECUTOR,
          input: ({ context }) => executorInput(plan, context, context.at),
          onDone: {
            target: "check",
            actions: assign(({ context, event }) => resume(plan, context, false, event.output)),
          },
          onError: {
            target: "check",
            actions: assign(({ context, event }) => resume(plan, context, true, event.error)),
          },
        },
      },
      completed: { type: "final" },
      blocked: { type: "final" },
    },
    output: ({ context }) => toSimulationState(plan, context),
  });
}

const machines = new WeakMap<Plan, FlowMachine>();

/** Options of {@link toMachine}. */
export interface MachineOptions {
  /** Projects tokens, cost and wall time per node; read once, when the machine is built. */
  readonly costModel?: CostModel;
}

/**
 * The workflow as an XState v5 machine. At each llm/tool attempt it invokes the actor named
 * `execute` with an {@link ExecutorInput}; provide a real one with
 * `machine.provide({ actors: { execute: fromPromise(async ({ input }) => ...) } })`. The machine's
 * input is a {@link MachineInput}; its output, once done, the run's {@link SimulationState}: what
 * `simulate` gives when the fixtures give what the executor gave. Memoised per workflow object
 * (treat workflows as immutable); it has four states whatever the workflow's size.
 * @throws TypeError when the cost model returns something other than non-negative numbers.
 *
 * @example
 * ```ts
 * import { getTemplate } from "agentflow/model";
 * import { toMachine } from "agentflow/simulate";
 * import { createActor, fromPromise } from "xstate";
 *
 * const research = getTemplate("research");
 * if (research === undefined) throw new Error("no such template");
 * // A host runs the same machine with its own executor for llm and tool nodes.
 * const machine = toMachine(research).provide({
 *   actors: {
 *     execute: fromPromise(
 *       async (): Promise<Readonly<Record<string, unknown>>> => ({ answer: "a", is_complete: true }),
 *     ),
 *   },
 * });
 * const actor = createActor(machine, { input: { input: { query: "heat pumps" } } });
 * machine.id; // → "agentflow"
 * typeof actor.start; // → "function"
 * ```
 */
export function toMachine(wf: AgentWorkflow, options?: MachineOptions): FlowMachine {
  const plan = compilePlan(wf, options?.costModel);
  let machine = machines.get(plan);
  if (machine === undefined) {
    machine = buildMachine(plan);
    machines.set(plan, machine);
  }
  return machine;
}

/**
 * The `SimulationState` of a machine snapshot, finished or not: what a host running the machine
 * with real executors shows while it runs (a done snapshot's `output` is the same value).
 *
 * @example
 * ```ts
 * import { getTemplate } from "agentflow/model";
 * import { snapshotState, toMachine } from "agentflow/simulate";
 * import { initialTransition } from "xstate";
 *
 * const research = getTemplate("research");
 * if (research === undefined) throw new Error("no such template");
 * const [snapshot] = initialTransition(toMachine(research), { input: { query: "q" } });
 * snapshotState(research, snapshot).tokens; // → ["llm-1"]
 * ```
 */
export function snapshotState(
  wf: AgentWorkflow,
  snapshot: { readonly context: RunContext },
): SimulationState {
  const ctx = snapshot.context as unknown as FlowContext;
  // The machine's plan may be another (a cost model's): the lists are read from the records.
  return toSimulationState(compilePlan(wf), ctx, false);
}
