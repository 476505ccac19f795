/**
 * The workflow as an XState v5 machine (SPEC 5). One top-level state per node (`n0`, `n1`...,
 * because node ids may hold `.` and `#`, which XState reads as paths and ids), plus `finishing`
 * (the final output check), `completed` and `blocked`. All semantics live in the machine: the
 * simulator only feeds it fixture outputs, and a host that runs it with real executors gets the
 * same budgets, retries, error boundaries and schema checks.
 */
import type { AgentWorkflow } from "../model/index.js";
import { initialContext, type FlowContext } from "./context.js";
import { executorInput } from "./execute.js";
import { EXECUTOR, MACHINE_ID, machineSetup, type FlowMachine } from "./machine-setup.js";
import { buildPlan, TO_END, TO_MISSING, type Plan } from "./plan.js";
import { toSimulationState } from "./state.js";
import type { CostModel, SimulationState } from "./types.js";

export type {
  ExecutorDoneEvent,
  ExecutorErrorEvent,
  ExecutorLogic,
  FlowAction,
  FlowEvent,
  FlowGuard,
  FlowMachine,
  NodeAction,
  NodeGuard,
  NodeParams,
  RouteParams,
} from "./machine-setup.js";
export { EXECUTOR, MACHINE_ID } from "./machine-setup.js";

type MachineSetup = ReturnType<typeof machineSetup>;
type MachineConfig = Parameters<MachineSetup["createMachine"]>[0];
type StateConfig = NonNullable<MachineConfig["states"]>[string];

/** The state a flow goes to when it reaches node index `target` (or the end). */
function stateFor(plan: Plan, target: number): string {
  return target === TO_END || target < 0
    ? `#${MACHINE_ID}.finishing`
    : `#${MACHINE_ID}.${plan.stateIds[target] ?? ""}`;
}

function executionState(plan: Plan, k: number): StateConfig {
  const params = { node: k };
  return {
    initial: "check",
    states: {
      check: {
        always: [
          {
            guard: { type: "attemptBlocked", params },
            target: `#${MACHINE_ID}.blocked`,
            actions: { type: "blockAttempt", params },
          },
          { target: "run", actions: { type: "beginAttempt", params } },
        ],
      },
      run: {
        invoke: {
          id: EXECUTOR,
          src: EXECUTOR,
          input: ({ context }) => executorInput(plan, context, k),
          onDone: [
            {
              guard: { type: "outputRefused", params },
              target: `#${MACHINE_ID}.blocked`,
              actions: { type: "blockOutput", params },
            },
            {
              target: stateFor(plan, plan.next[k] ?? -1),
              reenter: true,
              actions: { type: "accept", params },
            },
          ],
          onError: [
            {
              guard: { type: "canRetry", params },
              target: "check",
              actions: { type: "retry", params },
            },
            { target: `#${MACHINE_ID}.blocked`, actions: { type: "blockFailure", params } },
          ],
        },
      },
    },
  };
}

function decisionState(plan: Plan, k: number): StateConfig {
  const params = { node: k };
  // A route to a missing node has no state to go to; choosing it stops the run (blockDecision).
  const routes = (plan.routes[k] ?? []).flatMap((route, r) =>
    route.target === TO_MISSING
      ? []
      : [
          {
            guard: { type: "route" as const, params: { node: k, route: r } },
            target: stateFor(plan, route.target),
            reenter: true,
            actions: { type: "takeRoute" as const, params },
          },
        ],
  );
  return {
    always: [
      ...routes,
      { target: `#${MACHINE_ID}.blocked`, actions: { type: "blockDecision", params } },
    ],
  };
}

function buildMachine(plan: Plan): FlowMachine {
  const states: Record<string, StateConfig> = {};
  plan.graph.nodes.forEach((node, k) => {
    const id = plan.stateIds[k] ?? `n${k}`;
    states[id] = node.type === "decision" ? decisionState(plan, k) : executionState(plan, k);
  });
  states.finishing = {
    always: [
      { guard: "canComplete", target: "completed", actions: "complete" },
      { target: "blocked", actions: "blockFinal" },
    ],
  };
  states.completed = { type: "final" };
  states.blocked = { type: "final" };
  const entry = plan.graph.entry;
  return machineSetup(plan).createMachine({
    id: MACHINE_ID,
    context: ({ input }) => initialContext(plan, input),
    initial: entry === undefined ? "blocked" : (plan.stateIds[entry] ?? "blocked"),
    states,
    output: ({ context }) => toSimulationState(plan, context),
  });
}

/** A built machine with the plan it was compiled from (the simulator drives both). */
export interface CompiledFlow {
  readonly plan: Plan;
  readonly machine: FlowMachine;
}

const plain = new WeakMap<AgentWorkflow, CompiledFlow>();
const costed = new WeakMap<AgentWorkflow, WeakMap<CostModel, CompiledFlow>>();

/** The compiled plan and machine of a workflow, memoised per workflow object and cost model. */
export function compileFlow(wf: AgentWorkflow, costModel?: CostModel): CompiledFlow {
  if (costModel === undefined) {
    let hit = plain.get(wf);
    if (hit === undefined) {
      const plan = buildPlan(wf);
      hit = { plan, machine: buildMachine(plan) };
      plain.set(wf, hit);
    }
    return hit;
  }
  let byModel = costed.get(wf);
  if (byModel === undefined) {
    byModel = new WeakMap();
    costed.set(wf, byModel);
  }
  let hit = byModel.get(costModel);
  if (hit === undefined) {
    const plan = buildPlan(wf, costModel);
    hit = { plan, machine: buildMachine(plan) };
    byModel.set(costModel, hit);
  }
  return hit;
}

/** Options of {@link toMachine}. */
export interface MachineOptions {
  /** Projects tokens, cost and wall time per node; read once, when the machine is built. */
  readonly costModel?: CostModel;
}

/**
 * The workflow as an XState v5 machine. llm/tool states invoke the actor named `execute` with an
 * {@link ExecutorInput}; provide a real one with
 * `machine.provide({ actors: { execute: fromPromise(async ({ input }) => ...) } })`. The machine's
 * input is a {@link MachineInput}; its output, once done, the run's {@link SimulationState}.
 * Like the workflow's flow graph, the machine is memoised: treat workflows as immutable.
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
  return compileFlow(wf, options?.costModel).machine;
}

/**
 * The state id of every node, in document order (`n0`, `n1`...), with the node's id and type.
 *
 * @example
 * ```ts
 * import { getTemplate } from "agentflow/model";
 * import { machineStates } from "agentflow/simulate";
 *
 * const research = getTemplate("research");
 * if (research === undefined) throw new Error("no such template");
 * machineStates(research).map((s) => `${s.stateId}:${s.nodeId}`);
 * // → ["n0:llm-1", "n1:tool-2", "n2:dec-3"]
 * ```
 */
export function machineStates(
  wf: AgentWorkflow,
): readonly { readonly stateId: string; readonly nodeId: string; readonly type: string }[] {
  const { plan } = compileFlow(wf);
  return plan.graph.nodes.map((node, k) => ({
    stateId: plan.stateIds[k] ?? `n${k}`,
    nodeId: node.id,
    type: node.type,
  }));
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
  snapshot: { readonly context: FlowContext },
): SimulationState {
  return toSimulationState(compileFlow(wf).plan, snapshot.context);
}
