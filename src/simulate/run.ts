/**
 * The run: one loop over the compiled plan, and the only statement of a run's semantics.
 * `simulate` and `explore` run it with the fixtures giving each attempt's result; the XState
 * machine (machine.ts) runs it with no fixtures, so that it pauses at each attempt, and goes on
 * with the executor's result ({@link resume}). A turn of the loop calls the steps in execute.ts
 * and route.ts, which write the context the run owns in place.
 */
import { NODE_KIND, type AgentWorkflow } from "../model/index.js";
import { choose } from "./choose.js";
import {
  forkedContext,
  initialContext,
  lastRecord,
  type FlowContext,
  type Trail,
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
import { buildPlan, edgeIdAt, edgeSlot, NO_EDGE, TO_END, type Plan } from "./plan.js";
import { see } from "./first-seen.js";
import { blockDecision, complete, takeRoute } from "./route.js";
import { visitsAt } from "./table.js";
import type { CostModel, JsonObject, MachineInput } from "./types.js";

const plain = new WeakMap<AgentWorkflow, Plan>();
const costed = new WeakMap<AgentWorkflow, WeakMap<CostModel, Plan>>();

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

/**
 * Marks what the records of a turn at node `k` name: the node, and the edge the token took to it
 * from `prev`. Every turn writes a record naming both (the attempt's, the decision's, or the
 * stop's), and a turn's records come after the previous turn's, so marking them here gives the
 * trail's order; the end record names the last node, already marked, and perhaps an edge to
 * `"end"`, marked by the caller.
 */
function seeTurn(plan: Plan, trail: Trail, prev: number, k: number): void {
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
 * Runs `plan` from its entry until it completes or stops — or, without `fixtures`, until its
 * first attempt begins — and returns the run's context. `stopAt` lets explore end a run at the
 * decision it will branch on, instead of running on to an end it discards. @throws TypeError
 * when the input is malformed (API misuse).
 */
export function interpret(
  plan: Plan,
  fixtures: FixtureSource | undefined,
  input: MachineInput | undefined,
  stopAt?: StopAt,
): FlowContext {
  const ctx = initialContext(plan, input);
  const entry = plan.graph.entry;
  return entry === undefined ? ctx : runFrom(plan, fixtures, ctx, entry, stopAt);
}

/**
 * Ends the attempt of node `k` that `ctx` began: with `result` as the executor's error when
 * `failed`, else as its output. A failure is retried when the node's error boundary allows it
 * (the context is then still at `k`); an output is checked, then accepted.
 */
function settle(
  plan: Plan,
  ctx: FlowContext,
  k: number,
  failed: boolean,
  result: unknown,
): FlowContext {
  if (failed) {
    return canRetry(plan, ctx, k)
      ? retryAfterFailure(plan, ctx, k, result)
      : blockAfterFailure(plan, ctx, k, result);
  }
  const problem = outputProblem(plan, k, result);
  if (problem !== undefined) return blockOutput(plan, ctx, k, result, problem);
  return acceptOutput(plan, ctx, k, result as JsonObject);
}

/**
 * Goes on with a run that owns `start` from node `from`, where the token is, until it completes
 * or stops, or, without `fixtures`, pauses at an attempt begun: the loop of {@link interpret}. A
 * run that `stopAt` ended at a decision goes on from that decision, whose turn starts again: what
 * the turn marks is marked already (marking twice changes nothing), and the decide table now has
 * a label for the visit.
 */
export function runFrom(
  plan: Plan,
  fixtures: FixtureSource | undefined,
  start: FlowContext,
  from: number,
  stopAt?: StopAt,
): FlowContext {
  let ctx = start;
  let k = from;
  const trail = ctx.trail;
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
    const prepared = prepare(plan, ctx, k);
    if (prepared.kind === "block") return blockAttempt(plan, ctx, k, prepared);
    ctx = beginAttempt(plan, ctx, k, prepared);
    // Paused: the machine's executor gives the attempt's result.
    if (fixtures === undefined) return ctx;
    const fixture = fixtures.of(plan, k);
    const failure = fixtureFailure(fixture, ctx, k);
    ctx =
      failure !== undefined
        ? settle(plan, ctx, k, true, failure)
        : settle(plan, ctx, k, false, fixtures.output(plan, k, fixture, ctx.nodes));
    if (ctx.blocked !== null) return ctx;
    // A retried attempt stays at `k`; an accepted output goes on.
    if (ctx.at !== k) k = plan.next[k] ?? TO_END;
  }
  return ctx;
}

/**
 * A paused run (`ctx`, at an attempt begun) gone on with the attempt's result, as
 * {@link runFrom}'s `settle` takes it, until the next attempt begins or the run ends. The run
 * goes on in a copy: `ctx` stays as it was, so a snapshot that holds it stays valid.
 */
export function resume(
  plan: Plan,
  ctx: FlowContext,
  failed: boolean,
  result: unknown,
): FlowContext {
  const k = ctx.at;
  if (k < 0 || ctx.blocked !== null || ctx.complete) return ctx;
  const next = settle(plan, forkedContext(ctx, ctx.decide), k, failed, result);
  if (next.blocked !== null) return next;
  return runFrom(plan, undefined, next, next.at === k ? k : (plan.next[k] ?? TO_END));
}
