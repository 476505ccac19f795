/**
 * The Approval section of the HTML report (docs/approval.md): the signers with their claims, every
 * approved file with its approved digest and whether its bytes now are those, and the agent tasks
 * whose decision differs from the approved one. It says what the Markdown section says.
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
import { escapeXml as esc } from "./escape.js";
import { code, hash, tableOf, tag } from "./html-parts.js";
import type { ApprovalView, ApprovedFileView } from "./types.js";

function verifiedCell(verified: boolean | null): string {
  const text = verifiedText(verified);
  return verified === null ? tag(text, "warn") : tag(text, verified ? "ok" : "bad");
}

function statusCell(status: ApprovedFileView["status"]): string {
  return tag(fileStatusText(status), status === "unchanged" ? "ok" : "bad");
}

/** The section, `id="approval"`. */
export function approvalSection(view: ApprovalView): string {
  const signers = tableOf(["key", "role", "ticket", "time", "signature"], view.signers, (s) => [
    `<code title="${esc(s.keyid)}">${esc(shortHex(s.keyid))}</code>`,
    s.role === null ? tag("no claim", "warn") : esc(s.role),
    esc(s.ticket ?? "—"),
    esc(s.time ?? "—"),
    verifiedCell(s.verified),
  ]);
  const problems = view.verification?.problems ?? [];
  const files = tableOf(
    ["file", "kind", "approved sha256", "now"],
    view.files,
    (f) => [code(f.name), esc(f.kind), hash(f.sha256), statusCell(f.status)],
    (i) => (view.files[i]?.status === "unchanged" ? "" : "failed"),
  );
  const parts = [
    `<section id="approval">`,
    `<h2>Approval</h2>`,
    `<p>${esc(approvalIntro(view))}</p>`,
    `<p class="note">${esc(signersNote(view))}</p>`,
    signers,
    problems.length === 0
      ? ""
      : `<h4>The check found</h4>\n<ul>${problems.map((p) => `<li>${esc(p)}</li>`).join("")}</ul>`,
    `<h3>Approved files</h3>`,
    `<p>${esc(filesSummary(view.files))}</p>`,
    files,
  ];
  const decision = view.decision;
  if (decision !== null) {
    parts.push(
      `<h3>Agent tasks since the approval</h3>`,
      `<p>${esc(decisionSummary(decision))}</p>`,
    );
    if (decision.tasks.length > 0) {
      parts.push(
        tableOf(
          ["agent task", "since the approval"],
          decision.tasks,
          (t) => [code(t.elementId), esc(taskChangeText(t))],
          () => "failed",
        ),
      );
    }
  }
  parts.push(`</section>`);
  return parts.filter((p) => p !== "").join("\n");
}
