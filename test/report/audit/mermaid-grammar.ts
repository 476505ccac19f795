/**
 * A grammar for the Mermaid flowchart subset agentflow writes, so tests can say "this block is
 * valid Mermaid" without a browser: a header, node statements in four shapes with quoted labels,
 * and edges with a quoted label between pipes. Labels must not contain what would end them.
 */

const ID = String.raw`[A-Za-z][A-Za-z0-9_]*`;
/** A quoted label: no raw `"`, and `<br/>` is the only tag. */
const LABEL = String.raw`"(?:[^"<>]|<br/>)*"`;
const STATEMENTS: readonly RegExp[] = [
  new RegExp(String.raw`^  ${ID}\[${LABEL}\]$`),
  new RegExp(String.raw`^  ${ID}\[/${LABEL}/\]$`),
  new RegExp(String.raw`^  ${ID}\{${LABEL}\}$`),
  new RegExp(String.raw`^  ${ID}\[\[${LABEL}\]\]$`),
  new RegExp(String.raw`^  ${ID}\(\(end\)\)$`),
  new RegExp(String.raw`^  ${ID} (?:-->|-\.->)\|"[^|"<>]+"\| ${ID}$`),
];

/** The lines of `text` that are not valid statements of the subset (empty when all are). */
export function mermaidErrors(text: string): string[] {
  const lines = text.trimEnd().split("\n");
  const errors: string[] = [];
  if (lines[0] !== "flowchart TD") errors.push(`header: ${lines[0] ?? ""}`);
  for (const line of lines.slice(1)) {
    if (!STATEMENTS.some((s) => s.test(line))) errors.push(line);
  }
  return errors;
}
