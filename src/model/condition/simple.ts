/**
 * The fast path of condition analysis. Most real conditions are one comparison of an `output`
 * field with a literal (`output.route = 3`, `output.status != "done"`, `output.score >= 0.8`).
 * Parsing each with lezer-feel costs tens of microseconds, which a decision with 100,000 distinct
 * cases turns into seconds; this recognises exactly that form in one forward scan and builds the
 * analysis the parser would give. Anything else, or anything this is not sure of (keywords, other
 * whitespace, escapes, JS operators, comments), goes to the parser.
 *
 * The scan allocates nothing: a validation analyses every case of a decision, and at 100,000
 * cases a regular expression match, a split path and a decimal per case were most of its garbage.
 * The compiled comparison is only built for callers that evaluate (`simpleComparison`).
 *
 * The equivalence with the parser is a tested property (test/model/condition/simple.test.ts).
 */
import { MAX_DECIMAL_DIGITS, parseDecimal } from "./decimal.js";
import type { FeelAnalysis } from "./feel.js";
import { MAX_CONDITION_LENGTH } from "./feel.js";
import { quote } from "./tree.js";
import type { CompareOperator, ConditionAnalysis, Expr } from "./types.js";

/**
 * The parser nests one level per path segment, and a tree deeper than MAX_CONDITION_DEPTH is not
 * simulable (196 segments still pass); longer paths go to the parser, which words the refusal.
 */
const MAX_SEGMENTS = 100;

/**
 * FEEL's reserved words, by length: lezer-feel may read them specially even after a dot, so a
 * path that contains one goes to the parser. (Built-in names such as `date` or `count` read as
 * plain names there; the equivalence test covers them.) By length, so that a segment is compared
 * in place, without cutting it out of the text.
 */
const RESERVED_BY_LENGTH: readonly (readonly string[])[] = (() => {
  const words = ["and", "between", "else", "every", "external", "false", "for", "function"];
  words.push("if", "in", "instance", "not", "null", "of", "or", "return", "satisfies", "some");
  words.push("then", "true");
  const out: string[][] = [];
  for (const w of words) (out[w.length] ??= []).push(w);
  return out;
})();

const NONE: readonly never[] = Object.freeze([]);

const SPACE = 32;
const TAB = 9;
const QUOTE = 34;
const DOT = 46;

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isNameStart = (c: number): boolean =>
  (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isNamePart = (c: number): boolean => isNameStart(c) || isDigit(c);

function isReserved(text: string, from: number, to: number): boolean {
  const words = RESERVED_BY_LENGTH[to - from];
  if (words === undefined) return false;
  for (const w of words) if (text.startsWith(w, from)) return true;
  return false;
}

function skipBlanks(text: string, i: number): number {
  let at = i;
  for (let c = text.charCodeAt(at); c === SPACE || c === TAB; c = text.charCodeAt(at)) at += 1;
  return at;
}

/** The length of the operator at `i` (`<= >= != = < >`), or 0. */
function operatorLength(text: string, i: number): number {
  const c = text.charCodeAt(i);
  const equals = text.charCodeAt(i + 1) === 61;
  if (c === 60 || c === 62) return equals ? 2 : 1; // < <= > >=
  if (c === 33) return equals ? 2 : 0; // !=
  return c === 61 ? 1 : 0; // =
}

/** 0 when the literal from `i` to the end is not one this path takes, else its kind. */
const NUMBER = 1;
const OTHER = 2;

function literalKind(text: string, i: number): number {
  const n = text.length;
  const c = text.charCodeAt(i);
  if (c === QUOTE) {
    // No escape, no line break, no surrogate (lezer-feel refuses a lone one); closed at the end.
    for (let k = i + 1; k < n - 1; k++) {
      const s = text.charCodeAt(k);
      if (s === QUOTE || s === 92 || s === 10 || s === 13 || (s >= 0xd800 && s <= 0xdfff)) {
        return 0;
      }
    }
    return n - i >= 2 && text.charCodeAt(n - 1) === QUOTE ? OTHER : 0;
  }
  if (isDigit(c)) {
    // Unsigned decimals without exponent; over MAX_DECIMAL_DIGITS the parser path explains it.
    let k = i;
    while (k < n && isDigit(text.charCodeAt(k))) k += 1;
    let digits = k - i;
    if (k < n && text.charCodeAt(k) === DOT) {
      const fraction = k + 1;
      k = fraction;
      while (k < n && isDigit(text.charCodeAt(k))) k += 1;
      if (k === fraction) return 0;
      digits += k - fraction;
    }
    return k === n && digits <= MAX_DECIMAL_DIGITS ? NUMBER : 0;
  }
  const rest = n - i;
  return (rest === 4 && text.startsWith("true", i)) || (rest === 5 && text.startsWith("false", i))
    ? OTHER
    : 0;
}

/**
 * Where the `output.<name>(.<name>)*` path ends when the whole text is
 * `output.<field…> <op> <literal>` in the form this path takes, else -1. Names are ASCII
 * identifiers, whitespace is spaces and tabs, numbers are unsigned decimals without exponent,
 * strings have no escape, and strings and booleans compare by equality only (the parser path
 * words the refusal of anything else).
 */
export function simplePathEnd(text: string): number {
  if (text.length > MAX_CONDITION_LENGTH || !text.startsWith("output")) return -1;
  let i = 6;
  let segments = 0;
  while (text.charCodeAt(i) === DOT) {
    const from = i + 1;
    if (!isNameStart(text.charCodeAt(from))) return -1;
    i = from + 1;
    while (isNamePart(text.charCodeAt(i))) i += 1;
    segments += 1;
    if (segments > MAX_SEGMENTS || isReserved(text, from, i)) return -1;
  }
  if (segments === 0) return -1;
  const opStart = skipBlanks(text, i);
  const opLength = operatorLength(text, opStart);
  if (opLength === 0) return -1;
  const kind = literalKind(text, skipBlanks(text, opStart + opLength));
  if (kind === 0) return -1;
  const equality = text.charCodeAt(opStart) === 61 || text.charCodeAt(opStart) === 33;
  return kind === NUMBER || equality ? i : -1;
}

/** The last analysis built, by field: consecutive cases of a decision usually read one field. */
let lastField = "";
let lastAnalysis: ConditionAnalysis | undefined;

/** "Reads `field`, simulable, no problem": the analysis of every condition this path takes. */
function analysisOf(text: string, pathEnd: number): ConditionAnalysis {
  if (lastAnalysis !== undefined && pathEnd === lastField.length && text.startsWith(lastField)) {
    return lastAnalysis;
  }
  const field = text.slice(0, pathEnd);
  // Shared with every caller, like the cached analyses of the parser path, so frozen too.
  const analysis: ConditionAnalysis = Object.freeze({
    ok: true,
    simulable: true,
    structured: true,
    fields: Object.freeze([field]),
    rewrites: NONE,
    problems: NONE,
  });
  lastField = field;
  lastAnalysis = analysis;
  return analysis;
}

/**
 * The analysis of a condition of the form `output.<field…> <op> <literal>` that the allow-list
 * accepts (simulable, no problem), built without the parser and without the compiled comparison;
 * `undefined` for any other text. Frozen, and shared by the conditions that read the same field.
 */
export function simpleAnalysis(text: string): ConditionAnalysis | undefined {
  const pathEnd = simplePathEnd(text);
  return pathEnd < 0 ? undefined : analysisOf(text, pathEnd);
}

function literal(source: string, offset: number): Expr | undefined {
  const label = quote(source);
  if (source === "true" || source === "false") {
    return { kind: "boolean", value: source === "true", offset, label };
  }
  if (source.startsWith('"')) return { kind: "string", value: source.slice(1, -1), offset, label };
  const parsed = parseDecimal(source);
  if (!parsed.ok) return undefined; // the scan bounds the digits; kept for the types
  return { kind: "number", value: parsed.value, offset, label };
}

/**
 * {@link simpleAnalysis} with the compiled comparison, for callers that evaluate the condition;
 * `undefined` for any text that path does not take.
 */
export function simpleComparison(text: string): FeelAnalysis | undefined {
  const pathEnd = simplePathEnd(text);
  if (pathEnd < 0) return undefined;
  const opStart = skipBlanks(text, pathEnd);
  const opEnd = opStart + operatorLength(text, opStart);
  const literalStart = skipBlanks(text, opEnd);
  const right = literal(text.slice(literalStart), literalStart);
  if (right === undefined) return undefined;
  const name = text.slice(0, pathEnd);
  const left: Expr = { kind: "field", path: name.slice(7).split("."), offset: 0, label: name };
  return {
    analysis: analysisOf(text, pathEnd),
    comparison: {
      op: text.slice(opStart, opEnd) as CompareOperator,
      left,
      right,
      offset: 0,
      label: quote(text),
    },
  };
}
