/**
 * The fast path of condition analysis. Most real conditions are one comparison of an `output`
 * field with a literal (`output.route = 3`, `output.status != "done"`, `output.score >= 0.8`).
 * Parsing each with lezer-feel costs tens of microseconds, which a decision with 100,000 distinct
 * cases turns into seconds; this recognises exactly that form with one linear regular expression
 * and builds the analysis the parser would give. Anything else, or anything this is not sure of
 * (keywords, other whitespace, escapes, JS operators, comments), goes to the parser.
 *
 * The equivalence with the parser is a tested property (test/model/condition/simple.test.ts).
 */
import { parseDecimal } from "./decimal.js";
import type { FeelAnalysis } from "./feel.js";
import { MAX_CONDITION_LENGTH } from "./feel.js";
import { quote } from "./tree.js";
import type { CompareOperator, Expr } from "./types.js";

/**
 * `output.<name>(.<name>)* <op> <literal>`, nothing before or after. Names are ASCII identifiers,
 * whitespace is spaces and tabs, numbers are unsigned decimals without exponent, strings have no
 * escape, no line break and no surrogate (lezer-feel refuses a lone one). Every part is followed
 * by a character that cannot continue it, so the match never backtracks more than a character.
 */
const SIMPLE =
  /^output((?:\.[A-Za-z_][A-Za-z0-9_]*)+)[ \t]*(<=|>=|!=|=|<|>)[ \t]*([0-9]+(?:\.[0-9]+)?|"[^"\\\r\n\uD800-\uDFFF]*"|true|false)$/;

/**
 * The parser nests one level per path segment, and a tree deeper than MAX_CONDITION_DEPTH is not
 * simulable (196 segments still pass); longer paths go to the parser, which words the refusal.
 */
const MAX_SEGMENTS = 100;

/**
 * FEEL's reserved words: lezer-feel may read them specially even after a dot, so a path that
 * contains one goes to the parser. (Built-in names such as `date` or `count` read as plain names
 * there; the equivalence test covers them.)
 */
const RESERVED: ReadonlySet<string> = new Set([
  "and",
  "between",
  "else",
  "every",
  "external",
  "false",
  "for",
  "function",
  "if",
  "in",
  "instance",
  "not",
  "null",
  "of",
  "or",
  "return",
  "satisfies",
  "some",
  "then",
  "true",
]);

const NONE: readonly never[] = Object.freeze([]);

function literal(source: string, offset: number): { expr: Expr; type: string } | undefined {
  const label = quote(source);
  if (source === "true" || source === "false") {
    return { expr: { kind: "boolean", value: source === "true", offset, label }, type: "boolean" };
  }
  if (source.startsWith('"')) {
    return { expr: { kind: "string", value: source.slice(1, -1), offset, label }, type: "string" };
  }
  const parsed = parseDecimal(source);
  if (!parsed.ok) return undefined; // e.g. over 100 digits: the parser path explains it
  return { expr: { kind: "number", value: parsed.value, offset, label }, type: "number" };
}

/**
 * The analysis of a condition of the form `output.<field…> <op> <literal>` that the allow-list
 * accepts (simulable, no problem), built without the parser; `undefined` for any other text.
 */
export function simpleComparison(text: string): FeelAnalysis | undefined {
  if (text.length > MAX_CONDITION_LENGTH) return undefined;
  const match = SIMPLE.exec(text);
  if (match === null) return undefined;
  const [, dotted = "", op = "", source = ""] = match;
  const path = dotted.slice(1).split(".");
  if (path.length > MAX_SEGMENTS || path.some((name) => RESERVED.has(name))) return undefined;
  const right = literal(source, text.length - source.length);
  // Strings and booleans compare by equality only; the parser path words the refusal.
  if (right === undefined || (right.type !== "number" && op !== "=" && op !== "!=")) {
    return undefined;
  }
  const name = `output${dotted}`;
  const left: Expr = { kind: "field", path, offset: 0, label: name };
  return {
    // Shared with every caller, like the cached analyses of the parser path, so frozen too.
    analysis: Object.freeze({
      ok: true,
      simulable: true,
      structured: true,
      fields: Object.freeze([name]),
      rewrites: NONE,
      problems: NONE,
    }),
    comparison: {
      op: op as CompareOperator,
      left,
      right: right.expr,
      offset: 0,
      label: quote(text),
    },
  };
}
