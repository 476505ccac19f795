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

/** One operator that was rewritten; `offset` is 0-based, into the original text. */
export interface OperatorRewrite {
  readonly from: "===" | "!==" | "==";
  readonly to: "=" | "!=";
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
  const rewrites: OperatorRewrite[] = [];
  const parts: string[] = [];
  let copied = 0; // text before this offset is already in `parts`
  let i = 0;
  const n = text.length;
  const replace = (from: OperatorRewrite["from"], to: OperatorRewrite["to"]): void => {
    parts.push(text.slice(copied, i), to);
    rewrites.push({ from, to, offset: i });
    i += from.length;
    copied = i;
  };
  while (i < n) {
    const c = text.charCodeAt(i);
    const next = i + 1 < n ? text.charCodeAt(i + 1) : -1;
    if (c === QUOTE) {
      i += 1;
      while (i < n) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i += 2;
        else if (s === QUOTE) break;
        else i += 1;
      }
      i += 1; // the closing quote, or past the end of an unterminated string
    } else if (c === SLASH && next === SLASH) {
      while (i < n && text.charCodeAt(i) !== NEWLINE) i += 1;
    } else if (c === SLASH && next === STAR) {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? n : end + 2;
    } else if ((c === LESS || c === GREATER) && next === EQUALS) {
      i += 2; // `<=` / `>=`: the `=` belongs to them, so `>==` stays a syntax error
    } else if (c === BANG && next === EQUALS) {
      if (i + 2 < n && text.charCodeAt(i + 2) === EQUALS) replace("!==", "!=");
      else i += 2;
    } else if (c === EQUALS && next === EQUALS) {
      if (i + 2 < n && text.charCodeAt(i + 2) === EQUALS) replace("===", "=");
      else replace("==", "=");
    } else {
      i += 1;
    }
  }
  if (rewrites.length === 0) return { text, rewrites };
  parts.push(text.slice(copied));
  return { text: parts.join(""), rewrites };
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
