/**
 * XML escaping for the HTML report and its SVG diagrams. Every text that comes from a document
 * (ids, names, messages, labels) goes through it: a workflow is untrusted input, and a node named
 * `<script>` must print as text, never run.
 */

import { visibleText } from "../../model/index.js";

/** Any character {@link escapeXml} replaces. */
const SPECIAL = /[&<>"']/;

/**
 * Escapes `&<>"'` so the text is safe in element content and in quoted attribute values, and
 * shows invisible characters (bidi overrides, zero-width spaces, controls) as escapes, so that
 * what the page shows is what the document holds.
 */
export function escapeXml(text: string | number): string {
  const s = visibleText(String(text));
  // A report of 100,000 nodes escapes every cell of its tables, and most need nothing: the
  // regular expression finds that about twice as fast as the loop below.
  if (!SPECIAL.test(s)) return s;
  // One scan, copying only between the characters replaced.
  let out = "";
  let last = 0;
  for (let i = 0; i < s.length; i++) {
    let entity: string;
    switch (s.charCodeAt(i)) {
      case 38:
        entity = "&amp;";
        break;
      case 60:
        entity = "&lt;";
        break;
      case 62:
        entity = "&gt;";
        break;
      case 34:
        entity = "&quot;";
        break;
      case 39:
        entity = "&#39;";
        break;
      default:
        continue;
    }
    out += s.slice(last, i) + entity;
    last = i + 1;
  }
  return last === 0 ? s : out + s.slice(last);
}
