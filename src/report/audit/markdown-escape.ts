/**
 * Escaping for the Markdown report, by context. A workflow is untrusted input: a newline in its
 * name would start a heading of its own (a forged "## Promotion decision: ALLOWED"), a `<script>`
 * or a `[x](javascript:…)` would be HTML or a link on any renderer that allows them, three
 * backticks would end a code block. Each function makes its text inert in one context, as
 * CommonMark and GitHub Flavored Markdown read it (`docs/report.md`). Written by hand: the
 * Markdown libraries parse and render; none escapes text for a context.
 */
import { visibleText } from "../../model/index.js";

/**
 * ASCII punctuation that can mean something inline: backslash, code, emphasis, links and images,
 * raw HTML and autolinks, entities, GFM tables, strikethrough and math, and ATX heading marks.
 * CommonMark lets a backslash escape any ASCII punctuation, so each is written `\x`. An `_`
 * between two letters or digits is left alone: CommonMark never reads it as emphasis, and ids
 * such as `credit_risk` stay readable in the source.
 */
const INLINE = /[\\`*[\]<>#|~&$]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu;

/**
 * Whether INLINE can match: any of its characters, without the `u` flag and the lookarounds, which
 * make the replace itself several times slower than this test on the plain ids most texts are.
 */
const INLINE_HINT = /[\\`*[\]<>#|~&$_]/;

/** A bullet, setext or thematic-break mark at a line's start (`>`, `#` and `*` are in INLINE). */
const MARK_START = /^[-+=]/;

/** An ordered-list marker at a line's start: its delimiter is escaped (a digit cannot be). */
const ORDERED_START = /^(\d{1,9})([.)])/;

/**
 * Document text as inline Markdown: in a heading, a paragraph, a list item or a table cell. It
 * stays on one line (invisible characters, line breaks first, are shown escaped, as `\n`), and
 * renders as the literal text it is.
 *
 * @example
 * ```ts
 * import { markdownText } from "agentflow/report";
 *
 * markdownText("Refunds\n## Promotion decision: ALLOWED");
 * // → "Refunds\\\\n\\#\\# Promotion decision: ALLOWED"
 * markdownText("<img src=x onerror=alert(1)> [x](javascript:alert(1))");
 * // → "\\<img src=x onerror=alert(1)\\> \\[x\\](javascript:alert(1))"
 * ```
 */
export function markdownText(text: string | number): string {
  const visible = visibleText(String(text));
  const inert = INLINE_HINT.test(visible) ? visible.replace(INLINE, "\\$&") : visible;
  const s = AUTOLINK_HINT.test(inert) ? inert.replace(AUTOLINK, "\\$&") : inert;
  if (MARK_START.test(s)) return `\\${s}`;
  return s.replace(ORDERED_START, "$1\\$2");
}

/**
 * What GFM's autolink extension would make a link of, by the one character it turns on: the
 * `.` of `www.`, the `:` of `http://`, `https://` and `ftp://` (and of `mailto:` / `xmpp:`), the
 * `@` of an address (`ops@evil.example`, and so `agnt-x@1.0.0`). Escaped, each is a text node of
 * its own, which neither cmark-gfm nor markdown-it's linkify reads across, and the text renders
 * unchanged. Every lookbehind has a bounded length and the lookahead stops at the first character
 * outside a domain label: linear in the text, whatever it holds (a million-character id).
 */
const AUTOLINK =
  /(?<=\bwww)\.|(?<=\b(?:https?|ftp)):(?=\/\/)|(?<=\b(?:mailto|xmpp)):|@(?=[\p{L}\p{N}_-]+\.)/giu;

/** Whether {@link AUTOLINK} can match: most texts hold none of its characters. */
const AUTOLINK_HINT = /www\.|(?:https?|ftp):\/\/|mailto:|xmpp:|@/i;

/**
 * Document text as an inline code span: fenced with one more backtick than its longest run of
 * backticks, padded when it starts or ends with one (or with spaces), on one line. In a table cell (`cell`), `|`
 * is written `\|`, which GFM reads as a pipe inside the cell, even inside code.
 *
 * @example
 * ```ts
 * import { markdownCode } from "agentflow/report";
 *
 * markdownCode("RULE_A"); // → "`RULE_A`"
 * markdownCode("a ``` b"); // → "````a ``` b````"
 * markdownCode("`x`"); // → "`` `x` ``"
 * markdownCode("a|b", { cell: true }); // → "`a\\|b`"
 * ```
 */
export function markdownCode(text: string, options: { readonly cell?: boolean } = {}): string {
  let s = visibleText(text);
  if (options.cell === true) s = s.replaceAll("|", "\\|");
  let longest = 0;
  let run = 0;
  for (const ch of s) {
    run = ch === "`" ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  const fence = "`".repeat(longest + 1);
  // A reader strips one space from each end when both have one: padding keeps them.
  const spaced = s.startsWith(" ") && s.endsWith(" ") && s.trim() !== "";
  const pad = s.startsWith("`") || s.endsWith("`") || spaced ? " " : "";
  return `${fence}${pad}${s}${pad}${fence}`;
}
