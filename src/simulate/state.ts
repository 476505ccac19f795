/**
 * From a run's context to the seed's `SimulationState`, and small readers of a state. The node and
 * edge lists are in the trail's order, so the result depends on nothing but the run (no
 * `Set`/`Map` iteration order leaks into it).
 */
import type { FlowContext } from "./context.js";
import { firstSeen, see, seenList } from "./first-seen.js";
import type { Plan } from "./plan.js";
import type { JsonObject, SimulationState, TransitionRecord, Usage } from "./types.js";

/** The distinct values of `key` in trail order (see first-seen.ts). */
function distinct(
  records: readonly TransitionRecord[],
  key: "nodeId" | "edgeId",
  numbers: ReadonlyMap<string, number>,
  names: readonly (string | undefined)[],
): string[] {
  const seen = firstSeen(names.length);
  for (const record of records) {
    const value = record[key];
    if (value !== undefined) see(seen, value, numbers.get(value));
  }
  return seenList(seen, names);
}

/**
 * The `SimulationState` of a context: a finished run, or a run paused at an attempt (a machine's
 * snapshot), whose token is at the node being executed. `marked: false` reads the node and edge
 * lists from the records, for a `plan` other than the run's (its ids are numbered alike, its
 * edge ids in the order its own runs made them).
 */
export function toSimulationState(plan: Plan, ctx: FlowContext, marked = true): SimulationState {
  const blocked = ctx.blocked;
  const running = ctx.complete || blocked !== null ? undefined : plan.ids[ctx.at];
  const at = blocked !== null ? blocked.nodeId : (running ?? "");
  const { records, nodes, edges } = ctx.trail;
  // A run marks a turn's node and edge as the turn starts (run.ts): a paused run has marked the
  // attempt that has no record yet, so its lists are read from its records. Its records are
  // copied: the context, which a snapshot holds, is not the caller's to change.
  const paused = running !== undefined || !marked;
  return {
    tokens: at === "" ? [] : [at],
    joinArrivals: {},
    traversedEdges: paused
      ? distinct(records, "edgeId", plan.edgeIds.numbers, plan.edgeIds.names)
      : seenList(edges, plan.edgeIds.names),
    visitedNodes: paused
      ? distinct(records, "nodeId", plan.graph.index, plan.ids)
      : seenList(nodes, plan.ids),
    trail: paused ? records.slice() : records,
    complete: ctx.complete,
    deadlocked: false,
    pendingChoice: null,
    boundaryOptions: null,
    pendingDecisionInput: null,
    blockedDecision: blocked,
  };
}

/**
 * The final merged output of a completed run; `undefined` when the run did not complete.
 *
 * @example
 * ```ts
 * import { getTemplate } from "agentflow/model";
 * import { finalOutput, simulate } from "agentflow/simulate";
 *
 * const research = getTemplate("research");
 * if (research === undefined) throw new Error("no such template");
 * const fixtures = {
 *   "llm-1": { outputs: [{ query: "q", answer: "a", sources: [], is_complete: true }] },
 * };
 * finalOutput(simulate(research, { fixtures, input: { query: "q" } }));
 * // → { query: "q", answer: "a", sources: [], is_complete: true }
 * ```
 */
export function finalOutput(state: SimulationState): JsonObject | undefined {
  if (!state.complete) return undefined;
  const last = state.trail[state.trail.length - 1];
  return last?.type === "end" ? last.output : undefined;
}

/**
 * What the run used (steps, moves, tokens, logical time; cost and wall time with a cost model).
 *
 * @example
 * ```ts
 * import { getTemplate } from "agentflow/model";
 * import { runUsage, simulate } from "agentflow/simulate";
 *
 * const research = getTemplate("research");
 * if (research === undefined) throw new Error("no such template");
 * const fixtures = {
 *   "llm-1": { outputs: [{ query: "q", answer: "a", sources: [], is_complete: true }] },
 * };
 * runUsage(simulate(research, { fixtures, input: { query: "q" } }));
 * // → { steps: 2, moves: 3, tokens: 4096, logicalTime: 0 }
 * ```
 */
export function runUsage(state: SimulationState): Usage {
  const last = state.trail[state.trail.length - 1];
  return last?.usage ?? { steps: 0, moves: 0, tokens: 0, logicalTime: 0 };
}
