/**
 * The entry point for decision conditions (SPEC 2.6): rewrite the JavaScript operators, parse
 * with lezer-feel, check syntax, collect the names read, check the S-FEEL allow-list, and keep the
 * compiled comparison so that evaluation needs no second parse.
 */
import { parseExpression } from "feelin";
import { compileTree } from "./compile.js";
import { evaluateComparison } from "./evaluate.js";
import { collectNameReads } from "./names.js";
import { originalOffset, rewriteJsOperators } from "./rewrite.js";
import type { OperatorRewrite } from "./rewrite.js";
import { quote } from "./tree.js";
import type { FeelTree } from "./tree.js";
import type {
  CompiledComparison,
  ConditionAnalysis,
  ConditionEvaluation,
  ConditionOptions,
  ConditionProblem,
} from "./types.js";

/**
 * Longer conditions are a syntax problem and are never parsed: lezer's error recovery on hostile
 * input of this size already takes a noticeable fraction of a second.
 */
export const MAX_CONDITION_LENGTH = 10_000;

/**
 * Deeper trees are not simulable. The allow-list walk and the evaluator recurse, and no real
 * condition nests anywhere near this deep.
 */
export const MAX_CONDITION_DEPTH = 200;

/** Beyond this many problems a condition is simply broken; more would only flood a report. */
const MAX_PROBLEMS = 20;

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

function syntaxOnly(
  message: string,
  offset: number,
  rewrites: readonly OperatorRewrite[] = [],
): ConditionAnalysis {
  return {
    ok: false,
    simulable: false,
    structured: false,
    fields: [],
    rewrites,
    problems: [{ kind: "syntax", message, offset }],
  };
}

/** Explains a parse error at `from` in the terms an author of JS-style conditions needs. */
function syntaxMessage(text: string, from: number, to: number): string {
  if (from >= text.length || text.slice(from).trim() === "") {
    return "the condition ends too early: an operand or a closing ')' is missing";
  }
  const two = text.slice(from, from + 2);
  if (two === "&&") return "'&&' is not FEEL; write 'and' (valid FEEL, though not simulable)";
  if (two === "||") return "'||' is not FEEL; write 'or' (valid FEEL, though not simulable)";
  const first = text.charAt(from);
  if (first === "!") return "'!' is not FEEL; compare with '= false' instead";
  if (first === "'") return "FEEL strings are written in double quotes";
  if (first === '"') return "the string starting here is not closed on its line";
  // lezer marks some errors with an empty node before whitespace; quote what follows instead.
  let start = from;
  while (start < text.length && " \t\r\n".includes(text.charAt(start))) start += 1;
  return `unexpected '${quote(text.slice(start, Math.max(to, start + 1)), 20)}'`;
}

/** The first error node (smallest offset) and the maximum nesting depth of the tree. */
function scanTree(tree: FeelTree): {
  readonly error?: { from: number; to: number };
  readonly depth: number;
} {
  let error: { from: number; to: number } | undefined;
  let depth = 0;
  let maxDepth = 0;
  tree.iterate({
    enter(node) {
      depth += 1;
      if (depth > maxDepth) maxDepth = depth;
      if (node.type.isError && (error === undefined || node.from < error.from)) {
        error = { from: node.from, to: node.to };
      }
    },
    leave() {
      depth -= 1;
    },
  });
  return error === undefined ? { depth: maxDepth } : { error, depth: maxDepth };
}

function analyzeFeel(original: string): {
  readonly analysis: ConditionAnalysis;
  readonly comparison?: CompiledComparison;
} {
  if (original.length > MAX_CONDITION_LENGTH) {
    return {
      analysis: syntaxOnly(
        `the condition is too long (${original.length} characters; the limit is ${MAX_CONDITION_LENGTH})`,
        MAX_CONDITION_LENGTH,
      ),
    };
  }
  if (original.trim() === "") return { analysis: syntaxOnly("the condition is empty", 0) };
  const { text, rewrites } = rewriteJsOperators(original);
  const toOriginal = (offset: number): number => originalOffset(rewrites, offset);
  let tree: FeelTree;
  try {
    tree = parseExpression(text, {}, undefined);
  } catch {
    return { analysis: syntaxOnly("the FEEL parser could not read the condition", 0, rewrites) };
  }
  const scan = scanTree(tree);
  if (scan.error !== undefined) {
    const { from, to } = scan.error;
    return { analysis: syntaxOnly(syntaxMessage(text, from, to), toOriginal(from), rewrites) };
  }

  const problems: ConditionProblem[] = [];
  const fields: string[] = [];
  const seen = new Set<string>();
  let structured = false;
  for (const read of collectNameReads(tree, text)) {
    // `output` alone is the whole object, not a field; the allow-list reports it.
    if (read.root === "output" && read.path.length === 0) continue;
    if (read.root === "output") structured = true;
    if (seen.has(read.name)) continue;
    seen.add(read.name);
    fields.push(read.name);
    if (read.root !== "output") {
      const suggestion = read.path.length === 0 ? ` (did you mean output.${read.name}?)` : "";
      problems.push({
        kind: "unknown-name",
        message: `'${quote(read.name)}' does not exist when the condition runs: conditions read the outputs as output.<field>${suggestion}`,
        offset: toOriginal(read.from),
      });
    }
  }

  let comparison: CompiledComparison | undefined;
  if (scan.depth > MAX_CONDITION_DEPTH) {
    problems.push({
      kind: "not-simulable",
      message: `the condition nests more than ${MAX_CONDITION_DEPTH} levels deep`,
      offset: 0,
      construct: "Nesting",
    });
  } else {
    comparison = compileTree(tree.topNode, { text, original, toOriginal, problems });
  }
  // Stable sort: problems at one offset keep the order they were found in.
  const sorted = problems.sort((a, b) => a.offset - b.offset).slice(0, MAX_PROBLEMS);
  const simulable = comparison !== undefined && sorted.length === 0;
  const analysis: ConditionAnalysis = {
    ok: true,
    simulable,
    structured,
    fields,
    rewrites,
    problems: sorted,
  };
  return simulable && comparison !== undefined ? { analysis, comparison } : { analysis };
}

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

/** Analyses by text; the same condition recurs across nodes, workflows and files. */
const feelCache = new Map<string, ReturnType<typeof analyzeFeel>>();
/** Bounded so that hostile input cannot grow it; cleared when full (the results are pure). */
const FEEL_CACHE_LIMIT = 4096;

function analyzed(text: string): ReturnType<typeof analyzeFeel> {
  // Callers from plain JavaScript (or `as` casts) can pass anything; never throw on it.
  const input: unknown = text;
  if (typeof input !== "string") return { analysis: syntaxOnly("a condition must be a string", 0) };
  const hit = feelCache.get(input);
  if (hit !== undefined) return hit;
  let result: ReturnType<typeof analyzeFeel>;
  try {
    result = analyzeFeel(input);
  } catch {
    result = { analysis: syntaxOnly("the condition could not be analysed", 0) };
  }
  if (feelCache.size >= FEEL_CACHE_LIMIT) feelCache.clear();
  feelCache.set(input, result);
  freezeDeep(result.analysis); // shared by every caller from now on: nobody may change it
  return result;
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
  return compileCondition(text, options).analysis;
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
