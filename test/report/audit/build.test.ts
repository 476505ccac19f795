/**
 * auditWorkflowReport on big and hostile workflows (docs/report.md): the drawing verdict, no
 * Mermaid text for a graph that is not drawn, labels cut in the Mermaid diagram only, and the
 * exploration bound recorded.
 */
import { describe, expect, it } from "vitest";
import type { AgentEdge, AgentNode, AgentWorkflow, LlmConfig } from "../../../src/model/index.js";
import {
  auditWorkflowReport,
  renderAuditMarkdown,
  REPORT_STEPS,
} from "../../../src/report/audit/index.js";

/** A chain of `length` llm nodes `s0 → s1 → …`. */
function llmChain(
  length: number,
  config: LlmConfig,
  extra: Pick<AgentWorkflow, "id" | "name">,
  extraEdges: readonly AgentEdge[] = [],
): AgentWorkflow {
  const nodes = Array.from({ length }, (_, i): AgentNode => ({
    id: `s${String(i)}`,
    type: "llm",
    config,
  }));
  const edges: AgentEdge[] = nodes
    .slice(1)
    .map((n, i) => ({ from: `s${String(i)}`, to: n.id, edgeType: "data" }));
  return {
    kind: "AgentWorkflow",
    version: "1.0.0",
    autonomyLevel: 1,
    inputSchema: { q: "text" },
    outputSchema: { a: "text" },
    ...extra,
    nodes,
    edges: [...edges, ...extraEdges],
  };
}

describe("auditWorkflowReport on a graph over the drawing limit", () => {
  it("records the verdict, makes no Mermaid text, and explores within the bound", async () => {
    const wf = llmChain(
      300,
      { model: "gpt-4o", promptRef: "prm:p@1.0.0" },
      { id: "agnt-chain", name: "Chain" },
      [{ from: "s299", to: "ghost", edgeType: "data" }],
    );
    const r = await auditWorkflowReport(wf, { file: "chain.json", text: "", tools: {} });
    const w = r.workflows[0];
    expect(w?.drawing).toEqual({ drawn: false, nodes: 300, edges: 300, dangling: 1, limit: 250 });
    expect(w?.mermaid).toBe("");
    expect(w?.exploration?.maxRuns).toBe(200);
    expect(w?.exploration?.runs).toBe(1);
  });

  it("cuts a delegate ref of a million characters in the Mermaid diagram only", async () => {
    const ref = `agnt-${"a-".repeat(500_000)}@1.0.0`;
    const wf: AgentWorkflow = {
      kind: "AgentWorkflow",
      id: "agnt-delegating",
      version: "1.0.0",
      name: "Delegating",
      autonomyLevel: 3,
      inputSchema: { q: "text" },
      outputSchema: { a: "text" },
      nodes: [{ id: "s0", type: "llm", config: { model: "gpt-4o", promptRef: "prm:p@1.0.0" } }],
      edges: [{ from: "s0", to: ref, edgeType: "delegate" }],
    };
    const r = await auditWorkflowReport(wf, { file: "d.json", text: "", tools: {} });
    const mermaid = r.workflows[0]?.mermaid ?? "";
    expect(mermaid).toContain(`d0[["${ref.slice(0, 200)}…"]]`);
    expect(mermaid.length).toBeLessThan(1_000);
    const md = renderAuditMarkdown(r);
    // in full where the report lists it (its `@` escaped: GFM would make an address of it)
    expect(md).toContain(ref.replace("@", "\\@"));
  });

  it("explores fewer runs in a big workflow, and says so", async () => {
    // One decision with 600 cases: 602 nodes (with the end) and 601 routes.
    const nodes: AgentNode[] = Array.from({ length: 600 }, (_, i) => ({
      id: `s${String(i)}`,
      type: "llm",
      config: { model: "gpt-4o", promptRef: "prm:p@1.0.0" },
    }));
    const cases = nodes.map((n, i) => ({ condition: `output.route = ${String(i)}`, next: n.id }));
    const wf: AgentWorkflow = {
      kind: "AgentWorkflow",
      id: "agnt-wide",
      version: "1.0.0",
      name: "Wide",
      autonomyLevel: 2,
      inputSchema: { q: "text" },
      outputSchema: { route: "number" },
      nodes: [
        { id: "d", type: "decision", config: { cases, otherwise: { next: "end" } } },
        ...nodes,
      ],
      edges: [],
    };
    const r = await auditWorkflowReport(wf, { file: "wide.json", text: "", tools: {} });
    const x = r.workflows[0]?.exploration;
    expect([x?.maxRuns, x?.runs, x?.truncated]).toEqual([166, 166, true]);
    expect(x?.coverage.filter((c) => c.status === "taken")).toHaveLength(166);
    expect(renderAuditMarkdown(r)).toContain(
      "the run bound of 166, lowered from 200 for a graph of 1,203 nodes and edges, cut the search)",
    );
  });
});

describe("auditWorkflowReport bounds its runs", () => {
  it("stops a run at REPORT_STEPS and says so in the run's status", async () => {
    const wf = llmChain(
      1_500,
      { model: "gpt-4o", promptRef: "prm:p@1.0.0", structuredOutput: true },
      { id: "agnt-long-chain", name: "Long chain" },
    );
    const r = await auditWorkflowReport(wf, { file: "chain.json", text: "", tools: {} });
    const [run] = r.workflows[0]?.simulations ?? [];
    expect(REPORT_STEPS).toBe(1_000);
    expect(run?.status).toBe(
      "stopped at the report's bound of 1,000 moves (outside the report a run may make up to 10,000)",
    );
    expect(run?.trail.at(-1)?.type).toBe("decision-blocked");
    expect(renderAuditMarkdown(r)).toContain("stopped at the report's bound of 1,000 moves");
    // Cut by the review's bound, the run is no evidence that the workflow's bounds stop it.
    expect(r.workflows[0]?.exploration?.unstopped).toBe(1);
    expect(r.checklist.find((c) => c.reference === "NIST AI RMF MANAGE 2.4")).toMatchObject({
      status: "partial",
      evidence: [
        "agnt-long-chain: 1 explored run(s) went on until the review's own step bound (1000 moves) cut them — the review did not see them end or stop by the workflow's bounds.",
      ],
    });
    expect(renderAuditMarkdown(r)).toContain(
      "1 run(s) met no end and no stop of the workflow's before the review's step bound of 1,000 moves",
    );
  });
});
