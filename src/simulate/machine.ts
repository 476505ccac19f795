/**
 * The workflow as an XState v5 machine (SPEC 5). One top-level state per node (`n0`, `n1`...,
 * because node ids may hold `.` and `#`, which XState reads as paths and ids), plus `finishing`
 * (the final output check), `completed` and `blocked`. All semantics live in the machine: the
 * simulator only feeds it fixture outputs, and a host that runs it with real executors gets the
 * same budgets, retries, error boundaries and schema checks.
 */
import type { AgentWorkflow } from "../model/index.js";
import type { FlowContext } from "./context.js";
import { buildMachine } from "./machine-build.js";
import type { FlowMachine } from "./machine-setup.js";
import { buildPlan, type Plan } from "./plan.js";
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
  StepParams,
  RouteParams,
} from "./machine-setup.js";
export { EXECUTOR, MACHINE_ID } from "./machine-setup.js";

const plain = new WeakMap<AgentWorkflow, Plan>();
const costed = new WeakMap<AgentWorkflow, WeakMap<CostModel, Plan>>();
const machines = new WeakMap<Plan, FlowMachine>();

/** The compiled plan of a workflow, memoised per workflow object and cost model. */
export function compilePlan(wf: AgentWorkflow, costModel?: CostModel): Plan {
  if (costModel === undefined) {
    let hit = plain.get(wf);
    if (hit === undefined) {
      hit = buildPlan(wf);
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
    hit = buildPlan(wf, costModel);
    byModel.set(costModel, hit);
  }
  return hit;
}

/** The machine with a state for every node of `plan`, built once per plan. */
export function fullMachine(plan: Plan): FlowMachine {
  let machine = machines.get(plan);
  if (machine === undefined) {
    machine = buildMachine(plan);
    machines.set(plan, machine);
  }
  return machine;
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
 * Like the workflow's flow graph, the machine is memoised: treat workflows as immutable. XState
 * builds every state up front, 80 to 100 µs per node (seconds for 100,000 nodes); `simulate`
 * interprets the same compiled plan instead (docs/simulation.md, "Why simulate does not drive
 * XState").
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
  return fullMachine(compilePlan(wf, options?.costModel));
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
  const plan = compilePlan(wf);
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
  return toSimulationState(compilePlan(wf), snapshot.context);
}
