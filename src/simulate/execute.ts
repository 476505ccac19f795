/**
 * The llm/tool side of a run, as pure context updates the machine's actions apply: the check
 * before an attempt (budget, params), the attempt itself, accepting an output, and a failure
 * caught by an error boundary (logical-time backoff) or not.
 */
import { budgetStop, chargeOutput, moveOn, usageOf } from "./budget.js";
import { edgeFrom, push, type FlowContext } from "./context.js";
import { isOutputObject, outputProblem } from "./outputs.js";
import { resolveParams } from "./params.js";
import type { Plan } from "./plan.js";
import { nodeAt, withNode } from "./table.js";
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

const memo = new WeakMap<FlowContext, { plan: Plan; k: number; prepared: Prepared }>();

/** Checks the budget, then resolves a tool's params. Memoised per context (guard + action). */
export function prepareAttempt(plan: Plan, ctx: FlowContext, k: number): Prepared {
  const hit = memo.get(ctx);
  if (hit?.k === k && hit.plan === plan) return hit.prepared;
  let prepared: Prepared;
  const budget = budgetStop(plan, ctx, k);
  if (budget !== undefined) {
    prepared = { kind: "block", cell: "budget", reason: budget.reason, limit: budget.limit };
  } else if (plan.graph.nodes[k]?.type === "tool") {
    const resolved = resolveParams(plan, ctx, k);
    prepared =
      "params" in resolved
        ? {
            kind: "go",
            params: resolved.params,
            unresolved: resolved.unresolved.length === 0 ? null : resolved.unresolved,
          }
        : { kind: "block", cell: "execution", reason: `${resolved.template}: ${resolved.reason}` };
  } else {
    prepared = { kind: "go", params: null, unresolved: null };
  }
  memo.set(ctx, { plan, k, prepared });
  return prepared;
}

/** The visit an attempt of node `k` belongs to: a new one unless it retries after a failure. */
function visitOf(ctx: FlowContext, k: number): number {
  return nodeAt(ctx.nodes, k).visits + (ctx.attempt === 0 || ctx.at !== k ? 1 : 0);
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
    ...edgeFrom(plan, ctx.prev, nodeId),
    ...extra,
    cell: stop.cell,
    reason: stop.reason,
    usage: usageOf(plan, ctx),
  };
  return { ...ctx, blocked, trail: push(ctx.trail, record) };
}

/** Stops before an attempt (budget, params). */
export function blockAttempt(plan: Plan, ctx: FlowContext, k: number): FlowContext {
  const prepared = prepareAttempt(plan, ctx, k);
  if (prepared.kind === "go") return ctx;
  const extra = prepared.limit !== undefined ? { limit: prepared.limit } : {};
  return blockAt(plan, ctx, k, prepared, { visit: visitOf(ctx, k), ...extra });
}

/** Starts an attempt: one move made, counters moved (the output is charged when accepted). */
export function beginAttempt(plan: Plan, ctx: FlowContext, k: number): FlowContext {
  const prepared = prepareAttempt(plan, ctx, k);
  const newVisit = ctx.attempt === 0 || ctx.at !== k;
  const counters = nodeAt(ctx.nodes, k);
  return {
    ...ctx,
    spent: moveOn(ctx.spent),
    nodes: withNode(ctx.nodes, k, {
      visits: counters.visits + (newVisit ? 1 : 0),
      executions: counters.executions + 1,
    }),
    at: k,
    attempt: newVisit ? 1 : ctx.attempt + 1,
    params: prepared.kind === "go" ? prepared.params : null,
    unresolved: prepared.kind === "go" ? prepared.unresolved : null,
  };
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

/** Accepts node `k`'s output: charged to the budget, merged, kept as its last output, recorded. */
export function acceptOutput(
  plan: Plan,
  ctx: FlowContext,
  k: number,
  output: JsonObject,
): FlowContext {
  const nodeId = plan.ids[k] ?? "";
  const visit = nodeAt(ctx.nodes, k).visits;
  const step = ctx.spent.moves;
  const params = ctx.params;
  const unresolved = ctx.unresolved;
  const paramsNote =
    params === null
      ? ""
      : unresolved === null
        ? " with resolved params"
        : ` with params; ${unresolved.length} template(s) unresolved, kept as text: ${unresolved.map((u) => u.template).join(", ")}`;
  let trail = push(ctx.trail, {
    step,
    type: "move",
    message:
      `${nodeId} ran (visit ${visit}` +
      (ctx.attempt > 1 ? `, attempt ${ctx.attempt})` : ")") +
      paramsNote,
    nodeId,
    ...edgeFrom(plan, ctx.prev, nodeId),
    visit,
    attempt: ctx.attempt,
    output,
    ...(params !== null ? { params } : {}),
    ...(unresolved !== null ? { unresolvedTemplates: unresolved } : {}),
  });
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
  return {
    ...ctx,
    spent: chargeOutput(plan, ctx.spent, k),
    merged: { ...ctx.merged, ...output },
    nodes: withNode(ctx.nodes, k, { last: output }),
    trail,
    prev: k,
    at: -1,
    attempt: 0,
    params: null,
    unresolved: null,
  };
}

const accepted = new WeakMap<FlowContext, { k: number; output: JsonObject; ctx: FlowContext }>();

/**
 * {@link acceptOutput}, memoised per context: the step from one llm/tool node straight into the
 * next accepts the output in a guard (is the next attempt blocked?) and again in the action.
 */
export function acceptedOutput(
  plan: Plan,
  ctx: FlowContext,
  k: number,
  output: JsonObject,
): FlowContext {
  const hit = accepted.get(ctx);
  if (hit?.k === k && hit.output === output) return hit.ctx;
  const next = acceptOutput(plan, ctx, k, output);
  accepted.set(ctx, { k, output, ctx: next });
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
  return {
    ...ctx,
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
  };
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
  const failed = { ...ctx, nodes: withNode(ctx.nodes, k, { failures: counters.failures + 1 }) };
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

/** Stops at node `k` because its output was refused (not an object, or its outputSchema). */
export function blockOutput(plan: Plan, ctx: FlowContext, k: number, output: unknown): FlowContext {
  const problem = outputProblem(plan, k, output);
  if (problem === undefined) return ctx;
  return blockAt(plan, ctx, k, problem, {
    visit: nodeAt(ctx.nodes, k).visits,
    attempt: ctx.attempt,
    ...(isOutputObject(output) ? { output } : {}),
    ...(problem.field !== undefined ? { field: problem.field } : {}),
  });
}
