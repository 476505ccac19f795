/**
 * Reports on big and hostile workflows (docs/report.md): a graph over the drawing limit is listed
 * in tables instead of drawn, 200,000 findings are all listed, long labels are cut in the picture
 * only, and a lowered exploration bound is stated.
 */
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../../src/model/index.js";
import type { AuditReport, WorkflowAudit } from "../../../src/report/audit/index.js";
import {
  drawingVerdict,
  renderAuditHtml,
  renderAuditMarkdown,
} from "../../../src/report/audit/index.js";
import { describeRuleSet } from "../../../src/bpmn/index.js";

const DEFAULT_RULE_SET = describeRuleSet({
  preset: "recommended",
  workflowRules: {},
  bpmnRules: {},
  camundaAgents: "gate-required",
});

function audit(over: Partial<WorkflowAudit>): WorkflowAudit {
  return {
    id: "agnt-big",
    version: "1.0.0",
    name: "Big",
    contentHash: "sha256:abc",
    source: "big.json",
    declaredLevel: 2,
    justifiedLevel: 2,
    reasons: [],
    gateRequirement: "optional",
    rules: [],
    nodes: [],
    edges: [],
    drawing: drawingVerdict(0, 0, 0),
    mermaid: "flowchart TD\n",
    simulations: [],
    exploration: undefined,
    ...over,
  };
}

function report(w: WorkflowAudit): AuditReport {
  return {
    title: "Agent workflow review: Big",
    subject: { kind: "workflow", file: "big.json", fileHash: "sha256:def" },
    tools: { agentflow: "test" },
    reviewed: [],
    settings: { config: null, ruleSet: DEFAULT_RULE_SET },
    process: undefined,
    workflows: [w],
    checklist: [],
  };
}

/** A chain of `n` llm nodes as the report's graph, too big to draw. */
function undrawnChain(n: number): WorkflowAudit {
  const nodes = Array.from({ length: n }, (_, i) => ({
    id: `n${String(i)}`,
    type: "llm" as const,
    label: i === 7 ? "Step <seven>" : `n${String(i)}`,
    findings: i === 7 ? ["X"] : [],
  }));
  const edges = nodes.slice(1).map((node, i) => ({
    from: `n${String(i)}`,
    to: node.id,
    label: "data",
    back: false,
  }));
  edges.push(
    ...Array.from({ length: 3 }, () => ({ from: "n0", to: "n1", label: "data", back: false })),
  );
  return audit({ nodes, edges, drawing: drawingVerdict(n, edges.length, 0), mermaid: "" });
}

const NOTE =
  "Graph not drawn: 100,000 nodes and 100,002 edges exceed the drawing limit of 250 nodes and 250 edges. The tables below list every node and every edge.";

describe("a graph over the drawing limit", () => {
  const big = report(undrawnChain(100_000));

  it("Markdown: the note, no Mermaid block, and a row per node and per distinct edge", () => {
    const md = renderAuditMarkdown(big);
    expect(md).toContain(`### Diagram\n\n${NOTE}\n\nNodes:\n\n| node | type | name | findings |`);
    expect(md).not.toContain("```mermaid");
    const lines = md.split("\n");
    expect(lines.filter((l) => /^\| n\d+ \| llm \|/.test(l))).toHaveLength(100_000);
    expect(lines).toContain("| n7 | llm | Step \\<seven\\> | X |");
    // n0 → n1 appears 4 times: one row, counted
    expect(lines).toContain("| n0 | n1 | data | 4 |");
    expect(lines.filter((l) => /^\| n\d+ \| n\d+ \| data \|/.test(l))).toHaveLength(99_999);
  });

  it("HTML: the note, no diagram, and the same tables, escaped", () => {
    const html = renderAuditHtml(big);
    expect(html).toContain(`<h3>Diagram</h3>\n<p class="note">${NOTE}</p>\n<h4>Nodes</h4>`);
    expect(html).not.toContain('<svg class="diagram" viewBox');
    expect(html.match(/<tr><td><code>n\d+<\/code><\/td><td>llm<\/td>/g)).toHaveLength(100_000);
    expect(html).toContain("<td>Step &lt;seven&gt;</td><td>X</td>");
    expect(html).toContain(
      '<tr><td><code>n0</code></td><td><code>n1</code></td><td>data</td><td><span class="num">4</span></td></tr>',
    );
  });
});

function findings(count: number): AuditReport {
  const diagnostics: Diagnostic[] = Array.from({ length: count }, (_, i) => ({
    code: "EDGE_ENDPOINT_MISSING",
    severity: "error",
    message: `its from "ghost-${String(i)}" is not a node id`,
    target: { kind: "edge", index: i, from: `ghost-${String(i)}`, to: "x" },
    path: `/edges/${String(i)}/from`,
    data: {},
  }));
  return report(
    audit({
      rules: [
        {
          code: "EDGE_ENDPOINT_MISSING",
          description: "An edge's from or to is not a node id",
          severity: "error",
          passed: false,
          diagnostics,
        },
      ],
    }),
  );
}

const MORE =
  "… and 199,000 more EDGE_ENDPOINT_MISSING finding(s), not listed: the report lists at most 1,000 per rule (agentflow check --format json lists them all).";

describe("200,000 findings of one rule", () => {
  const many = findings(200_000);

  it("Markdown counts them all, lists the first 1,000, and says so", () => {
    const md = renderAuditMarkdown(many);
    expect(md).toContain("| `EDGE_ENDPOINT_MISSING` | error | ✖ 200000 finding(s) |");
    const listed = md.split("\n").filter((l) => l.startsWith("- `EDGE_ENDPOINT_MISSING`"));
    expect(listed).toHaveLength(1_000);
    expect(listed[999]).toBe(
      '- `EDGE_ENDPOINT_MISSING` (error) at /edges/999/from: its from "ghost-999" is not a node id',
    );
    expect(md).toContain(`${listed[999] ?? ""}\n- ${MORE}\n`);
  });

  it("HTML counts them all, lists and numbers the first 1,000, and says so", () => {
    const html = renderAuditHtml(many);
    expect(html).toContain("✖ 200000 finding(s)");
    expect(html.match(/<li class="finding error" id="finding-\d+">/g)).toHaveLength(1_000);
    expect(html).toContain('id="finding-1000"');
    expect(html).not.toContain('id="finding-1001"');
    expect(html).toContain(`<li class="note">${MORE}</li>\n</ol>`);
  });
});

describe("many findings on one node", () => {
  it("badges the node with their count and links it to the first listed one", () => {
    const diagnostics: Diagnostic[] = Array.from({ length: 50_000 }, (_, i) => ({
      code: "LLM_NOT_STRUCTURED",
      severity: "error",
      message: `finding ${String(i)}`,
      target: { kind: "node", nodeId: "a" },
      path: "/nodes/0",
      data: {},
    }));
    const w = audit({
      rules: [
        {
          code: "LLM_NOT_STRUCTURED",
          description: "d",
          severity: "error",
          passed: false,
          diagnostics,
        },
      ],
      nodes: [{ id: "a", type: "llm", label: "a", findings: ["LLM_NOT_STRUCTURED"] }],
      drawing: drawingVerdict(1, 0, 0),
    });
    const html = renderAuditHtml(report(w));
    expect(html).toContain(
      '<a href="#finding-1"><g class="node llm has-findings" data-node-id="a"><title>a, llm — ✖ 50000 finding(s): LLM_NOT_STRUCTURED</title>',
    );
    expect(html).toContain(">✖ 50000</text>");
  });

  it("marks a node whose findings are all unlisted, without a link", () => {
    const on = (nodeId: string, i: number): Diagnostic => ({
      code: "LLM_NOT_STRUCTURED",
      severity: "error",
      message: `finding ${String(i)}`,
      target: { kind: "node", nodeId },
      path: "/nodes/0",
      data: {},
    });
    const diagnostics = [...Array.from({ length: 1_000 }, (_, i) => on("a", i)), on("b", 1_000)];
    const w = audit({
      rules: [
        {
          code: "LLM_NOT_STRUCTURED",
          description: "d",
          severity: "error",
          passed: false,
          diagnostics,
        },
      ],
      nodes: [
        { id: "a", type: "llm", label: "a", findings: ["LLM_NOT_STRUCTURED"] },
        { id: "b", type: "llm", label: "b", findings: ["LLM_NOT_STRUCTURED"] },
      ],
      drawing: drawingVerdict(2, 0, 0),
    });
    const html = renderAuditHtml(report(w));
    expect(html).toContain(
      '<a href="#finding-1"><g class="node llm has-findings" data-node-id="a">',
    );
    expect(html).toContain(
      '</a><g class="node llm has-findings" data-node-id="b"><title>b, llm — ✖ 1 finding(s): LLM_NOT_STRUCTURED</title>',
    );
    expect(html).not.toContain('id="finding-1001"');
  });
});

describe("long text and the exploration bound", () => {
  it("cuts a label of a million characters in the picture only", () => {
    const label = "agnt-" + "a-".repeat(500_000);
    const w = audit({
      nodes: [
        { id: "a", type: "llm", label: "a", findings: [] },
        { id: "#delegate-0", type: "delegate", label, findings: [] },
      ],
      edges: [{ from: "a", to: "#delegate-0", label: "delegate", back: false }],
      drawing: drawingVerdict(2, 1, 0),
      simulations: [
        {
          kind: "explore",
          status: "complete",
          steps: 1,
          moves: 1,
          trail: [{ step: 1, type: "move", message: label }],
        },
      ],
    });
    const html = renderAuditHtml(report(w));
    const svg = /<svg class="diagram" viewBox[\s\S]*?<\/svg>/.exec(html)?.[0] ?? "";
    expect(svg.length).toBeGreaterThan(0);
    expect(svg.length).toBeLessThan(5_000);
    expect(svg).toContain(
      `<title>${label.slice(0, 500)}… (#delegate-0), delegate — no findings</title>`,
    );
    expect(html).toContain(`<td>${label}</td>`); // the trail keeps it whole
  });

  it("says when the run bound was lowered for a big graph", () => {
    const w = undrawnChain(501);
    const exploration = {
      outputs: "placeholders" as const,
      runs: 199,
      maxRuns: 199,
      coverage: [],
      ends: [],
      blocks: [],
      truncated: true,
      unstopped: 0,
      bounded: false,
    };
    const heading =
      "Route coverage (199 explored run(s); llm outputs are schema placeholders; the run bound of 199, lowered from 200 for a graph of 1,004 nodes and edges, cut the search)";
    const r = report({ ...w, exploration });
    expect(renderAuditMarkdown(r)).toContain(`### ${heading}`);
    expect(renderAuditHtml(r)).toContain(`<h3>${heading}</h3>`);
    const unlowered = report({ ...w, exploration: { ...exploration, maxRuns: 200 } });
    expect(renderAuditMarkdown(unlowered)).toContain("; the run bound of 200 cut the search)");
  });
});
