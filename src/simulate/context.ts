/**
 * A run's context and its pieces. A run owns them — its context, counters, spending, trail and
 * merged output — and writes them in place: no one sees a run's contexts until it stops, and
 * three new contexts a step were half of what a run allocated. Whoever keeps a context while the
 * run goes on (explore's branches, the XState machine's snapshots) goes on from a copy of it
 * ({@link forkedContext}).
 */
import type { Budget } from "../model/index.js";
import { copiedSeen, firstSeen, type FirstSeen } from "./first-seen.js";
import { assignOwn, normalizeInput } from "./options.js";
import { edgeIdBetween, type Plan } from "./plan.js";
import { copiedTable, emptyTable, type NodeTable } from "./table.js";
import type {
  BlockedDecision,
  DecideTable,
  JsonObject,
  TransitionRecord,
  UnresolvedTemplate,
} from "./types.js";

/**
 * A run's records in order, appended in place, with the node ids and edge ids they name in
 * first-seen order, kept as the run goes (`visitedNodes`, `traversedEdges`): derived from the
 * records afterwards, they cost two hash lookups a record, a fifth of a 100,000-step run.
 */
export interface Trail {
  readonly records: TransitionRecord[];
  readonly nodes: FirstSeen;
  readonly edges: FirstSeen;
}

/** Budget limits resolved from the workflow, the options and `maxSteps`. */
export interface Limits {
  readonly maxSteps: number;
  readonly budgetSteps?: number;
  readonly maxTokens?: number;
  readonly maxWallTimeMs?: number;
  /** `[currency, limit]` from `maxCost<CODE>` keys, sorted by code. */
  readonly maxCost: readonly (readonly [string, number])[];
}

/** Accumulated projected usage. */
export interface Spent {
  /** llm/tool attempts and decision evaluations: the unit of `maxSteps` and of a record's `step`. */
  readonly moves: number;
  /** llm/tool executions that produced an output: the unit of `budget.maxSteps`. */
  readonly steps: number;
  readonly tokens: number;
  readonly wallTimeMs: number;
  /** Amount per currency code, in the order of `Plan.costs`' codes as first met. */
  readonly cost: readonly (readonly [string, number])[];
}

/** The context of a run. Node indexes are positions in `wf.nodes`. */
export interface FlowContext {
  readonly input: JsonObject;
  readonly decide: DecideTable;
  readonly limits: Limits;
  /** The shallow merge of every llm/tool output so far; decisions evaluate against it. */
  readonly merged: JsonObject;
  /** Visits, executions, failures, retries and last output of every node. */
  readonly nodes: NodeTable;
  /** The llm/tool node being executed, or -1. */
  readonly at: number;
  /** Attempt within the current visit of `at`. */
  readonly attempt: number;
  /** The current attempt's resolved params (tools). */
  readonly params: JsonObject | null;
  /** The current attempt's unresolved templates, kept as text (tools, `strictParams` off). */
  readonly unresolved: readonly UnresolvedTemplate[] | null;
  /** Whether an unresolved template stops the run (`strictParams`). */
  readonly strictParams: boolean;
  /** The node the token came from (for edge ids), or -1 at the start. */
  readonly prev: number;
  /** The logical clock: the sum of error-boundary backoffs. */
  readonly clock: number;
  readonly spent: Spent;
  readonly trail: Trail;
  readonly blocked: BlockedDecision | null;
  readonly complete: boolean;
}

/** A budget's cost limit (`maxCostUSD`), its currency code captured. */
export const COST_KEY = /^maxCost([A-Z]{3})$/;

function resolveLimits(wfBudget: Budget | undefined, budget: Budget, maxSteps: number): Limits {
  const merged: Budget = { ...(wfBudget ?? {}), ...budget };
  const maxCost: (readonly [string, number])[] = [];
  for (const [key, value] of Object.entries(merged)) {
    const code = COST_KEY.exec(key)?.[1];
    if (code !== undefined && typeof value === "number") maxCost.push([code, value]);
  }
  maxCost.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const num = (v: unknown) => (typeof v === "number" ? v : undefined);
  const budgetSteps = num(merged.maxSteps);
  const maxTokens = num(merged.maxTokens);
  const maxWallTimeMs = num(merged.maxWallTimeMs);
  return {
    maxSteps,
    ...(budgetSteps !== undefined ? { budgetSteps } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(maxWallTimeMs !== undefined ? { maxWallTimeMs } : {}),
    maxCost,
  };
}

/** The fields transitions change through {@link nextContext}; the hottest write fields directly. */
type Changes = Partial<
  Pick<FlowContext, "decide" | "nodes" | "clock" | "spent" | "trail" | "blocked" | "complete">
>;

/** `ctx` with `changes` written into it, in place: the run owns its context. */
export function nextContext(ctx: FlowContext, changes: Changes): FlowContext {
  const next: Mutable<FlowContext> = ctx;
  if (changes.decide !== undefined) next.decide = changes.decide;
  if (changes.nodes !== undefined) next.nodes = changes.nodes;
  if (changes.clock !== undefined) next.clock = changes.clock;
  if (changes.spent !== undefined) next.spent = changes.spent;
  if (changes.trail !== undefined) next.trail = changes.trail;
  if (changes.blocked !== undefined) next.blocked = changes.blocked;
  if (changes.complete !== undefined) next.complete = changes.complete;
  return next;
}

/** A type with its fields writable. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A context for a second run that goes on from `ctx`, with `decide` as its decide table: its own
 * copy of each piece a run writes in place (the trail and its id lists, the node table, the
 * merged output, the spending), so that neither run sees the other's writes. Records, outputs
 * and the input are never written and are shared. Explore goes on with each route of a branch
 * this way instead of running the prefix again; the machine with each executor result, so that
 * a snapshot a host keeps stays as it was.
 */
export function forkedContext(ctx: FlowContext, decide: DecideTable): FlowContext {
  const trail = ctx.trail;
  // A literal of every field, in the order of the initial context: one shape for all contexts.
  return {
    input: ctx.input,
    decide,
    limits: ctx.limits,
    merged: assignOwn({}, ctx.merged),
    nodes: copiedTable(ctx.nodes),
    at: ctx.at,
    attempt: ctx.attempt,
    params: ctx.params,
    unresolved: ctx.unresolved,
    strictParams: ctx.strictParams,
    prev: ctx.prev,
    clock: ctx.clock,
    spent: { ...ctx.spent },
    trail: {
      records: trail.records.slice(),
      nodes: copiedSeen(trail.nodes),
      edges: copiedSeen(trail.edges),
    },
    blocked: ctx.blocked,
    complete: ctx.complete,
  };
}

/** Appends a record to the trail, in place; returns the trail. */
export function push(trail: Trail, record: TransitionRecord): Trail {
  trail.records.push(record);
  return trail;
}

/** The newest record, if any. */
export function lastRecord(trail: Trail): TransitionRecord | undefined {
  return trail.records[trail.records.length - 1];
}

/** The `from->to` id of the edge the token takes from `prev` to node `k`, as a record's field. */
export function edgeFrom(plan: Plan, prev: number, k: number): { edgeId?: string } {
  const edgeId = edgeIdBetween(plan, prev, k);
  return edgeId === undefined ? {} : { edgeId };
}

/** A trail record being written, field by field in its order. */
export type RecordDraft = { -readonly [K in keyof TransitionRecord]: TransitionRecord[K] };

/**
 * The context a run of `plan` starts with, which the run owns. @throws TypeError when the input
 * is malformed (API misuse).
 */
export function initialContext(plan: Plan, rawInput: unknown): FlowContext {
  const { input, decide, budget, maxSteps, strictParams } = normalizeInput(rawInput);
  const ctx: FlowContext = {
    input,
    decide,
    limits: resolveLimits(plan.wf.budget, budget, maxSteps),
    merged: {},
    nodes: emptyTable(plan.ids.length),
    at: -1,
    attempt: 0,
    params: null,
    unresolved: null,
    strictParams,
    prev: -1,
    clock: 0,
    spent: { moves: 0, steps: 0, tokens: 0, wallTimeMs: 0, cost: [] },
    trail: {
      records: [],
      nodes: firstSeen(plan.ids.length),
      edges: firstSeen(plan.edgeIds.size),
    },
    blocked: null,
    complete: false,
  };
  if (plan.graph.entry !== undefined) return ctx;
  const blocked = { nodeId: "", cell: "execution", reason: "the workflow has no nodes" };
  return nextContext(ctx, {
    blocked,
    trail: push(ctx.trail, {
      step: 0,
      type: "decision-blocked",
      message: "blocked: the workflow has no nodes, so nothing can run",
      cell: blocked.cell,
      reason: blocked.reason,
      usage: { steps: 0, moves: 0, tokens: 0, logicalTime: 0 },
    }),
  });
}
