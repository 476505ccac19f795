/**
 * Text as a reviewer must read it. Characters that print as nothing, or that reorder what is
 * around them, let a document show one thing and mean another: a node id with a right-to-left
 * override, a zero-width space or a newline looks like a different id, or like no id at all. Every
 * surface that shows document text to a person (messages, reports, diagrams) shows them escaped.
 */

/**
 * The characters shown escaped: controls (NUL, newline, tab, DEL, C1), format characters (bidi
 * embeddings, overrides, isolates and marks, zero-width spaces and joiners, the BOM, soft hyphen,
 * tag characters), the line and paragraph separators, and lone surrogates.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
const INVISIBLE_ALL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

const SHORT: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** `\n`, `\r`, `\t`, or `\u{XXXX}` (hex, upper case) for any other code point. */
function escapeOne(ch: string): string {
  return SHORT[ch] ?? `\\u{${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`;
}

/**
 * True when `text` holds a character {@link visibleText} escapes.
 *
 * @example
 * ```ts
 * import { hasInvisibleCharacters } from "agentflow/model";
 *
 * hasInvisibleCharacters("approve\u202Eevorppa"); // → true
 * hasInvisibleCharacters("approve-refund"); // → false
 * ```
 */
export function hasInvisibleCharacters(text: string): boolean {
  return INVISIBLE.test(text);
}

/**
 * The invisible characters of `text`, each with its UTF-16 offset and escaped form.
 *
 * @example
 * ```ts
 * import { invisibleCharacters } from "agentflow/model";
 *
 * invisibleCharacters("a\u200Bb\n");
 * // → [{ offset: 1, escaped: "\\u{200B}" }, { offset: 3, escaped: "\\n" }]
 * ```
 */
export function invisibleCharacters(
  text: string,
): { readonly offset: number; readonly escaped: string }[] {
  return [...text.matchAll(INVISIBLE_ALL)].map((m) => ({
    offset: m.index,
    escaped: escapeOne(m[0]),
  }));
}

/**
 * `text` with every invisible character written as an escape (`\n`, `\u{202E}`), so that what a
 * reviewer reads is what the document holds. Other text is unchanged, backslashes included: an
 * id that spells `\u{202E}` in plain characters has no invisible character, and no finding.
 *
 * @example
 * ```ts
 * import { visibleText } from "agentflow/model";
 *
 * visibleText("pay\u202Eeulav"); // → "pay\\u{202E}eulav"
 * visibleText("line one\nline two"); // → "line one\\nline two"
 * visibleText("plain"); // → "plain"
 * ```
 */
export function visibleText(text: string): string {
  return INVISIBLE.test(text) ? text.replace(INVISIBLE_ALL, escapeOne) : text;
}
