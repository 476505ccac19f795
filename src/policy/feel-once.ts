/**
 * One evaluation of a rule's `when` with feelin, classified as yes, no or undecided (a FEEL
 * warning, a result that is not a boolean, an ordering feelin made up, a bound on its work), and
 * kept by the facts it read: what `feel.ts` tries once per choice of unknown values.
 */
import { evaluate } from "feelin";
import { visibleText } from "../model/index.js";
import type { WhenReads } from "./feel-reads.js";
import { factsSize, MAX_WHEN_STEPS, stepsAt, stepsText } from "./feel-cost.js";
import { watchOrdering } from "./feel-order.js";

/** What an evaluation draws a try from: a `TryBudget`'s `take`, or its `spare` (feel.ts). */
export interface Tries {
  take(): boolean;
}

/** A `when` ready to evaluate: its text and what it reads. */
export interface CompiledWhen {
  readonly text: string;
  readonly reads: WhenReads;
}

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

/** One evaluation's outcome, before unknowns are weighed. */
export type Single =
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
export function once(when: CompiledWhen, facts: Record<string, unknown>): Single;
export function once(
  when: CompiledWhen,
  facts: Record<string, unknown>,
  budget: Tries | undefined,
): Single | undefined;
export function once(
  when: CompiledWhen,
  facts: Record<string, unknown>,
  budget?: Tries,
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
