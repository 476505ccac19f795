/**
 * Evaluating a rule's `when` with feelin (bpmn.io's FEEL interpreter), failing closed:
 *
 * - An unknown level, justified level, tool effect or tool authorization that `when` reads is
 *   tried at every value it can take (one value for all unknowns of a kind at a time, the product
 *   over kinds); if any choice makes `when` true, the subject is selected, and the finding names
 *   what was assumed — unless `when` holds whatever the unknowns are, when the known facts
 *   decided it. When none does, null (the fact as it is) is tried too, and counts only if it
 *   makes `when` true: a rule may ask whether a fact is unknown (`effect = null`).
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
import type { OpaqueKind, UnknownKind } from "./fact-types.js";
import { UNKNOWN_VALUES } from "./fact-types.js";
import type { CompiledWhen, Tries } from "./feel-once.js";
import { once } from "./feel-once.js";
import type { Projection } from "./unknowns.js";

export type { CompiledWhen } from "./feel-once.js";

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

  /**
   * Takes one try for what only words a finding (whether an assumption decided it), never its
   * verdict: from the first half of the bound only, so that judging the document's other
   * subjects keeps at least half of it.
   */
  spare(): boolean {
    if (this.used >= this.limit / 2) return false;
    this.used += 1;
    return true;
  }
}

/** Why a node's model, null in a workflow whose `models` is unknown, is unknown too. */
const NODE_MODEL_REASON =
  "which is unknown for a node of a workflow whose 'models' is unknown (a model not stated: an imported workflow's, whose format names none or shows a step that may call any model, or a Camunda agent's, or it is a FEEL expression)";

/** Why reading each unknown list or limit leaves `when` undecided. */
const OPAQUE_REASONS: Readonly<Record<OpaqueKind, string>> = {
  tools:
    "which is unknown because a workflow could not be read (or a Camunda agent's tool container could not be found)",
  models:
    "which is unknown because a workflow could not be read (or a model is not stated: an imported workflow's, whose format names none or shows a step that may call any model, or a Camunda agent's, or it is a FEEL expression)",
  budget: "which is unknown because the agent's workflow could not be read",
  ref: "which is unknown: this stands for a tool the agent task may call that could not be read (its workflow, a delegate or its Camunda tool container)",
  id: "which is unknown: this stands for a tool the agent task may call that could not be read (its workflow, a delegate or its Camunda tool container)",
  maxSteps:
    "which is unknown because it is a Camunda limit written as a FEEL expression, known only when the process runs",
  maxTokens:
    "which is unknown because it is a Camunda limit written as a FEEL expression, known only when the process runs",
  nodes: "which is unknown because the workflow could not be read",
  delegates: "which is unknown because the workflow could not be read",
  name: "which is unknown because the workflow could not be read",
  model: NODE_MODEL_REASON,
  fallbackModel: NODE_MODEL_REASON,
  lane: "which is unknown because lanes that do not nest (two lane sets, or two lanes of one set) list the task, or the sub-process it is in",
};

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

/** The words of an assumption: `level = 4, effect = "external-commitment"`. */
export function assumptionText(
  assumed: Readonly<Partial<Record<UnknownKind, string | number | null>>>,
): string {
  return Object.entries(assumed)
    .map(([kind, value]) => `${kind} = ${JSON.stringify(value)}`)
    .join(", ");
}

type Assumed = Partial<Record<UnknownKind, string | number | null>>;

/**
 * Puts combination `combo` of `values` (one list per kind of `dims`, the first kind varying
 * fastest) into the subject's slots: every unknown of a kind takes the same value.
 */
function fill(
  subject: Projection,
  dims: readonly UnknownKind[],
  values: readonly (readonly (string | number | null)[])[],
  combo: number,
): { assumed: Assumed; hasNull: boolean } {
  const assumed: Assumed = {};
  let rest = combo;
  let hasNull = false;
  for (const [i, kind] of dims.entries()) {
    const size = values[i]?.length ?? 1;
    const value = values[i]?.[rest % size] ?? null;
    rest = Math.floor(rest / size);
    if (value === null) hasNull = true;
    assumed[kind] = value;
    for (const slot of subject.slots.get(kind) ?? []) slot.container[slot.key] = value;
  }
  return { assumed, hasNull };
}

/**
 * Whether `when` holds whatever the unknowns of `dims` are, every value and null as they are
 * (`orNull`, whose first combination is the first try's): then the values that try assumed
 * decided nothing (a tool known to be `write-irreversible` decides `some t in tools satisfies
 * t.effect = "write-irreversible"` beside one of unknown effect), and the finding states no
 * assumption. Spare tries only: when they run out, the assumption stays, as it may have decided.
 */
function holdsWhatever(
  when: CompiledWhen,
  subject: Projection,
  dims: readonly UnknownKind[],
  orNull: readonly (readonly (string | number | null)[])[],
  budget: TryBudget | undefined,
): boolean {
  const tries: Tries | undefined =
    budget === undefined ? undefined : { take: () => budget.spare() };
  const count = orNull.reduce((a, v) => a * v.length, 1);
  for (let combo = 1; combo < count; combo += 1) {
    fill(subject, dims, orNull, combo);
    if (once(when, subject.facts, tries)?.kind !== "yes") return false;
  }
  return true;
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
  // A name `when` spells is the reason before one a function may see unnamed (`list contains`).
  const opaque = [...subject.opaque];
  const read =
    opaque.find((name) => when.reads.mentioned.has(name)) ??
    opaque.find((name) => reads(when, name));
  if (read !== undefined) {
    return { kind: "undecided", reason: `it reads '${read}', ${OPAQUE_REASONS[read]}` };
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
      const { assumed, hasNull } = fill(subject, dims, pass.values, combo);
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
  // Selected by its first try: the values assumed there decided it only if others would not.
  if (outcome?.kind === "yes" && tried === 1 && holdsWhatever(when, subject, dims, orNull, budget))
    outcome = { kind: "yes" };
  // The facts go back to unknown: they are the finding's data.
  for (const kind of dims)
    for (const slot of subject.slots.get(kind) ?? []) slot.container[slot.key] = null;
  if (outcome !== undefined) return outcome;
  return undecided === undefined ? { kind: "no" } : { kind: "undecided", reason: undecided };
}
