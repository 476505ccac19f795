/**
 * The Approval section of the Markdown report (docs/approval.md): the signers with their claims,
 * every approved file with its approved digest and whether its bytes now are those, and the agent
 * tasks whose decision differs from the approved one. It says what the HTML section says.
 */
import {
  approvalIntro,
  decisionSummary,
  filesSummary,
  fileStatusText,
  shortHex,
  signersNote,
  taskChangeText,
  verifiedText,
} from "./approval-text.js";
import { markdownCode, markdownText } from "./markdown-escape.js";
import type { ApprovalView } from "./types.js";

/** A cell: text, or text shown as code. */
type Cell = string | { readonly code: string };

function cell(c: Cell): string {
  return typeof c === "string" ? markdownText(c) : markdownCode(c.code, { cell: true });
}

/**
 * Appends a table of a row per item to `lines`, row by row: spreading the rows as arguments
 * overflows the stack at about 100,000 of them (an approval of that many files).
 */
function table<T>(
  lines: string[],
  head: readonly string[],
  items: readonly T[],
  cells: (item: T) => readonly Cell[],
): void {
  lines.push(`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`);
  for (const item of items) lines.push(`| ${cells(item).map(cell).join(" | ")} |`);
  lines.push("");
}

/** The section's lines, ending with a blank line. */
export function approvalMarkdown(view: ApprovalView): string[] {
  const lines = ["## Approval", "", markdownText(approvalIntro(view)), ""];
  lines.push(markdownText(signersNote(view)), "");
  table(lines, ["key", "role", "ticket", "time", "signature"], view.signers, (s) => [
    { code: shortHex(s.keyid) },
    s.role ?? "no claim",
    s.ticket ?? "—",
    s.time ?? "—",
    verifiedText(s.verified),
  ]);
  const problems = view.verification?.problems ?? [];
  if (problems.length > 0) {
    lines.push("The check found:", "");
    for (const p of problems) lines.push(`- ${markdownText(p)}`);
    lines.push("");
  }
  lines.push("### Approved files", "", markdownText(filesSummary(view.files)), "");
  table(lines, ["file", "kind", "approved sha256", "now"], view.files, (f) => [
    { code: f.name },
    f.kind,
    { code: f.sha256 },
    fileStatusText(f.status),
  ]);
  const decision = view.decision;
  if (decision !== null) {
    lines.push(
      "### Agent tasks since the approval",
      "",
      markdownText(decisionSummary(decision)),
      "",
    );
    if (decision.tasks.length > 0) {
      table(lines, ["agent task", "since the approval"], decision.tasks, (t) => [
        { code: t.elementId },
        taskChangeText(t),
      ]);
    }
  }
  return lines;
}
