/**
 * The JavaScript-operator compatibility rewrite (SPEC 2.6). Documents written for the seed use
 * `===` and `!==`; lezer-feel reads `x === true` as a comparison whose right side is a unary test
 * (`== true`), which evaluates to null at run time instead of failing. The operators are therefore
 * rewritten in the text before it is parsed, and every rewrite is reported so that the validator
 * can name it.
 *
 * The scan is a single forward pass over the characters (no regular expression), so its cost is
 * linear in the length of the text whatever the input.
 */

/**
 * One piece of JavaScript that was rewritten; `offset` is 0-based, into the original text.
 * `from` is the text replaced (an operator, a whole single-quoted string, or `""` where a closing
 * parenthesis was inserted), `to` its FEEL.
 */
export interface OperatorRewrite {
  readonly from: string;
  readonly to: string;
  readonly offset: number;
}

/** The outcome of {@link rewriteJsOperators}: the FEEL text and what was changed to get it. */
export interface RewriteResult {
  readonly text: string;
  readonly rewrites: readonly OperatorRewrite[];
}

const QUOTE = 34; // "
const BACKSLASH = 92; // \
const EQUALS = 61; // =
const BANG = 33; // !
const LESS = 60; // <
const GREATER = 62; // >
const SLASH = 47; // /
const STAR = 42; // *
const NEWLINE = 10;

/**
 * Rewrites `===` → `=`, `!==` → `!=` and `==` → `=` outside FEEL string literals (double-quoted,
 * backslash escapes) and comments (`// …` to the end of the line, `/* … *\/`). Text inside a
 * string is data and must never change; a rewrite inside a comment would change nothing but would
 * raise a warning about an operator that is not there. `<=`, `>=` and `!=` are left untouched.
 * Never throws.
 *
 * @example
 * ```ts
 * import { rewriteJsOperators } from "agentflow/model";
 *
 * const { text, rewrites } = rewriteJsOperators('output.status !== "done" or output.n == 0');
 * text; // → 'output.status != "done" or output.n = 0'
 * rewrites; // → [{ from: "!==", to: "!=", offset: 14 }, { from: "==", to: "=", offset: 37 }]
 * // string literals are data and stay as written
 * rewriteJsOperators('output.op = "a === b"').rewrites; // → []
 * ```
 */
export function rewriteJsOperators(text: string): RewriteResult {
  return scanJs(text, false);
}

/**
 * Maps an offset in the rewritten text back to the original text, so that every problem points
 * at what the author wrote. An offset inside a replaced operator maps to the operator's start.
 */
export function originalOffset(rewrites: readonly OperatorRewrite[], offset: number): number {
  let shift = 0;
  for (const r of rewrites) {
    const start = r.offset - shift; // where the replacement starts in the rewritten text
    if (offset < start + r.to.length) {
      return offset < start ? offset + shift : r.offset + Math.min(offset - start, r.to.length);
    }
    shift += r.from.length - r.to.length;
  }
  return offset + shift;
}

const APOSTROPHE = 39; // '
const AMPERSAND = 38; // &
const PIPE = 124; // |
const OPEN = 40; // (
const CLOSE = 41; // )
const OPEN_BRACKET = 91; // [

/** A character of a name or a path (`output.items[0].ok`), as `!` takes its operand. */
function isNameChar(c: number): boolean {
  return (
    (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46
  );
}

/**
 * Where the string literal opened by the quote `quote` at `i` ends (past its closing quote), or
 * -1 when it is never closed.
 */
function stringEnd(text: string, i: number, quote: number): number {
  let j = i + 1;
  while (j < text.length) {
    const c = text.charCodeAt(j);
    if (c === BACKSLASH) j += 2;
    else if (c === quote) return j + 1;
    else j += 1;
  }
  return -1;
}

/** Where the operand of a `!` starting at `i` ends: a parenthesised group, or a name path. */
function operandEnd(text: string, i: number): number | undefined {
  const n = text.length;
  if (text.charCodeAt(i) === OPEN) {
    let depth = 0;
    for (let j = i; j < n;) {
      const c = text.charCodeAt(j);
      if (c === QUOTE || c === APOSTROPHE) {
        j = stringEnd(text, j, c);
        if (j < 0) return undefined;
        continue;
      }
      if (c === OPEN) depth += 1;
      else if (c === CLOSE && --depth === 0) return j + 1;
      j += 1;
    }
    return undefined;
  }
  let j = i;
  while (j < n) {
    const c = text.charCodeAt(j);
    if (isNameChar(c)) j += 1;
    else if (c === OPEN_BRACKET) {
      const close = text.indexOf("]", j);
      if (close < 0) return undefined;
      j = close + 1;
    } else break;
  }
  return j > i ? j : undefined;
}

/** A single-quoted JavaScript string as a FEEL string: `'a "b" \'c\''` → `"a \"b\" 'c'"`. */
function doubleQuoted(literal: string): string {
  const body = literal.slice(1, -1);
  let out = "";
  for (let k = 0; k < body.length; k++) {
    const ch = body[k] ?? "";
    if (ch === "\\" && body[k + 1] === "'") {
      out += "'";
      k += 1;
    } else if (ch === "\\") {
      out += ch + (body[k + 1] ?? "");
      k += 1;
    } else if (ch === '"') out += '\\"';
    else out += ch;
  }
  return `"${out}"`;
}

/**
 * The seed's JavaScript-like condition dialect read as FEEL, in one forward pass: the operators
 * of {@link rewriteJsOperators}, and `'single-quoted'` strings → `"double-quoted"`, `&&` → `and`,
 * `||` → `or`, `!x` / `!(…)` → `not(x)` / `not(…)` (but `!=` stays). Double-quoted FEEL strings
 * and comments are never touched. Only used when the text is not FEEL as it stands (`parseFeel`
 * tries {@link rewriteJsOperators} alone first), so that a valid FEEL expression — where `'` may
 * be part of a name — never changes meaning. Linear in the text, apart from the operand scan of a
 * `!`, which reads its operand once more. Never throws.
 *
 * @example
 * ```ts
 * import { rewriteJsDialect } from "agentflow/model";
 *
 * rewriteJsDialect("output.status === 'rejected' && !output.ok").text;
 * // → 'output.status = "rejected" and not(output.ok)'
 * ```
 */
export function rewriteJsDialect(text: string): RewriteResult {
  return scanJs(text, true);
}

/**
 * The one forward pass both rewrites share: the operators always, and with `dialect` the rest of
 * the seed's dialect (single quotes, `&&`, `||`, `!`). Without it a `'` is no string delimiter,
 * as in FEEL.
 */
function scanJs(text: string, dialect: boolean): RewriteResult {
  const rewrites: OperatorRewrite[] = [];
  const parts: string[] = [];
  let copied = 0;
  let i = 0;
  const n = text.length;
  /** Closing parentheses to insert, by the offset they go before. */
  const closers: number[] = [];
  const replace = (length: number, to: string): void => {
    parts.push(text.slice(copied, i), to);
    rewrites.push({ from: text.slice(i, i + length), to, offset: i });
    i += length;
    copied = i;
  };
  const closeAt = (offset: number): void => {
    while (closers.length > 0 && (closers.at(-1) ?? n) <= offset) {
      const at = closers.pop() ?? offset;
      parts.push(text.slice(copied, at), ")");
      rewrites.push({ from: "", to: ")", offset: at });
      copied = at;
    }
  };
  while (i < n) {
    closeAt(i);
    const c = text.charCodeAt(i);
    const next = i + 1 < n ? text.charCodeAt(i + 1) : -1;
    if (c === QUOTE) {
      const end = stringEnd(text, i, QUOTE);
      i = end < 0 ? n : end;
    } else if (dialect && c === APOSTROPHE) {
      const end = stringEnd(text, i, APOSTROPHE);
      // An unclosed string stays as written: closing it would be a guess.
      if (end < 0) i = n;
      else replace(end - i, doubleQuoted(text.slice(i, end)));
    } else if (c === SLASH && next === SLASH) {
      while (i < n && text.charCodeAt(i) !== NEWLINE) i += 1;
    } else if (c === SLASH && next === STAR) {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? n : end + 2;
    } else if ((c === LESS || c === GREATER) && next === EQUALS) {
      i += 2;
    } else if (c === BANG && next === EQUALS) {
      if (i + 2 < n && text.charCodeAt(i + 2) === EQUALS) replace(3, "!=");
      else i += 2;
    } else if (c === EQUALS && next === EQUALS) {
      replace(i + 2 < n && text.charCodeAt(i + 2) === EQUALS ? 3 : 2, "=");
    } else if (
      dialect &&
      ((c === AMPERSAND && next === AMPERSAND) || (c === PIPE && next === PIPE))
    ) {
      // A word needs spaces around it where the symbol did not: `a&&b` → `a and b`.
      const before = i > 0 && text.charCodeAt(i - 1) !== 32 ? " " : "";
      const after = i + 2 < n && text.charCodeAt(i + 2) !== 32 ? " " : "";
      replace(2, `${before}${c === AMPERSAND ? "and" : "or"}${after}`);
    } else if (dialect && c === BANG) {
      let start = i + 1;
      while (start < n && text.charCodeAt(start) === 32) start += 1;
      const end = operandEnd(text, start);
      if (end === undefined) {
        i += 1;
        continue;
      }
      replace(start - i, "not(");
      // Closers nest: an inner `!` closes before an outer one that ends at the same place.
      closers.push(end);
      closers.sort((a, b) => b - a);
    } else {
      i += 1;
    }
  }
  closeAt(n);
  if (rewrites.length === 0) return { text, rewrites };
  parts.push(text.slice(copied));
  return { text: parts.join(""), rewrites };
}

/**
 * The text the rewrites make of `text`: what the condition was read as. The rewrites must be
 * those of {@link rewriteJsOperators} or {@link rewriteJsDialect} on this text, in order.
 *
 * @example
 * ```ts
 * import { applyRewrites, rewriteJsDialect } from "agentflow/model";
 *
 * const text = "!output.ok || output.n == 2";
 * applyRewrites(text, rewriteJsDialect(text).rewrites); // → "not(output.ok) or output.n = 2"
 * ```
 */
export function applyRewrites(text: string, rewrites: readonly OperatorRewrite[]): string {
  const parts: string[] = [];
  let copied = 0;
  for (const r of rewrites) {
    parts.push(text.slice(copied, r.offset), r.to);
    copied = r.offset + r.from.length;
  }
  parts.push(text.slice(copied));
  return parts.join("");
}
