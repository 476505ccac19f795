/**
 * The run `simulate` and `explore` make: the machine's transitions (machine-build.ts), taken in
 * the machine's order by a loop over the compiled plan instead of by XState. Written by hand
 * because XState's transition, general over every machine, cost 25 times the seed engine's step
 * on a chain: per step it creates a snapshot and an actor for the invoked executor, and scans
 * the eventless transitions of every state it enters. Here a step is a call of each guard and
 * action the machine's transition would call — the same functions (execute.ts, route.ts), so the
 * semantics live in one place — and nothing else; test/simulate/equivalence.property.test.ts
 * proves over random workflows, fixtures and options that both give the same `SimulationState`,
 * byte for byte.
 */
import { NODE_KIND } from "../model/index.js";
import { choose } from "./choose.js";
import {
  initialContext,
  lastRecord,
  nextContext,
  type FlowContext,
  type OwnedTrail,
} from "./context.js";
import {
  acceptOutput,
  beginAttempt,
  blockAfterFailure,
  blockAttempt,
  blockOutput,
  canRetry,
  prepare,
  retryAfterFailure,
} from "./execute.js";
import { fixtureFailure, type FixtureSource } from "./fixtures.js";
import { outputProblem } from "./outputs.js";
import { edgeIdAt, edgeSlot, NO_EDGE, TO_END, type Plan } from "./plan.js";
import { firstSeen, see } from "./first-seen.js";
import { blockDecision, complete, takeRoute } from "./route.js";
import { ownedTable, visitsAt } from "./table.js";
import type { MachineInput } from "./types.js";

/**
 * Marks what the records of a turn at node `k` name: the node, and the edge the token took to it
 * from `prev`. Every turn writes a record naming both (the attempt's, the decision's, or the
 * stop's), and a turn's records come after the previous turn's, so marking them here gives the
 * trail's order; the end record names the last node, already marked, and perhaps an edge to
 * `"end"`, marked by the caller.
 */
function seeTurn(plan: Plan, trail: OwnedTrail, prev: number, k: number): void {
  see(trail.nodes, plan.ids[k] ?? "", plan.graph.firstOf[k]);
  const slot = edgeSlot(plan, prev, k);
  if (slot === NO_EDGE) return;
  const edgeId = edgeIdAt(plan, slot, prev, k) ?? "";
  const cache = plan.edgeIds;
  see(trail.edges, edgeId, slot >= 0 ? cache.slotNumbers[slot] : cache.numbers.get(edgeId));
}

/**
 * Asked at each decision the run evaluates itself (no `decide` label for this visit) with the
 * decision and the visit; `true` ends the run there, before the decision's record.
 */
export type StopAt = (k: number, visit: number) => boolean;

/**
 * Runs `plan` from its entry until it completes or stops, and returns the final context: what the
 * machine's final snapshot holds. `stopAt` lets explore end a run at the decision it will branch
 * on, instead of running on to an end it discards. @throws TypeError when the input is malformed
 * (API misuse).
 */
export function interpret(
  plan: Plan,
  fixtures: FixtureSource,
  input: MachineInput,
  stopAt?: StopAt,
): FlowContext {
  const initial = initialContext(plan, input);
  const entry = plan.graph.entry;
  if (entry === undefined) return initial;
  // No one sees this run's contexts but the loop, so the run owns its context, counters, trail,
  // merged output and spending (`ownsRun` in context.ts) and writes them in place; the initial
  // context, shared between runs, is copied first and never written.
  const trail: OwnedTrail = {
    owned: [],
    nodes: firstSeen(plan.ids.length),
    edges: firstSeen(plan.edgeIds.size),
  };
  const ctx = nextContext(initial, {
    nodes: ownedTable(initial.nodes.size),
    trail,
    merged: {},
    spent: { ...initial.spent },
  });
  return runFrom(plan, fixtures, ctx, entry, stopAt);
}

/**
 * Goes on with a run that owns `start` (its own, or a `forkedContext` of one) from node `from`,
 * where the token is, until it completes or stops: the loop of {@link interpret}. A run that
 * `stopAt` ended at a decision goes on from that decision, whose turn starts again: what the turn
 * marks is marked already (marking twice changes nothing), and the decide table now has a label
 * for the visit.
 */
export function runFrom(
  plan: Plan,
  fixtures: FixtureSource,
  start: FlowContext,
  from: number,
  stopAt?: StopAt,
): FlowContext {
  let ctx = start;
  let k = from;
  const trail = ctx.trail;
  if (trail === null || !("owned" in trail))
    throw new Error("a run goes on from a context it owns");
  // Type bytes, not nodes: at 100,000 nodes the node objects are not in the cache.
  const kinds = plan.graph.kind;
  // Every turn of the loop makes a move (an attempt or a decision evaluation) or ends the run,
  // and moves are bounded by maxSteps; the explicit bound only guards against a defect.
  const bound = ctx.limits.maxSteps + 2;
  for (let turn = 0; turn <= bound; turn++) {
    if (k === TO_END || k < 0) {
      const done = complete(plan, ctx);
      const edgeId = lastRecord(done.trail)?.edgeId;
      if (edgeId !== undefined) see(trail.edges, edgeId, plan.edgeIds.numbers.get(edgeId));
      return done;
    }
    seeTurn(plan, trail, ctx.prev, k);
    if (kinds[k] === NODE_KIND.decision) {
      // The decision state's eventless transitions: the chosen route's, else `blockDecision`.
      const choice = choose(plan, ctx, k);
      if (choice.forced === false && stopAt?.(k, visitsAt(ctx.nodes, k) + 1) === true) return ctx;
      const route = choice.kind === "route" ? plan.routes[k]?.[choice.route] : undefined;
      if (choice.kind !== "route" || route === undefined) {
        return blockDecision(plan, ctx, k, choice);
      }
      ctx = takeRoute(plan, ctx, k, choice);
      k = route.target;
      continue;
    }
    // The `check` state, then `run`: the executor's result is the fixture's.
    const prepared = prepare(plan, ctx, k);
    if (prepared.kind === "block") return blockAttempt(plan, ctx, k, prepared);
    ctx = beginAttempt(plan, ctx, k, prepared);
    const fixture = fixtures.of(plan, k);
    const failure = fixtureFailure(fixture, ctx, k);
    if (failure !== undefined) {
      if (!canRetry(plan, ctx, k)) return blockAfterFailure(plan, ctx, k, failure);
      ctx = retryAfterFailure(plan, ctx, k, failure);
      continue;
    }
    const output = fixtures.output(plan, k, fixture, ctx.nodes);
    if (outputProblem(plan, k, output) !== undefined) return blockOutput(plan, ctx, k, output);
    ctx = acceptOutput(plan, ctx, k, output);
    k = plan.next[k] ?? TO_END;
  }
  return ctx;
}
