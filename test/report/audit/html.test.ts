import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadFolderRegistry } from "../../../src/cli/registry.js";
import type { Diagnostic } from "../../../src/model/index.js";
import type { AuditReport, WorkflowAudit } from "../../../src/report/audit/index.js";
import { auditProcessReport, renderAuditHtml } from "../../../src/report/audit/index.js";
import { describeRuleSet } from "../../../src/bpmn/index.js";

const DEFAULT_RULE_SET = describeRuleSet({
  preset: "recommended",
  workflowRules: {},
  bpmnRules: {},
  camundaAgents: "gate-required",
});

const EVIL = `<b>&"x'`;
const EVIL_ESCAPED = "&lt;b&gt;&amp;&quot;x&#39;";

function diag(code: string, target: Diagnostic["target"], message: string): Diagnostic {
  return { code, severity: "error", message, target, path: "/nodes/1", data: {} };
}

const NODE_FINDING = diag("LLM_NOT_STRUCTURED", { kind: "node", nodeId: EVIL }, `node ${EVIL}`);
const TASK_FINDING = diag(
  "AGENT_GATE_UNREACHABLE",
  { kind: "bpmn-element", elementId: "SendOffer" },
  "no gate downstream",
);

const WORKFLOW: WorkflowAudit = {
  id: "agnt-demo",
  version: "1.0.0",
  name: `Demo ${EVIL}`,
  contentHash: "sha256:abc",
  source: "agnt-demo@1.0.0 (registry)",
  declaredLevel: 2,
  justifiedLevel: 2,
  reasons: [{ level: 2, feature: "loop", nodeIds: ["fetch", EVIL], edgeIndexes: [] }],
  gateRequirement: "required",
  rules: [
    {
      code: "DUPLICATE_NODE_ID",
      description: "Two nodes share an id",
      severity: "error",
      passed: true,
      diagnostics: [],
    },
    {
      code: "LLM_NOT_STRUCTURED",
      description: "An llm without structuredOutput feeds a decision",
      severity: "error",
      passed: false,
      diagnostics: [NODE_FINDING],
    },
  ],
  nodes: [
    { id: "fetch", type: "tool", label: "fetch", findings: [] },
    { id: EVIL, type: "llm", label: EVIL, findings: ["LLM_NOT_STRUCTURED"] },
    { id: "ok", type: "decision", label: "ok", findings: [] },
    { id: "#delegate-3", type: "delegate", label: "agnt-helper@1.0.0", findings: [] },
    { id: "#end", type: "end", label: "end", findings: [] },
  ],
  edges: [
    { from: "fetch", to: EVIL, label: "data", back: false },
    { from: EVIL, to: "ok", label: "data", back: false },
    { from: "ok", to: "#end", label: "onTrue", back: false },
    { from: "ok", to: "fetch", label: "onFalse · max 2", back: true },
    { from: EVIL, to: "#delegate-3", label: "delegate", back: false },
  ],
  drawing: { drawn: true, nodes: 5, edges: 5, dangling: 0, limit: 250 },
  mermaid: "flowchart TD\n",
  simulations: [
    {
      kind: "explore",
      status: "complete",
      steps: 1,
      moves: 1,
      trail: [{ step: 1, type: "move", nodeId: "fetch", message: "fetch ran (visit 1)" }],
    },
  ],
  exploration: {
    outputs: "placeholders",
    runs: 2,
    maxRuns: 200,
    coverage: [{ nodeId: "ok", route: "onTrue", next: "end", status: "taken", runs: 1 }],
    ends: [{ nodeId: "ok", runs: 1 }],
    blocks: [{ nodeId: "ok", reason: "retry exhausted", runs: 1 }],
    truncated: false,
    unstopped: 0,
    bounded: true,
  },
};

const REPORT: AuditReport = {
  title: "Process review: Demo",
  subject: { kind: "process", file: "demo.bpmn", fileHash: "sha256:def" },
  tools: { agentflow: "0.1.0", "bpmn-moddle": "10.3.1" },
  reviewed: [],
  settings: { config: null, ruleSet: DEFAULT_RULE_SET },
  process: {
    id: "Demo",
    readable: true,
    allowed: false,
    diagrams: [],
    derivedAgents: [],
    agentTasks: [
      {
        elementId: "Assess",
        source: "btv",
        ref: "agnt-demo@1.0.0",
        level: 2,
        justifiedLevel: 2,
        resolution: "registry",
        contentHash: "sha256:abc",
        requirement: "required",
        gate: "reached",
        dependencies: [],
      },
      {
        elementId: "SendOffer",
        source: "btv",
        ref: "agnt-demo@1.0.0",
        level: 2,
        justifiedLevel: 2,
        resolution: "registry",
        contentHash: "sha256:abc",
        requirement: "required",
        gate: "missing",
        dependencies: [],
      },
    ],
    rules: [
      {
        code: "AGENT_GATE_UNREACHABLE",
        description: "An agent task needs a gate downstream",
        severity: "error",
        passed: false,
        diagnostics: [TASK_FINDING],
      },
    ],
  },
  workflows: [WORKFLOW],
  checklist: [
    {
      reference: "EU AI Act Art. 14 (human oversight)",
      question: "Can a person intervene?",
      status: "no-evidence",
      evidence: ["SendOffer has no gate."],
    },
  ],
};

/** The workflow diagrams (not the legends), in page order. */
function diagrams(html: string): string[] {
  return [...html.matchAll(/<svg class="diagram" [\s\S]*?<\/svg>/g)].map((m) => m[0]);
}

function row(html: string, text: string): string {
  return (
    // The first row naming it outside "What was reviewed", whose notes name agent tasks too.
    [...html.slice(html.indexOf("</section>")).matchAll(/<tr[^>]*>[\s\S]*?<\/tr>/g)]
      .map((m) => m[0])
      .find((r) => r.includes(text)) ?? ""
  );
}

describe("renderAuditHtml", () => {
  it("gives the same bytes for the same report", () => {
    const html = renderAuditHtml(REPORT);
    expect(renderAuditHtml(structuredClone(REPORT))).toBe(html);
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
  });

  it("is self-contained: no script, no link, no external URL, only in-page hrefs", () => {
    const html = renderAuditHtml(REPORT);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<link/i);
    expect(html).not.toMatch(/<img|<iframe|<object|<embed|@import|@font-face/i);
    expect(html).not.toMatch(/\bsrc\s*=/i);
    // url() only for the in-document arrow markers, never to a resource.
    expect(html).not.toMatch(/url\(\s*(?!#)/);
    expect(html).not.toMatch(/https?:\/\//);
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1] ?? "");
    expect(hrefs.length).toBeGreaterThan(0);
    expect(hrefs.every((h) => h.startsWith("#"))).toBe(true);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    expect(html).toContain("@media print");
  });

  it("draws every node of every workflow in its SVG, with a document-unique arrow marker", () => {
    const html = renderAuditHtml({
      ...REPORT,
      workflows: [WORKFLOW, { ...WORKFLOW, id: "agnt-two" }],
    });
    const svgs = diagrams(html);
    expect(svgs).toHaveLength(2);
    for (const svg of svgs) {
      for (const n of WORKFLOW.nodes) {
        expect(svg).toContain(`data-node-id="${n.id === EVIL ? EVIL_ESCAPED : n.id}"`);
      }
      expect(svg).toMatch(/<rect class="shape"[^>]*rx="12"/); // llm
      expect(svg).toMatch(/<polygon class="shape"/); // tool and decision
      expect(svg).toMatch(/<rect class="shape inner"/); // delegate: double border
      expect(svg).toMatch(/<circle class="shape"/); // end
      expect(svg).toContain('class="edge back"');
      expect(svg).toContain(">onFalse · max 2</text>");
    }
    const markers = [...html.matchAll(/<marker id="([^"]+)"/g)].map((m) => m[1]);
    expect(markers).toEqual(["wf-1-arrow", "wf-2-arrow"]);
    const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("marks nodes with findings and links them to their numbered findings", () => {
    const html = renderAuditHtml(REPORT);
    // Process findings are numbered first, so the node's finding is #2.
    expect(html).toContain('<li class="finding error" id="finding-1">');
    expect(html).toContain('<li class="finding error" id="finding-2">');
    const svg = diagrams(html)[0] ?? "";
    expect(svg).toMatch(
      new RegExp(
        `<a href="#finding-2"><g class="node llm has-findings" data-node-id="${EVIL_ESCAPED}">`,
      ),
    );
    expect(svg).toContain(">✖ 1</text>");
    expect(svg.match(/has-findings/g)).toHaveLength(1);
    expect(row(html, "LLM_NOT_STRUCTURED")).toContain('href="#finding-2"');
    expect(row(html, "DUPLICATE_NODE_ID")).toContain("✔ passed");
  });

  it("makes the blocked agent task stand out, with its gate verdict in text", () => {
    const html = renderAuditHtml(REPORT);
    expect(html).toContain("<h2>Promotion decision: BLOCKED</h2>");
    expect(html).toContain('<div class="verdict blocked"><strong>✖ BLOCKED</strong>');
    const blocked = row(html, "SendOffer");
    expect(blocked).toMatch(/^<tr class="blocked">/);
    expect(blocked).toContain("✖ BLOCKED");
    expect(blocked).toContain("✖ missing");
    expect(blocked).toContain('href="#finding-1"');
    const fine = row(html, ">Assess");
    expect(fine).toMatch(/^<tr>/);
    expect(fine).toContain("✔ reached");
    expect(fine).not.toContain("BLOCKED");
  });

  it("escapes every text taken from the report", () => {
    const html = renderAuditHtml(REPORT);
    expect(html).not.toContain(EVIL);
    expect(html).toContain(`<text class="title" x=`);
    expect(html).toContain(`>${EVIL_ESCAPED}</text>`);
    expect(html).toContain(`Demo ${EVIL_ESCAPED}`);
    expect(html).toContain(`node ${EVIL_ESCAPED}`);
    expect(html).toContain(`fetch, ${EVIL_ESCAPED}`);
  });

  it("has every section of the Markdown report", () => {
    const html = renderAuditHtml(REPORT);
    for (const text of [
      "<h2>What was reviewed</h2>",
      "sha256:def",
      "Checked with agentflow 0.1.0, bpmn-moddle 10.3.1.",
      '<h3 id="process-rules">Process rules</h3>',
      "<h2>Workflow agnt-demo@1.0.0</h2>",
      "Declared level 2; the graph justifies level 2. A gate downstream is <strong>required</strong>.",
      "<h3>Diagram</h3>",
      "<h3>Rules</h3>",
      "<h3>Simulation of the first explored run: complete in 1 steps (1 moves)</h3>",
      "<h3>Route coverage (2 explored run(s); llm outputs are schema placeholders; loops were revisited at most 3 times)</h3>",
      "stops at <code>ok</code> in 1 run(s): retry exhausted",
      "<h2>Oversight checklist</h2>",
      "It is evidence for a reviewer, not a statement that the system complies.",
      "✖ evidence missing",
    ]) {
      expect(html).toContain(text);
    }
  });

  it("leaves out the promotion decision for a workflow on its own", () => {
    const html = renderAuditHtml({
      ...REPORT,
      subject: { kind: "workflow", file: "demo.json", fileHash: "sha256:abc" },
      process: undefined,
      workflows: [
        { ...WORKFLOW, rules: [], nodes: WORKFLOW.nodes.map((n) => ({ ...n, findings: [] })) },
      ],
    });
    expect(html).not.toContain("Promotion decision");
    expect(html).toContain("✔ no findings");
    expect(diagrams(html)[0]).not.toContain("has-findings");
  });

  it("renders the loan-origination example the same way twice, its offer task blocked", async () => {
    const registry = await loadFolderRegistry("examples/registry");
    const file = "examples/processes/loan-origination.bpmn";
    const build = () =>
      auditProcessReport({
        file,
        text: readFileSync(file, "utf8"),
        tools: { agentflow: "test" },
        resolveWorkflow: (ref) => registry.resolvers.resolveDelegate?.(ref),
        resolveTool: (ref) => registry.resolvers.resolveTool?.(ref),
      });
    const html = renderAuditHtml(await build());
    expect(renderAuditHtml(await build())).toBe(html);
    expect(row(html, "DraftAndSendOffer")).toMatch(/^<tr class="blocked">[\s\S]*✖ BLOCKED/);
    expect(row(html, "AssessCreditRisk")).not.toContain("BLOCKED");
    expect(diagrams(html)).toHaveLength(2);
    // The process finding on the offer's tool call marks that node in the workflow's diagram.
    expect(diagrams(html)[1]).toContain(
      '<a href="#finding-2"><g class="node tool has-findings" data-node-id="send-offer">',
    );
  });
});
