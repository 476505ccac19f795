/**
 * The entry point for decision conditions (SPEC 2.6): analyse each condition text once (the fast
 * path for the common `output.<field> <op> <literal>` form in `simple.ts`, else the lezer-feel
 * parse in `feel.ts`), cache the frozen analysis by text, and evaluate the compiled comparison.
 */
import { evaluateComparison } from "./evaluate.js";
import type { FeelAnalysis } from "./feel.js";
import { parseFeel, syntaxOnly } from "./feel.js";
import { simpleAnalysis, simpleComparison } from "./simple.js";
import type {
  CompiledComparison,
  ConditionAnalysis,
  ConditionEvaluation,
  ConditionOptions,
} from "./types.js";

export { MAX_CONDITION_DEPTH, MAX_CONDITION_LENGTH } from "./feel.js";

/** A condition analysed once and ready to be evaluated against any number of outputs. */
export interface CompiledCondition {
  readonly analysis: ConditionAnalysis;
  /** Same contract as {@link evaluateCondition}. Never throws. */
  readonly evaluate: (data: unknown) => ConditionEvaluation;
}

const TEXT_ANALYSIS: ConditionAnalysis = {
  ok: true,
  simulable: false,
  structured: false,
  fields: [],
  rewrites: [],
  problems: [],
};

const TEXT_REASON =
  "a natural-language condition is judged by a model at run time and cannot be simulated";

/** Why a condition that was not simulable gives no answer. */
function refusal(analysis: ConditionAnalysis): ConditionEvaluation {
  const first = analysis.problems[0];
  if (first === undefined) return { undecidable: "the condition is not simulable" };
  const prefix =
    first.kind === "syntax"
      ? "the condition does not parse: "
      : first.kind === "not-simulable"
        ? "the condition is not simulable: "
        : "";
  return { undecidable: `${prefix}${first.message}`, offset: first.offset };
}

function freezeDeep(value: unknown): void {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const child of Object.values(value)) freezeDeep(child);
}

/** Parsed analyses by text; the same condition recurs across nodes, workflows and files. */
const feelCache = new Map<string, FeelAnalysis>();
/** Bounded so that hostile input cannot grow it; cleared when full (the results are pure). */
const FEEL_CACHE_LIMIT = 4096;

function analyzed(text: string): FeelAnalysis {
  // Callers from plain JavaScript (or `as` casts) can pass anything; never throw on it.
  const input: unknown = text;
  if (typeof input !== "string") return { analysis: syntaxOnly("a condition must be a string", 0) };
  // The fast path costs less than a cache entry would (a decision may have 100,000 distinct
  // cases), and its analysis is frozen when built.
  return simpleComparison(input) ?? parsed(input);
}

/** The parser path, cached by text. */
function parsed(input: string): FeelAnalysis {
  const hit = feelCache.get(input);
  if (hit !== undefined) return hit;
  let result: FeelAnalysis;
  try {
    result = parseFeel(input);
  } catch {
    result = { analysis: syntaxOnly("the condition could not be analysed", 0) };
  }
  if (feelCache.size >= FEEL_CACHE_LIMIT) feelCache.clear();
  feelCache.set(input, result);
  freezeDeep(result.analysis); // shared by every caller from now on: nobody may change it
  return result;
}

/**
 * The compiled comparison of a simulable FEEL condition, `undefined` for any other text. Not
 * public (`model/internal.ts`): an exporter reads it to write the same comparison in another
 * engine's expression language, instead of parsing the text a second way.
 */
export function conditionComparison(text: string): CompiledComparison | undefined {
  return analyzed(text).comparison;
}

/**
 * Analyses a condition once and returns its analysis with an evaluator, for callers (the
 * simulator) that evaluate the same condition many times. Never throws.
 *
 * @example
 * ```ts
 * import { compileCondition } from "agentflow/model";
 *
 * const underLimit = compileCondition("output.attempts < 3"); // parsed once
 * underLimit.analysis.simulable; // → true
 * underLimit.evaluate({ attempts: 1 }); // → { value: true }
 * underLimit.evaluate({ attempts: 5 }); // → { value: false }
 * // FEEL does not convert types: a string is not compared with a number
 * "undecidable" in underLimit.evaluate({ attempts: "5" }); // → true
 * ```
 */
export function compileCondition(text: string, options?: ConditionOptions): CompiledCondition {
  if (options?.language === "text") {
    return { analysis: TEXT_ANALYSIS, evaluate: () => ({ undecidable: TEXT_REASON }) };
  }
  const { analysis, comparison } = analyzed(text);
  if (comparison === undefined) {
    const refused = refusal(analysis);
    return { analysis, evaluate: () => refused };
  }
  return { analysis, evaluate: (data) => evaluateComparison(comparison, data) };
}

/**
 * Analyses a decision condition: whether it parses (after the `===`/`!==`/`==` rewrite), whether
 * it is in the simulable S-FEEL subset, which fields it reads, and what is wrong with it. With
 * `language: "text"` the condition is natural language: never parsed, never simulable.
 * Never throws.
 *
 * @example
 * ```ts
 * import { analyzeCondition } from "agentflow/model";
 *
 * const feel = analyzeCondition("output.score >= 0.8 and output.is_complete === true");
 * feel.ok; // → true
 * feel.fields; // → ["output.score", "output.is_complete"]
 * feel.rewrites; // → [{ from: "===", to: "=", offset: 43 }]
 * // `and` is FEEL, but outside the S-FEEL subset the simulator decides
 * feel.simulable; // → false
 * feel.problems.map((p) => p.kind); // → ["not-simulable"]
 *
 * const text = analyzeCondition("the answer cites its sources", { language: "text" });
 * text.structured; // → false
 * ```
 */
export function analyzeCondition(text: string, options?: ConditionOptions): ConditionAnalysis {
  if (options?.language === "text") return TEXT_ANALYSIS;
  // No compiled comparison on the fast path: a validation analyses every case of a decision,
  // maybe 100,000 of them, and only needs the analysis.
  const input: unknown = text;
  const simple = typeof input === "string" ? simpleAnalysis(input) : undefined;
  return simple ?? analyzed(text).analysis;
}

/**
 * Evaluates a condition against the merged outputs (`output` is `data`). Only simulable
 * conditions give a value; anything else, and any input for which an honest answer does not
 * exist (an absent field, mixed types, division by zero…), is `undecidable` with a reason.
 * Deterministic, no clock, never throws.
 *
 * @example
 * ```ts
 * import { evaluateCondition } from "agentflow/model";
 *
 * evaluateCondition("output.score >= 0.8", { score: 0.9 }); // → { value: true }
 * evaluateCondition('output.route = "refund"', { route: "replace" }); // → { value: false }
 * // an absent field is never read as false
 * evaluateCondition("output.score >= 0.8", {}); // → { undecidable: "output.score is absent", offset: 0 }
 * ```
 */
export function evaluateCondition(
  text: string,
  data: unknown,
  options?: ConditionOptions,
): ConditionEvaluation {
  return compileCondition(text, options).evaluate(data);
}
