/**
 * The Markdown audit report: every section a reviewer needs, every rule listed (passed ones
 * too), valid Mermaid, well-formed tables, and the same bytes for the same inputs.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseWorkflowText } from "../../../src/model/index.js";
import type { AuditReport } from "../../../src/report/audit/index.js";
import {
  auditProcessReport,
  auditWorkflowReport,
  renderAuditMarkdown,
} from "../../../src/report/audit/index.js";
import { RULES } from "../../../src/validate/index.js";
import { BPMN_RULES } from "../../../src/bpmn/index.js";
import type { Fixtures } from "../../../src/simulate/index.js";
import { mermaidErrors } from "./mermaid-grammar.js";

const read = (path: string): string => readFileSync(path, "utf8");
const docs = new Map<string, unknown>();
for (const name of [
  "credit-risk.agent.json",
  "offer-sender.agent.json",
  "credit-bureau-report.tool.json",
  "send-loan-offer.tool.json",
]) {
  const doc = parseWorkflowText(read(`examples/registry/${name}`)).value as {
    id: string;
    version: string;
  };
  docs.set(`${doc.id}@${doc.version}`, doc);
}
const lookup = (ref: string): unknown => docs.get(ref);
const TOOLS = { agentflow: "0.1.0", "bpmn-moddle": "10.3.1" };
const LOAN = "examples/processes/loan-origination.bpmn";

function loan(): Promise<AuditReport> {
  return auditProcessReport({
    file: LOAN,
    text: read(LOAN),
    tools: TOOLS,
    resolveWorkflow: lookup,
    resolveTool: lookup,
  });
}

function mermaidBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```mermaid\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
}

describe("renderAuditMarkdown", () => {
  it("gives the same bytes for the same inputs", async () => {
    expect(renderAuditMarkdown(await loan())).toBe(renderAuditMarkdown(await loan()));
  });

  it("states what was reviewed, the decision, every rule and the checklist", async () => {
    const report = await loan();
    const md = renderAuditMarkdown(report);
    expect(md).toContain("# Process review: Consumer loan origination\n");
    expect(md).toContain(`| process | ${LOAN} | ${report.subject.fileHash} |`);
    expect(md).toContain("Checked with agentflow 0.1.0, bpmn-moddle 10.3.1.");
    expect(md).toContain("## Promotion decision: BLOCKED");
    expect(md).toMatch(
      /\| DraftAndSendOffer \| agnt-offer-sender\\@1\.0\.0 \| 3 \| 3 \| required \| missing \|/,
    );
    for (const rule of [...RULES, ...BPMN_RULES]) expect(md).toContain(`| \`${rule.meta.code}\` |`);
    expect(md).toContain("| `AGENT_GATE_UNREACHABLE` | error | ✖ 1 finding(s) |");
    expect(md).toContain("| `AGENT_GATE_BYPASS` | error | ✔ passed |");
    expect(md).toContain("## Workflow agnt-credit-risk\\@1.0.0");
    expect(md).toContain(
      "Declared level 2; the graph justifies level 2. A gate downstream is **required**.",
    );
    expect(md).toContain("- level 2: loop at pull-report, assess-risk, report-complete");
    expect(md).toContain("| report-complete | onFalse | pull-report | taken |");
    expect(md).toContain("- [ ] **EU AI Act Art. 14 (human oversight)**");
    expect(md).toContain("not a statement that the system complies");
  });

  it("writes Mermaid blocks that the flowchart grammar accepts", async () => {
    const blocks = mermaidBlocks(renderAuditMarkdown(await loan()));
    // The process first (a left-to-right chart, which Mermaid itself parses in the browser test:
    // test/e2e/process-diagram.e2e.test.ts), then each workflow.
    expect(blocks).toHaveLength(3);
    expect(blocks[0]?.startsWith("flowchart LR\n")).toBe(true);
    for (const block of blocks.slice(1)) expect(mermaidErrors(block)).toEqual([]);
  });

  it("writes tables whose rows all have the header's column count", async () => {
    const lines = renderAuditMarkdown(await loan()).split("\n");
    const columns = (line: string): number => line.replaceAll("\\|", "").split("|").length;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] ?? "";
      if (!line.startsWith("|---")) continue;
      const width = columns(lines[i - 1] ?? "");
      for (let j = i + 1; (lines[j] ?? "").startsWith("|"); j++) {
        expect(columns(lines[j] ?? "")).toBe(width);
      }
    }
  });

  it("reports a workflow with its fixture run, step by step", async () => {
    const file = "examples/workflows/market-research.agent.json";
    const workflow = parseWorkflowText(read(file)).workflow;
    if (workflow === undefined) throw new Error("the example must parse");
    const fixtures = JSON.parse(
      read("examples/fixtures/market-research.fixtures.json"),
    ) as Fixtures;
    const report = await auditWorkflowReport(workflow, {
      file,
      text: read(file),
      tools: TOOLS,
      fixtures,
    });
    const md = renderAuditMarkdown(report);
    expect(md).toContain("### Simulation on the given fixtures: complete in 4 steps (6 moves)");
    expect(md).toContain(
      "| 3 | decision | enough-evidence | enough-evidence takes onFalse to plan-queries",
    );
    expect(report.checklist.map((c) => [c.reference, c.status])).toEqual([
      ["EU AI Act Art. 12 (record-keeping)", "partial"],
      ["EU AI Act Art. 14 (human oversight)", "partial"],
      ["NIST AI RMF GOVERN 3.2", "evidence"],
      ["NIST AI RMF MAP 3.5", "partial"],
      ["NIST AI RMF MANAGE 2.4", "evidence"],
    ]);
  });

  it("checklist: the blocked loan process has no evidence of oversight for the offer agent", async () => {
    const report = await loan();
    const oversight = report.checklist.find((c) => c.reference.startsWith("EU AI Act Art. 14"));
    expect(oversight?.status).toBe("no-evidence");
    expect(oversight?.evidence).toContain(
      "Agent task DraftAndSendOffer (agnt-offer-sender@1.0.0, at level 3) needs a gate: required; gate downstream: missing.",
    );
  });
});
