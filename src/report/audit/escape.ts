/**
 * XML escaping for the HTML report and its SVG diagrams. Every text that comes from a document
 * (ids, names, messages, labels) goes through it: a workflow is untrusted input, and a node named
 * `<script>` must print as text, never run.
 */

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes `&<>"'` so the text is safe in element content and in quoted attribute values. */
export function escapeXml(text: string | number): string {
  return String(text).replaceAll(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}
