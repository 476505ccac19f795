/**
 * The Approval section of the audit report (issue 41, item 7), rendered from plain data: the same
 * words in Markdown and HTML, in the place a reviewer reads first (after what was reviewed), the
 * envelope's claims called claims until trusted keys verify them, every file with its approved
 * digest and status, and what came from the approval escaped like everything else.
 */
import { describe, expect, it } from "vitest";
import { getTemplate } from "../../../src/model/index.js";
import type { ApprovalView, AuditReport } from "../../../src/report/audit/index.js";
import { approvalTag } from "../../../src/report/audit/approval-text.js";
import {
  auditWorkflowReport,
  renderAuditHtml,
  renderAuditMarkdown,
} from "../../../src/report/audit/index.js";

const wf = getTemplate("research");
if (wf === undefined) throw new Error("no research template");
const base: AuditReport = await auditWorkflowReport(wf, {
  file: "agents/research.agent.json",
  text: JSON.stringify(wf),
  tools: { agentflow: "0.1.0" },
});

const KEY = "3f2a9c1b7d8e4f5061728394a5b6c7d8e9f00112233445566778899aabbccdd";
const DIGEST = "4bfaa9f8a7cb0d1e2f3a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90";

const VIEW: ApprovalView = {
  file: "approvals/loan.json",
  fileHash: "sha256:00ff",
  version: "0.1.0",
  ruleSetDigest: "sha256:ab12",
  signers: [
    {
      keyid: KEY,
      role: "credit-risk-officer",
      ticket: "CHG-1042",
      time: "2026-01-15T10:00:00Z",
      verified: null,
    },
    { keyid: "ab", role: null, ticket: null, time: null, verified: null },
  ],
  verification: null,
  files: [
    { name: "agents/a|b<i>.json", kind: "workflow", sha256: DIGEST, status: "changed" },
    { name: "processes/loan.bpmn", kind: "process", sha256: DIGEST, status: "unchanged" },
    { name: "registry/pay.tool.json", kind: "tool", sha256: DIGEST, status: "missing" },
  ],
  decision: {
    entry: "processes/loan.bpmn",
    tasks: [
      { elementId: "Gone", change: "removed", fields: [] },
      { elementId: "New", change: "added", fields: [] },
      { elementId: "Offer", change: "changed", fields: ["contentHash", "gate"] },
    ],
  },
};

describe("the Approval section", () => {
  it("is absent without an approval", () => {
    expect(renderAuditMarkdown(base)).not.toContain("## Approval");
    expect(renderAuditHtml(base)).not.toContain('id="approval"');
  });

  it("in Markdown: after what was reviewed, claims as claims, each file and task", () => {
    const md = renderAuditMarkdown({ ...base, approval: VIEW });
    expect(md.indexOf("## What was reviewed")).toBeLessThan(md.indexOf("## Approval"));
    expect(md.indexOf("## Approval")).toBeLessThan(md.indexOf("## Workflow"));
    expect(md).toContain(
      "approvals/loan.json (sha256:00ff) approves 3 file(s), made with agentflow 0.1.0 and rule set sha256:ab12.",
    );
    expect(md).toContain("what the envelope claims: no signature was verified");
    expect(md).toContain(
      "| `3f2a9c1b7d8e…` | credit-risk-officer | CHG-1042 | 2026-01-15T10:00:00Z | not checked |",
    );
    expect(md).toContain("| `ab` | no claim | — | — | not checked |");
    expect(md).toContain("1 of 3 approved file(s) changed since the approval, 1 missing");
    // A pipe in a name cannot end its cell.
    expect(md).toContain(
      `| \`agents/a\\|b<i>.json\` | workflow | \`${DIGEST}\` | ✖ changed since the approval |`,
    );
    expect(md).toContain(`| \`registry/pay.tool.json\` | tool | \`${DIGEST}\` | ✖ missing |`);
    expect(md).toContain(
      "3 agent task(s) differ from the approved decision (its entry processes/loan.bpmn):",
    );
    expect(md).toContain("| `Gone` | approved, no longer in the process |");
    expect(md).toContain("| `New` | not in the approval |");
    expect(md).toContain("| `Offer` | changed since the approval: contentHash, gate |");
  });

  it("in HTML: the same words, a summary tag, a contents link, names escaped", () => {
    const html = renderAuditHtml({ ...base, approval: VIEW });
    expect(html).toContain('<li><a href="#approval">Approval</a></li>');
    expect(html).toContain(
      '<span class="tag bad">✖ approval: 2 file(s), 3 agent task(s) changed, signatures not checked</span>',
    );
    expect(html).toContain(`<code title="${KEY}">3f2a9c1b7d8e…</code>`);
    expect(html).toContain("<code>agents/a|b&lt;i&gt;.json</code>");
    expect(html).not.toContain("<i>.json");
    expect(html).toContain('<span class="tag bad">✖ missing</span>');
    expect(html).toContain(
      "<td><code>Offer</code></td><td>changed since the approval: contentHash, gate</td>",
    );
    expect(html.indexOf('id="reviewed"')).toBeLessThan(html.indexOf('id="approval"'));
  });

  it("says what verified, and what the check found, when trusted keys were given", () => {
    const checked: ApprovalView = {
      ...VIEW,
      signers: VIEW.signers.map((s, i) => ({ ...s, verified: i === 0 })),
      verification: { trustedKeys: 2, problems: ["signature 2 (key ab…): not from a trusted key"] },
      files: VIEW.files.map((f) => ({ ...f, status: "unchanged" as const })),
      decision: null,
    };
    const md = renderAuditMarkdown({ ...base, approval: checked });
    expect(md).toContain(
      "Checked against 2 trusted key(s): 1 of 2 signature(s) verified; the claims of the others are the envelope's word only.",
    );
    expect(md).toContain("| ✔ verified |");
    expect(md).toContain("| `ab` | no claim | — | — | ✖ not verified |");
    expect(md).toContain("- signature 2 (key ab…): not from a trusted key");
    expect(md).toContain("Every approved file is unchanged");
    // A workflow report has no process decision to compare.
    expect(md).not.toContain("### Agent tasks since the approval");
    const html = renderAuditHtml({ ...base, approval: checked });
    expect(html).toContain(
      '<span class="tag warn">⚠ approval: nothing changed, 1 of 2 signature(s) verified</span>',
    );
    expect(html).toContain("<li>signature 2 (key ab…): not from a trusted key</li>");
  });

  it("gives the same bytes for the same report", () => {
    const report = { ...base, approval: VIEW };
    expect(renderAuditMarkdown(report)).toBe(renderAuditMarkdown(structuredClone(report)));
    expect(renderAuditHtml(report)).toBe(renderAuditHtml(structuredClone(report)));
  });

  // The header tag is what a reader takes in at a glance: green only when nothing drifted and
  // every signature verified with a trusted key.
  const unchanged = VIEW.files.map((f) => ({ ...f, status: "unchanged" as const }));
  const same = { entry: "processes/loan.bpmn", tasks: [] };
  const signed = (verified: readonly (boolean | null)[]) =>
    VIEW.signers.map((s, i) => ({ ...s, verified: verified[i] ?? null }));
  it.each([
    {
      name: "nothing drifted, every signature verified",
      view: { signers: signed([true, true]), verification: { trustedKeys: 2, problems: [] } },
      tag: { text: "✔ approval: nothing changed, signatures verified", kind: "ok" },
    },
    {
      name: "nothing drifted, no trusted keys given",
      view: { signers: signed([null, null]), verification: null },
      tag: { text: "⚠ approval: nothing changed, signatures not checked", kind: "warn" },
    },
    {
      name: "nothing drifted, a signature changed after signing",
      view: {
        signers: signed([false, false]),
        verification: { trustedKeys: 1, problems: ["signature 1: does not verify"] },
      },
      tag: { text: "✖ approval: nothing changed, no signature verified", kind: "bad" },
    },
    {
      name: "nothing drifted, one of two signatures from a key not trusted",
      view: {
        signers: signed([true, false]),
        verification: { trustedKeys: 1, problems: ["signature 2: not from a trusted key"] },
      },
      tag: { text: "⚠ approval: nothing changed, 1 of 2 signature(s) verified", kind: "warn" },
    },
    {
      name: "a file drifted, every signature verified",
      view: {
        signers: signed([true, true]),
        verification: { trustedKeys: 2, problems: [] },
        files: VIEW.files,
      },
      tag: {
        text: "✖ approval: 2 file(s), 0 agent task(s) changed, signatures verified",
        kind: "bad",
      },
    },
  ])("tags the header: $name", ({ view, tag }) => {
    expect(approvalTag({ ...VIEW, files: unchanged, decision: same, ...view })).toEqual(tag);
  });
});
