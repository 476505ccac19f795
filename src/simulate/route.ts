/**
 * The decision side of a run and its end, as updates of the context the run owns: following the
 * chosen route, stopping at a decision, and completing (with a finding when the final output
 * breaks the workflow's outputSchema).
 */
import { spendMove, usageOf } from "./budget.js";
import type { Choice } from "./choose.js";
import {
  lastRecord,
  nextContext,
  push,
  type FlowContext,
  type Mutable,
  type RecordDraft,
} from "./context.js";
import { blockAt } from "./execute.js";
import { finalFinding, finalProblem } from "./outputs.js";
import { edgeIdBetween, type Plan } from "./plan.js";
import { nodeAt, visitsAt, withNode } from "./table.js";

/** Why a route was taken by evaluation, for the message. */
function whyTaken(plan: Plan, k: number, r: number): string {
  const routes = plan.routes[k] ?? [];
  const text = routes[r]?.conditionText;
  if (text !== undefined) return `${text} holds`;
  const first = routes[0]?.conditionText;
  if (routes.length === 2 && r === 1 && first !== undefined) return `${first} does not hold`;
  return "no case holds";
}

/** Follows route `choice` of decision `k`: one move, the retry count, a `decision` record. */
export function takeRoute(plan: Plan, ctx: FlowContext, k: number, choice: Choice): FlowContext {
  const route = choice.kind === "route" ? plan.routes[k]?.[choice.route] : undefined;
  if (choice.kind !== "route" || route === undefined) return blockDecision(plan, ctx, k, choice);
  const nodeId = plan.ids[k] ?? "";
  const visit = visitsAt(ctx.nodes, k) + 1;
  const spent = spendMove(ctx);
  const how = choice.forced ? "forced by decide" : whyTaken(plan, k, choice.route);
  const retry = choice.retry;
  const retryText = retry !== undefined ? `, retry ${retry.count} of ${retry.max}` : "";
  const record: RecordDraft = {
    step: spent.moves,
    type: "decision",
    message: `${nodeId} takes ${route.label} to ${route.next} (${how}${retryText})`,
    nodeId,
  };
  const edgeId = edgeIdBetween(plan, ctx.prev, k);
  if (edgeId !== undefined) record.edgeId = edgeId;
  record.visit = visit;
  record.route = route.label;
  record.next = route.next;
  record.forced = choice.forced;
  if (retry !== undefined) record.retry = retry;
  const nodes = withNode(
    ctx.nodes,
    k,
    retry !== undefined ? { visits: visit, retries: retry.count } : { visits: visit },
  );
  const trail = push(ctx.trail, record);
  const next: Mutable<FlowContext> = ctx;
  next.spent = spent;
  next.nodes = nodes;
  next.prev = k;
  next.trail = trail;
  return next;
}

/**
 * Stops at decision `k`, whose `choice` is a stop. An evaluated decision made a move; a budget
 * stop did not.
 */
export function blockDecision(
  plan: Plan,
  ctx: FlowContext,
  k: number,
  choice: Choice,
): FlowContext {
  if (choice.kind !== "block") return ctx;
  if (choice.cell === "budget") {
    const extra = {
      visit: nodeAt(ctx.nodes, k).visits + 1,
      ...(choice.limit !== undefined ? { limit: choice.limit } : {}),
    };
    return blockAt(plan, ctx, k, choice, extra);
  }
  const visit = nodeAt(ctx.nodes, k).visits + 1;
  const evaluated = nextContext(ctx, {
    spent: spendMove(ctx),
    nodes: withNode(ctx.nodes, k, { visits: visit }),
  });
  return blockAt(plan, evaluated, k, choice, {
    visit,
    ...(choice.forced !== undefined ? { forced: choice.forced } : {}),
    ...(choice.route !== undefined ? { route: choice.route } : {}),
  });
}

/** The edge id when the run ends through a decision route to `"end"`. */
function endEdge(plan: Plan, ctx: FlowContext): { edgeId?: string } {
  const head = lastRecord(ctx.trail);
  const last = plan.ids[ctx.prev];
  if (head?.type !== "decision" || head.next !== "end" || last === undefined) return {};
  return { edgeId: `${last}->end` };
}

/**
 * Completes the run with an `end` record carrying the final output and the usage. A run that
 * reaches the end is complete, as in the seed engine; when the final output breaks the workflow's
 * `outputSchema`, the record says so beside it: a `FINAL_OUTPUT_SCHEMA` finding naming the
 * first offending field by its JSON Pointer into the output. Checked once per run, here.
 */
export function complete(plan: Plan, ctx: FlowContext): FlowContext {
  const nodeId = plan.ids[ctx.prev] ?? "";
  const problem = finalProblem(plan, ctx.merged);
  const spent = `run complete after ${ctx.spent.steps} steps (${ctx.spent.moves} moves)`;
  return nextContext(ctx, {
    complete: true,
    trail: push(ctx.trail, {
      step: ctx.spent.moves,
      type: "end",
      message: problem === undefined ? spent : `${spent}; ${problem.reason}`,
      nodeId,
      ...endEdge(plan, ctx),
      output: ctx.merged,
      usage: usageOf(plan, ctx),
      ...(problem === undefined ? {} : { findings: [finalFinding(problem, nodeId)] }),
    }),
  });
}
