/**
 * Evaluating a rule's `when` with feelin (bpmn.io's FEEL interpreter), failing closed:
 *
 * - An unknown level, justified level, tool effect or tool authorization that `when` reads is
 *   tried at every value it can take (one value for all unknowns of a kind at a time, the product
 *   over kinds); if any choice makes `when` true, the subject is selected, and the finding names
 *   what was assumed. When none does, null (the fact as it is) is tried too, and counts only if
 *   it makes `when` true: a rule may ask whether a fact is unknown (`effect = null`).
 * - Reading an unknown `tools` or `models` list (or a `budget` or limit that could not be read),
 *   a result that is not `true` or `false` (FEEL's `null` when a comparison meets a missing
 *   value), a FEEL warning that says the expression went wrong (a missing variable or key, a
 *   type error, a failed function), or an ordering of two values of different types
 *   (feel-order.ts) leaves the subject undecided: it is selected, with the reason.
 * - Trying values is bounded across a rule's subjects in one document ({@link TryBudget}): past
 *   the bound, a subject whose values were not all tried is undecided, never passed.
 *
 * feelin's public API parses on every `evaluate` call (its parse depends on the context's
 * names, and its parse tree and interpreter are not exported as separate steps), so each
 * evaluation parses again; `when` was parsed and checked once, when the pack was compiled.
 */
import { evaluate } from "feelin";
import { visibleText } from "../model/index.js";
import type { OpaqueKind, UnknownKind } from "./fact-types.js";
import { UNKNOWN_VALUES } from "./fact-types.js";
import type { WhenReads } from "./feel-check.js";
import { factsSize, MAX_WHEN_STEPS, stepsAt, stepsText } from "./feel-cost.js";
import { watchOrdering } from "./feel-order.js";
import type { Projection } from "./unknowns.js";

/**
 * How many evaluations trying the values of unknown facts may add, for one rule on one document
 * (a process, a workflow), beyond the first evaluation of each subject. feelin parses on every
 * call and cannot be stopped, so without a bound a process of many agents whose levels and
 * tools are all unknown (648 tries each) ran for minutes; at about a millisecond a try, this is
 * seconds.
 */
export const MAX_TRIES = 10_000;

/**
 * The tries left to one rule on one document: made by the rule's check, shared by every subject
 * it judges there. A subject whose values could not all be tried within it is undecided.
 */
export class TryBudget {
  private used = 0;

  constructor(readonly limit: number = MAX_TRIES) {}

  /** Takes one try; false when none is left. */
  take(): boolean {
    if (this.used >= this.limit) return false;
    this.used += 1;
    return true;
  }
}

/** Why reading each unknown list or limit leaves `when` undecided. */
const OPAQUE_REASONS: Readonly<Record<OpaqueKind, string>> = {
  tools:
    "which is unknown because a workflow could not be read (or a Camunda agent's tool container could not be found)",
  models:
    "which is unknown because a workflow could not be read (or a model is not stated: an imported workflow's, whose format names none or shows a step that may call any model, or a Camunda agent's, or it is a FEEL expression)",
  budget: "which is unknown because the agent's workflow could not be read",
  maxSteps:
    "which is unknown because it is a Camunda limit written as a FEEL expression, known only when the process runs",
  maxTokens:
    "which is unknown because it is a Camunda limit written as a FEEL expression, known only when the process runs",
  nodes: "which is unknown because the workflow could not be read",
  delegates: "which is unknown because the workflow could not be read",
  name: "which is unknown because the workflow could not be read",
};

/** A `when` ready to evaluate: its text and what it reads. */
export interface CompiledWhen {
  readonly text: string;
  readonly reads: WhenReads;
}

/** Whether `when` selects a subject. */
export type WhenOutcome =
  | { readonly kind: "no" }
  | {
      readonly kind: "yes";
      /** The values tried for unknown facts that made `when` true, by kind; absent if none. */
      readonly assumed?: Readonly<Partial<Record<UnknownKind, string | number | null>>>;
    }
  | { readonly kind: "undecided"; readonly reason: string };

const KIND_ORDER: readonly UnknownKind[] = [
  "level",
  "declaredLevel",
  "justifiedLevel",
  "effect",
  "authorization",
];

type FeelWarning = ReturnType<typeof evaluate>["warnings"][number];

/** A warning that is FEEL's plain null semantics over facts that are absent (`lane.name`). */
function isAbsence(warning: FeelWarning, reads: WhenReads): boolean {
  if (warning.type === "NO_PROPERTY_FOUND") return warning.details.values.target === null;
  if (warning.type === "NO_CONTEXT_ENTRY_FOUND") return reads.openKeys.has(warning.position.from);
  return false;
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "function") return "a function";
  try {
    const json = JSON.stringify(value);
    return visibleText(json.length > 60 ? `${json.slice(0, 60)}…` : json);
  } catch {
    return "a value that is not data";
  }
}

/** The words of an assumption: `level = 4, effect = "external-commitment"`. */
export function assumptionText(
  assumed: Readonly<Partial<Record<UnknownKind, string | number | null>>>,
): string {
  return Object.entries(assumed)
    .map(([kind, value]) => `${kind} = ${JSON.stringify(value)}`)
    .join(", ");
}

type Single =
  { readonly kind: "yes" | "no" } | { readonly kind: "undecided"; readonly reason: string };

/**
 * Outcomes by the JSON of the facts an evaluation reads, per `when`: feelin parses and builds its
 * interpreter on every call (a few hundred microseconds), and the agent tasks of a process often
 * share the facts a rule reads (their levels and tools). Bounded, as a modeller keeps packs for
 * a whole session.
 */
const memo = new WeakMap<CompiledWhen, Map<string, Single>>();
const MEMO_LIMIT = 4096;

/**
 * One evaluation, classified; `undefined` when it would have to run and `budget` has no try left
 * (a result kept from before costs none). Without a budget, it always runs.
 */
function once(when: CompiledWhen, facts: Record<string, unknown>): Single;
function once(
  when: CompiledWhen,
  facts: Record<string, unknown>,
  budget: TryBudget | undefined,
): Single | undefined;
function once(
  when: CompiledWhen,
  facts: Record<string, unknown>,
  budget?: TryBudget,
): Single | undefined {
  // Only the facts it names: FEEL has no way to read a variable it does not name.
  const context: Record<string, unknown> = {};
  for (const root of when.reads.roots) if (Object.hasOwn(facts, root)) context[root] = facts[root];
  const key = when.reads.volatile ? undefined : JSON.stringify(context);
  let known = memo.get(when);
  const hit = key === undefined ? undefined : known?.get(key);
  if (hit !== undefined) return hit;
  if (budget !== undefined && !budget.take()) return undefined;
  const single = evaluateOnce(when, context);
  if (key !== undefined) {
    if (known === undefined) memo.set(when, (known = new Map<string, Single>()));
    if (known.size >= MEMO_LIMIT) known.clear();
    known.set(key, single);
  }
  return single;
}

function evaluateOnce(when: CompiledWhen, context: Record<string, unknown>): Single {
  const size = factsSize(context);
  const steps = stepsAt(when.reads.cost, size);
  if (steps > MAX_WHEN_STEPS) {
    const length = size.length.toLocaleString("en-US");
    const total = size.total.toLocaleString("en-US");
    return {
      kind: "undecided",
      reason: `'when' may take ${stepsText(steps)} steps on these facts (up to ${length} items in a list, ${total} values and characters in all), past the ${MAX_WHEN_STEPS.toLocaleString("en-US")} a rule may take, so it was not run`,
    };
  }
  let watched: ReturnType<typeof watchOrdering<ReturnType<typeof evaluate>>>;
  try {
    watched = watchOrdering(() => evaluate(when.text, context));
  } catch (error) {
    return {
      kind: "undecided",
      reason: `FEEL failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  // Whatever it gave: an ordering feelin made up cannot decide for or against the subject.
  if (watched.mixed !== undefined) return { kind: "undecided", reason: watched.mixed };
  const result = watched.result;
  const wrong = result.warnings.find((w) => !isAbsence(w, when.reads));
  if (wrong !== undefined) {
    return { kind: "undecided", reason: `FEEL ${wrong.type}: ${visibleText(wrong.message)}` };
  }
  if (result.value === true) return { kind: "yes" };
  if (result.value === false) return { kind: "no" };
  return { kind: "undecided", reason: `'when' gives ${describe(result.value)}, not true or false` };
}

const reads = (when: CompiledWhen, name: string): boolean =>
  when.reads.introspects || when.reads.mentioned.has(name);

/**
 * Decides `when` over a subject's projected facts (see the module comment). `budget` bounds the
 * tries of unknown values across the subjects of one document; without one, all are tried.
 */
export function decideWhen(
  when: CompiledWhen,
  subject: Projection,
  budget?: TryBudget,
): WhenOutcome {
  for (const name of subject.opaque) {
    if (reads(when, name)) {
      return { kind: "undecided", reason: `it reads '${name}', ${OPAQUE_REASONS[name]}` };
    }
  }
  const dims = KIND_ORDER.filter((k) => subject.slots.has(k) && reads(when, k));
  if (dims.length === 0) {
    const single = once(when, subject.facts);
    return single.kind === "undecided" ? single : { kind: single.kind };
  }
  // First every known value; then, only when none made `when` true, the facts as they are
  // (null) in each kind that can be null: a rule that asks whether a fact is unknown
  // (`effect = null`) is true of it, though no value it could take makes it so. A null try
  // counts only when `when` is true: null is FEEL's word for unknown, and a comparison that meets
  // it decides nothing the known values did not.
  const known = dims.map((k) => UNKNOWN_VALUES[k]);
  const orNull = dims.map((k) =>
    k === "declaredLevel" ? UNKNOWN_VALUES[k] : [...UNKNOWN_VALUES[k], null],
  );
  // Every combination of the second pass that holds a null, besides the first's: all of it.
  const total = orNull.reduce((a, v) => a * v.length, 1);
  let tried = 0;
  let undecided: string | undefined;
  let outcome: WhenOutcome | undefined;
  const passes = [
    { values: known, nullOnly: false },
    { values: orNull, nullOnly: true },
  ];
  for (const pass of passes) {
    if (outcome !== undefined || undecided !== undefined) break;
    const sizes = pass.values.map((v) => v.length);
    const count = sizes.reduce((a, b) => a * b, 1);
    for (let combo = 0; combo < count && outcome === undefined; combo += 1) {
      const assumed: Partial<Record<UnknownKind, string | number | null>> = {};
      let rest = combo;
      let hasNull = false;
      for (const [i, kind] of dims.entries()) {
        const size = sizes[i] ?? 1;
        const value = pass.values[i]?.[rest % size] ?? null;
        rest = Math.floor(rest / size);
        if (value === null) hasNull = true;
        assumed[kind] = value;
        for (const slot of subject.slots.get(kind) ?? []) slot.container[slot.key] = value;
      }
      if (pass.nullOnly && !hasNull) continue;
      // The first try of each subject is its evaluation as any subject has one; the rest draw on
      // the budget the rule's subjects share.
      const single = once(when, subject.facts, tried === 0 ? undefined : budget);
      if (single === undefined) {
        const limit = budget?.limit.toLocaleString("en-US") ?? "";
        outcome = {
          kind: "undecided",
          reason: `its unknown ${dims.join(", ")} take ${total.toLocaleString("en-US")} combinations of values, and only ${tried.toLocaleString("en-US")} could be tried: a rule may try at most ${limit} on one document (feelin cannot be stopped once it runs), so the subject is taken as the strictest case`,
        };
        break;
      }
      tried += 1;
      if (single.kind === "yes") outcome = { kind: "yes", assumed };
      else if (single.kind === "undecided" && !pass.nullOnly) {
        undecided ??= `${single.reason} (assuming ${assumptionText(assumed)})`;
      }
    }
  }
  // The facts go back to unknown: they are the finding's data.
  for (const kind of dims)
    for (const slot of subject.slots.get(kind) ?? []) slot.container[slot.key] = null;
  if (outcome !== undefined) return outcome;
  return undecided === undefined ? { kind: "no" } : { kind: "undecided", reason: undecided };
}
