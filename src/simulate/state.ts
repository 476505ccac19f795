/**
 * From the machine's context to the seed's `SimulationState`, and small readers of a state. The
 * token, node and edge lists are derived from the trail in its order, so the result depends on
 * nothing but the run (no `Set`/`Map` iteration order leaks into it).
 */
import { trailArray, type FlowContext } from "./context.js";
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
 * The `SimulationState` of a context: a finished run, or a snapshot of one in progress (whose
 * token is at the node being executed).
 */
export function toSimulationState(plan: Plan, ctx: FlowContext): SimulationState {
  const trail = trailArray(ctx.trail);
  const blocked = ctx.blocked;
  const running = ctx.complete || blocked !== null ? undefined : plan.ids[ctx.at];
  const at = blocked !== null ? blocked.nodeId : (running ?? "");
  // A run that owned its trail kept both lists as it went.
  const owned = ctx.trail !== null && "owned" in ctx.trail ? ctx.trail : undefined;
  return {
    tokens: at === "" ? [] : [at],
    joinArrivals: {},
    traversedEdges:
      owned !== undefined
        ? seenList(owned.edges, plan.edgeIds.names)
        : distinct(trail, "edgeId", plan.edgeIds.numbers, plan.edgeIds.names),
    visitedNodes:
      owned !== undefined
        ? seenList(owned.nodes, plan.ids)
        : distinct(trail, "nodeId", plan.graph.index, plan.ids),
    trail,
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
