/**
 * The machine's context and its small persistent pieces. A context XState holds is never mutated:
 * every transition builds a new one, so a snapshot a caller keeps stays valid (XState's transition
 * functions are pure only if the context is). The trail is a cons list, so appending a record is
 * O(1) instead of copying a growing array on every step. The one exception is the interpreter's
 * own run, which no one observes until it ends: its context and pieces are written in place
 * ({@link ownsRun}).
 */
import type { Budget } from "../model/index.js";
import { copiedSeen, type FirstSeen } from "./first-seen.js";
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

/** A trail as a cons list, newest record first. */
export interface TrailList {
  readonly record: TransitionRecord;
  readonly rest: TrailList | null;
}

/**
 * A trail that one run owns (the interpreter's; see `ownedTable` in table.ts): its records in
 * order, appended in place. A cons cell per record, and the reversed copy at the end, were a
 * tenth of what a 100,000-step run kept alive for the garbage collector to trace.
 */
export interface OwnedTrail {
  readonly owned: TransitionRecord[];
  /**
   * The node ids and edge ids the records name, in first-seen order, kept by the run as it goes
   * (`visitedNodes`, `traversedEdges`): derived from the trail afterwards, they cost two hash
   * lookups a record, a fifth of a 100,000-step run.
   */
  readonly nodes: FirstSeen;
  readonly edges: FirstSeen;
}

/** The records of a run so far. */
export type Trail = TrailList | OwnedTrail;

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

/**
 * The machine's context. Node indexes are positions in `wf.nodes`.
 */
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
  readonly trail: Trail | null;
  readonly blocked: BlockedDecision | null;
  readonly complete: boolean;
}

const COST_KEY = /^maxCost([A-Z]{3})$/;

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

/**
 * `ctx` with `changes`, written into {@link draft}`(ctx)`: a literal copy of every field (a spread
 * `{ ...ctx, spent }` was a third of a step's time: V8 clones the object, then redefines each
 * changed field on its slow path), or, in a run that owns its pieces ({@link ownsRun}), the
 * context itself: no one else holds it, and three new contexts a step were half of what such a
 * run allocated.
 */
export function nextContext(ctx: FlowContext, changes: Partial<FlowContext>): FlowContext {
  return changedInPlace(draft(ctx), changes);
}

/** A type with its fields writable. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A context to write a transition's changes into, field by field: `ctx` itself in a run that owns
 * it ({@link ownsRun}), a copy with every field, in the order of the initial context, otherwise. Compute every new value from `ctx` before writing any,
 * for in an owned run they are one object. The hottest transitions write this way: passing
 * {@link nextContext} a changes object of each transition's own shape made its reads of those
 * objects megamorphic, a sixth of an exploration's time.
 */
export function draft(ctx: FlowContext): Mutable<FlowContext> {
  return ownsRun(ctx) ? ctx : copiedContext(ctx);
}

/** A copy of `ctx` with every field, in the order of the initial context (one shape for all). */
function copiedContext(ctx: FlowContext): Mutable<FlowContext> {
  return {
    input: ctx.input,
    decide: ctx.decide,
    limits: ctx.limits,
    merged: ctx.merged,
    nodes: ctx.nodes,
    at: ctx.at,
    attempt: ctx.attempt,
    params: ctx.params,
    unresolved: ctx.unresolved,
    strictParams: ctx.strictParams,
    prev: ctx.prev,
    clock: ctx.clock,
    spent: ctx.spent,
    trail: ctx.trail,
    blocked: ctx.blocked,
    complete: ctx.complete,
  };
}

/** Each given field of `changes` written into `ctx`. */
function changedInPlace(ctx: Mutable<FlowContext>, changes: Partial<FlowContext>): FlowContext {
  if (changes.input !== undefined) ctx.input = changes.input;
  if (changes.decide !== undefined) ctx.decide = changes.decide;
  if (changes.limits !== undefined) ctx.limits = changes.limits;
  if (changes.merged !== undefined) ctx.merged = changes.merged;
  if (changes.nodes !== undefined) ctx.nodes = changes.nodes;
  if (changes.at !== undefined) ctx.at = changes.at;
  if (changes.attempt !== undefined) ctx.attempt = changes.attempt;
  if (changes.params !== undefined) ctx.params = changes.params;
  if (changes.unresolved !== undefined) ctx.unresolved = changes.unresolved;
  if (changes.strictParams !== undefined) ctx.strictParams = changes.strictParams;
  if (changes.prev !== undefined) ctx.prev = changes.prev;
  if (changes.clock !== undefined) ctx.clock = changes.clock;
  if (changes.spent !== undefined) ctx.spent = changes.spent;
  if (changes.trail !== undefined) ctx.trail = changes.trail;
  if (changes.blocked !== undefined) ctx.blocked = changes.blocked;
  if (changes.complete !== undefined) ctx.complete = changes.complete;
  return ctx;
}

/**
 * Whether the context belongs to a run that owns its pieces: the interpreter's, which starts with
 * an owned trail, an owned node table and a merged output of its own together, and hands out
 * only its final context. Its pieces are then written in place.
 */
export function ownsRun(ctx: FlowContext): boolean {
  return ctx.trail !== null && "owned" in ctx.trail;
}

/**
 * A context for a second run that goes on from `ctx` — a run that owns its pieces
 * ({@link ownsRun}), stopped — with `decide` as its decide table: its own copy of each piece the
 * run writes in place (the trail and its id lists, the node table, the merged output, the
 * spending), so that the two runs never see each other's writes. Records, outputs and the input
 * are never written and are shared. Explore continues each route of a branch this way instead
 * of running the prefix again.
 */
export function forkedContext(ctx: FlowContext, decide: DecideTable): FlowContext {
  const trail = ctx.trail;
  if (trail === null || !("owned" in trail)) throw new Error("only an owned run can be forked");
  const next = copiedContext(ctx);
  next.decide = decide;
  next.merged = assignOwn({}, ctx.merged);
  next.nodes = copiedTable(ctx.nodes);
  next.spent = { ...ctx.spent };
  next.trail = {
    owned: trail.owned.slice(),
    nodes: copiedSeen(trail.nodes),
    edges: copiedSeen(trail.edges),
  };
  return next;
}

/** Adds a record: prepended to a cons list, appended in place to an owned trail. */
export function push(trail: Trail | null, record: TransitionRecord): Trail {
  if (trail !== null && "owned" in trail) {
    trail.owned.push(record);
    return trail;
  }
  return { record, rest: trail };
}

/** The newest record, if any. */
export function lastRecord(trail: Trail | null): TransitionRecord | undefined {
  if (trail === null) return undefined;
  return "owned" in trail ? trail.owned[trail.owned.length - 1] : trail.record;
}

/**
 * The trail in order, oldest first: an owned trail's own array, which its run no longer writes.
 * Iterative: trails can be 100,000 records long.
 */
export function trailArray(trail: Trail | null): TransitionRecord[] {
  if (trail !== null && "owned" in trail) return trail.owned;
  const out: TransitionRecord[] = [];
  for (let t: TrailList | null = trail; t !== null; t = t.rest) out.push(t.record);
  return out.reverse();
}

/** The `from->to` id of the edge the token takes from `prev` to node `k`, as a record's field. */
export function edgeFrom(plan: Plan, prev: number, k: number): { edgeId?: string } {
  const edgeId = edgeIdBetween(plan, prev, k);
  return edgeId === undefined ? {} : { edgeId };
}

/** A trail record being written, field by field in its order (see {@link nextContext}). */
export type RecordDraft = { -readonly [K in keyof TransitionRecord]: TransitionRecord[K] };

/** The context a run starts with. @throws TypeError when the input is malformed (API misuse). */
export function initialContext(plan: Plan, rawInput: unknown): FlowContext {
  if (rawInput !== undefined) return buildInitialContext(plan, rawInput);
  // XState's pure `transition` builds a throwaway actor, and so an initial context without
  // input, on every call. Contexts are immutable, so one shared default is indistinguishable.
  let shared = defaults.get(plan);
  if (shared === undefined) {
    shared = buildInitialContext(plan, undefined);
    defaults.set(plan, shared);
  }
  return shared;
}

const defaults = new WeakMap<Plan, FlowContext>();

function buildInitialContext(plan: Plan, rawInput: unknown): FlowContext {
  const { input, decide, budget, maxSteps, strictParams } = normalizeInput(rawInput);
  const n = plan.ids.length;
  const base: FlowContext = {
    input,
    decide,
    limits: resolveLimits(plan.wf.budget, budget, maxSteps),
    merged: {},
    nodes: emptyTable(n),
    at: -1,
    attempt: 0,
    params: null,
    unresolved: null,
    strictParams,
    prev: -1,
    clock: 0,
    spent: { moves: 0, steps: 0, tokens: 0, wallTimeMs: 0, cost: [] },
    trail: null,
    blocked: null,
    complete: false,
  };
  if (plan.graph.entry !== undefined) return base;
  const blocked = { nodeId: "", cell: "execution", reason: "the workflow has no nodes" };
  return nextContext(base, {
    blocked,
    trail: push(null, {
      step: 0,
      type: "decision-blocked",
      message: "blocked: the workflow has no nodes, so nothing can run",
      cell: blocked.cell,
      reason: blocked.reason,
      usage: { steps: 0, moves: 0, tokens: 0, logicalTime: 0 },
    }),
  });
}
