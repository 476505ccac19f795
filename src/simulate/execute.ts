/**
 * The llm/tool side of a run, as updates of the context the run owns: the check before an
 * attempt (budget, params), the attempt itself, accepting an output, and a failure caught by an
 * error boundary (logical-time backoff) or not.
 */
import { NODE_KIND } from "../model/index.js";
import { budgetStop, spendMove, spendOutput, usageOf } from "./budget.js";
import {
  edgeFrom,
  nextContext,
  push,
  type FlowContext,
  type Mutable,
  type RecordDraft,
} from "./context.js";
import { assignOwn } from "./options.js";
import { isOutputObject, type OutputProblem } from "./outputs.js";
import { resolveParams } from "./params.js";
import { edgeIdBetween, type Plan } from "./plan.js";
import { executionsAt, nodeAt, visitsAt, withNode } from "./table.js";
import type {
  BlockCell,
  ExecutorInput,
  JsonObject,
  TransitionRecord,
  UnresolvedTemplate,
} from "./types.js";

/** The verdict before an attempt: go (with resolved params) or stop. */
export type Prepared =
  | {
      readonly kind: "go";
      readonly params: JsonObject | null;
      readonly unresolved: readonly UnresolvedTemplate[] | null;
    }
  | {
      readonly kind: "block";
      readonly cell: BlockCell;
      readonly reason: string;
      readonly limit?: string;
    };

/** Checks the budget, then resolves a tool's params: whether node `k` may be attempted now. */
export function prepare(plan: Plan, ctx: FlowContext, k: number): Prepared {
  const budget = budgetStop(plan, ctx, k);
  if (budget !== undefined) {
    return { kind: "block", cell: "budget", reason: budget.reason, limit: budget.limit };
  }
  // The type byte, not the node: at 100,000 nodes the node objects are not in the cache.
  if (plan.graph.kind[k] !== NODE_KIND.tool) return GO;
  const resolved = resolveParams(plan, ctx, k);
  return "params" in resolved
    ? {
        kind: "go",
        params: resolved.params,
        unresolved: resolved.unresolved.length === 0 ? null : resolved.unresolved,
      }
    : { kind: "block", cell: "execution", reason: `${resolved.template}: ${resolved.reason}` };
}

const GO: Prepared = Object.freeze({ kind: "go", params: null, unresolved: null });

/** The visit an attempt of node `k` belongs to: a new one unless it retries after a failure. */
function visitOf(ctx: FlowContext, k: number): number {
  return visitsAt(ctx.nodes, k) + (ctx.attempt === 0 || ctx.at !== k ? 1 : 0);
}

/** Stops the run at node `k` (any node type) with a `decision-blocked` record. */
export function blockAt(
  plan: Plan,
  ctx: FlowContext,
  k: number,
  stop: { readonly cell: BlockCell; readonly reason: string },
  extra: Partial<TransitionRecord> = {},
): FlowContext {
  const nodeId = plan.ids[k] ?? "";
  const blocked = { nodeId, cell: stop.cell, reason: stop.reason };
  const record: TransitionRecord = {
    step: ctx.spent.moves,
    type: "decision-blocked",
    message: `blocked at ${nodeId} (${stop.cell}): ${stop.reason}`,
    nodeId,
    ...edgeFrom(plan, ctx.prev, k),
    ...extra,
    cell: stop.cell,
    reason: stop.reason,
    usage: usageOf(plan, ctx),
  };
  return nextContext(ctx, { blocked, trail: push(ctx.trail, record) });
}

/** Stops before an attempt (budget, params); `prepared` is the verdict on it. */
export function blockAttempt(
  plan: Plan,
  ctx: FlowContext,
  k: number,
  prepared: Prepared,
): FlowContext {
  if (prepared.kind === "go") return ctx;
  const extra = prepared.limit !== undefined ? { limit: prepared.limit } : {};
  return blockAt(plan, ctx, k, prepared, { visit: visitOf(ctx, k), ...extra });
}

/**
 * Starts an attempt: one move made, counters moved (the output is charged when accepted);
 * `prepared` is the verdict on it.
 */
export function beginAttempt(
  plan: Plan,
  ctx: FlowContext,
  k: number,
  prepared: Prepared,
): FlowContext {
  const newVisit = ctx.attempt === 0 || ctx.at !== k;
  const spent = spendMove(ctx);
  const nodes = withNode(ctx.nodes, k, {
    visits: visitsAt(ctx.nodes, k) + (newVisit ? 1 : 0),
    executions: executionsAt(ctx.nodes, k) + 1,
  });
  const attempt = newVisit ? 1 : ctx.attempt + 1;
  const next: Mutable<FlowContext> = ctx;
  next.spent = spent;
  next.nodes = nodes;
  next.at = k;
  next.attempt = attempt;
  next.params = prepared.kind === "go" ? prepared.params : null;
  next.unresolved = prepared.kind === "go" ? prepared.unresolved : null;
  return next;
}

/** What the `execute` actor is given for the current attempt of node `k`. */
export function executorInput(plan: Plan, ctx: FlowContext, k: number): ExecutorInput {
  const node = plan.graph.nodes[k];
  if (node === undefined) throw new RangeError(`no node at index ${k}`);
  return {
    nodeId: node.id,
    node,
    visit: nodeAt(ctx.nodes, k).visits,
    attempt: ctx.attempt,
    execution: nodeAt(ctx.nodes, k).executions,
    ...(ctx.params !== null ? { params: ctx.params } : {}),
    output: ctx.merged,
    input: ctx.input,
    logicalTime: ctx.clock,
  };
}

/** The message of a `move` record. */
function moveMessage(
  nodeId: string,
  visit: number,
  attempt: number,
  params: JsonObject | null,
  unresolved: readonly UnresolvedTemplate[] | null,
): string {
  const paramsNote =
    params === null
      ? ""
      : unresolved === null
        ? " with resolved params"
        : ` with params; ${unresolved.length} template(s) unresolved, kept as text: ${unresolved.map((u) => u.template).join(", ")}`;
  return (
    `${nodeId} ran (visit ${visit}` + (attempt > 1 ? `, attempt ${attempt})` : ")") + paramsNote
  );
}

/**
 * The message of node `k`'s first move when its params, if any, all resolved: the same text in
 * every run, made once per plan (strings are immutable, so runs may share it). A new string a
 * step was a third of what a 100,000-step run kept alive for the garbage collector to trace.
 */
function firstMoveMessage(plan: Plan, k: number, withParams: boolean): string {
  const slot = 2 * k + (withParams ? 1 : 0);
  let message = plan.messages[slot];
  if (message === undefined) {
    message = moveMessage(plan.ids[k] ?? "", 1, 1, withParams ? {} : null, null);
    plan.messages[slot] = message;
  }
  return message;
}

/** Accepts node `k`'s output: charged to the budget, merged, kept as its last output, recorded. */
export function acceptOutput(
  plan: Plan,
  ctx: FlowContext,
  k: number,
  output: JsonObject,
): FlowContext {
  const nodeId = plan.ids[k] ?? "";
  const visit = visitsAt(ctx.nodes, k);
  const step = ctx.spent.moves;
  // Every value is read before the context, which the run owns, is written.
  const params = ctx.params;
  const unresolved = ctx.unresolved;
  const message =
    visit === 1 && ctx.attempt === 1 && unresolved === null
      ? firstMoveMessage(plan, k, params !== null)
      : moveMessage(nodeId, visit, ctx.attempt, params, unresolved);
  const edgeId = edgeIdBetween(plan, ctx.prev, k);
  const attempt = ctx.attempt;
  // One literal per shape, with every field in record order: spreads of the optional fields made
  // every field after them a slow-path definition, and fields added one by one after the literal
  // went to a second, out-of-object store, which a long run's records kept alive by the 100,000.
  const record: RecordDraft =
    edgeId !== undefined
      ? { step, type: "move", message, nodeId, edgeId, visit, attempt, output }
      : { step, type: "move", message, nodeId, visit, attempt, output };
  if (params !== null) record.params = params;
  if (unresolved !== null) record.unresolvedTemplates = unresolved;
  let trail = push(ctx.trail, record);
  const memory = plan.memories[k];
  if (memory !== undefined) {
    const expiry = typeof memory.expiry === "string" ? { expiry: memory.expiry } : {};
    trail = push(trail, {
      step,
      type: "boundary",
      message: `memory (${memory.scope}${memory.expiry !== undefined ? `, expires ${memory.expiry}` : ""}) keeps the output of ${nodeId}`,
      nodeId,
      decorator: "memory",
      memory: { scope: memory.scope, ...expiry },
    });
  }
  const spent = spendOutput(plan, ctx, k);
  const merged = assignOwn(ctx.merged, output);
  const nodes = withNode(ctx.nodes, k, { last: output });
  const next: Mutable<FlowContext> = ctx;
  next.spent = spent;
  next.merged = merged;
  next.nodes = nodes;
  next.trail = trail;
  next.prev = k;
  next.at = -1;
  next.attempt = 0;
  next.params = null;
  next.unresolved = null;
  return next;
}

/** Whether node `k`'s error boundary allows another attempt after the current one failed. */
export function canRetry(plan: Plan, ctx: FlowContext, k: number): boolean {
  const boundary = plan.boundaries[k];
  return boundary !== undefined && ctx.attempt <= boundary.maxRetries;
}

function errorText(error: unknown): string {
  if (typeof error === "string") return error;
  if (error instanceof Error) return error.message;
  return "unknown error";
}

/** The fixed backoff is 1; the exponential one 2^(attempt-1), saturating at a safe integer. */
export function backoffOf(kind: string, attempt: number): number {
  if (kind !== "exponential") return 1;
  return Math.min(2 ** (attempt - 1), Number.MAX_SAFE_INTEGER);
}

/** A failure the error boundary catches: the clock advances by the backoff, the node runs again. */
export function retryAfterFailure(
  plan: Plan,
  ctx: FlowContext,
  k: number,
  error: unknown,
): FlowContext {
  const nodeId = plan.ids[k] ?? "";
  const boundary = plan.boundaries[k];
  const backoff = backoffOf(boundary?.backoff ?? "fixed", ctx.attempt);
  const clock = Math.min(ctx.clock + backoff, Number.MAX_SAFE_INTEGER);
  const text = errorText(error);
  return nextContext(ctx, {
    clock,
    nodes: withNode(ctx.nodes, k, { failures: nodeAt(ctx.nodes, k).failures + 1 }),
    trail: push(ctx.trail, {
      step: ctx.spent.moves,
      type: "boundary",
      message: `${nodeId} failed (attempt ${ctx.attempt}): ${text}; errorBoundary retries at logical time ${clock} (backoff ${backoff})`,
      nodeId,
      decorator: "errorBoundary",
      attempt: ctx.attempt,
      error: text,
      backoff,
      logicalTime: clock,
    }),
  });
}

/** A failure nothing catches any more: without a boundary `execution`, else `errorBoundary`. */
export function blockAfterFailure(
  plan: Plan,
  ctx: FlowContext,
  k: number,
  error: unknown,
): FlowContext {
  const boundary = plan.boundaries[k];
  const text = errorText(error);
  const counters = nodeAt(ctx.nodes, k);
  const failed = nextContext(ctx, {
    nodes: withNode(ctx.nodes, k, { failures: counters.failures + 1 }),
  });
  const extra = { visit: counters.visits, attempt: ctx.attempt, error: text };
  if (boundary === undefined) {
    return blockAt(
      plan,
      failed,
      k,
      { cell: "execution", reason: `execution failed: ${text}` },
      extra,
    );
  }
  const reason = `retries exhausted after ${boundary.maxRetries} attempts (${ctx.attempt} failed executions): ${text}`;
  return blockAt(plan, failed, k, { cell: "errorBoundary", reason }, extra);
}

/** Stops at node `k` because its output was refused (`problem`: not an object, or its schema). */
export function blockOutput(
  plan: Plan,
  ctx: FlowContext,
  k: number,
  output: unknown,
  problem: OutputProblem,
): FlowContext {
  return blockAt(plan, ctx, k, problem, {
    visit: nodeAt(ctx.nodes, k).visits,
    attempt: ctx.attempt,
    ...(isOutputObject(output) ? { output } : {}),
    ...(problem.field !== undefined ? { field: problem.field } : {}),
  });
}
