/**
 * The audit report with the organisation's policy: each pack under "What was reviewed" with its
 * version and hash, its rules in the rule table, a waived finding listed with its waiver under a
 * rule that passes, and an expired waiver failing the verdict with its own row.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compilePolicyPack } from "../../../src/policy/index.js";
import type { AuditOptions } from "../../../src/report/audit/index.js";
import {
  auditProcessReport,
  renderAuditHtml,
  renderAuditMarkdown,
} from "../../../src/report/audit/index.js";

const LOAN = "examples/processes/loan-origination.bpmn";

/** The example registry by `id@version` (workflows) and `tool:id@version` (contracts). */
function registry(): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const name of readdirSync("examples/registry")) {
    const doc = JSON.parse(readFileSync(join("examples/registry", name), "utf8")) as {
      kind: string;
      id: string;
      version: string;
    };
    out.set(`${doc.kind === "ToolContract" ? "tool:" : ""}${doc.id}@${doc.version}`, doc);
  }
  return out;
}

const docs = registry();
const bank = compilePolicyPack({
  kind: "PolicyPack",
  name: "bank",
  version: "1.2.0",
  rules: [
    {
      id: "no-commitments-above-2",
      severity: "error",
      for: "agentTask",
      when: 'level >= 3 and some t in tools satisfies t.effect = "external-commitment"',
    },
  ],
});
const waiver = {
  rule: "bank/no-commitments-above-2",
  process: "LoanOrigination",
  element: "DraftAndSendOffer",
  reason: "pilot",
  grantedBy: "CRO",
  expires: "2027-03-31",
};

function options(today: string): AuditOptions {
  return {
    file: LOAN,
    text: readFileSync(LOAN, "utf8"),
    tools: { agentflow: "0.1.0" },
    resolveWorkflow: (ref) => docs.get(ref),
    resolveTool: (ref) => docs.get(ref),
    // The built-in findings off: the pack's rule alone decides here.
    gate: { rules: { AGENT_GATE_UNREACHABLE: "off", TOOL_EFFECT_NEEDS_GATE: "off" } },
    policies: [bank],
    waivers: [waiver],
    today,
  };
}

describe("an audit report judged with a policy pack and a waiver", () => {
  it("lists the pack as reviewed, and its waived finding under a passing rule", async () => {
    const report = await auditProcessReport(options("2027-01-15"));
    expect(report.process?.allowed).toBe(true);
    expect(report.reviewed).toContainEqual({
      kind: "policy pack",
      what: "bank@1.2.0",
      hash: bank.sha256,
      note: "its rules are bank/…",
    });
    expect(report.settings.ruleSet.extensions).toEqual([
      { kind: "policy", name: "bank", version: "1.2.0", sha256: bank.sha256 },
    ]);
    const rule = report.process?.rules.find((r) => r.code === "bank/no-commitments-above-2");
    expect(rule?.passed).toBe(true);
    expect(rule?.diagnostics.map((d) => d.waived)).toEqual([
      { reason: "pilot", grantedBy: "CRO", expires: "2027-03-31" },
    ]);
    const md = renderAuditMarkdown(report);
    expect(md).toContain("| `bank/no-commitments-above-2` | error | ✔ passed, 1 waived |");
    expect(md).toContain("(waived until 2027-03-31 (CRO): pilot)");
    expect(renderAuditHtml(report)).toContain(
      '<span class="tag warn">waived until 2027-03-31 (CRO): pilot</span>',
    );
  });

  it("fails once the waiver has expired, WAIVER_EXPIRED in a row of its own", async () => {
    const report = await auditProcessReport(options("2027-04-01"));
    expect(report.process?.allowed).toBe(false);
    const expired = report.process?.rules.find((r) => r.code === "WAIVER_EXPIRED");
    expect(expired).toMatchObject({ severity: "error", passed: false });
    expect(expired?.description).toBe("A waiver has expired; the findings it waived block again");
    const rule = report.process?.rules.find((r) => r.code === "bank/no-commitments-above-2");
    expect(rule?.passed).toBe(false);
  });
});
