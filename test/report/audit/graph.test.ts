/**
 * The report's graph of a workflow: the same nodes and edges as the Mermaid export, loops marked,
 * edges to a missing node counted, and linear on 100,000 nodes (the DFS is iterative).
 */
import { describe, expect, it } from "vitest";
import type { AgentEdge, AgentNode, AgentWorkflow } from "../../../src/model/index.js";
import { END_NODE, workflowGraph } from "../../../src/report/audit/index.js";

function llm(id: string): AgentNode {
  return { id, type: "llm", config: { model: "gpt-4o", promptRef: "prm:p@1.0.0" } };
}

function workflow(nodes: AgentNode[], edges: AgentEdge[]): AgentWorkflow {
  return {
    kind: "AgentWorkflow",
    id: "agnt-graph",
    version: "1.0.0",
    name: "Graph",
    autonomyLevel: 2,
    inputSchema: { q: "text" },
    outputSchema: { a: "text" },
    nodes,
    edges,
  };
}

function chain(n: number, loop: boolean): AgentWorkflow {
  const nodes = Array.from({ length: n }, (_, i) => llm(`n${String(i)}`));
  const edges: AgentEdge[] = nodes.slice(1).map((node, i) => ({
    from: `n${String(i)}`,
    to: node.id,
    edgeType: "data",
  }));
  if (loop) edges.push({ from: `n${String(n - 1)}`, to: "n0", edgeType: "data" });
  return workflow(nodes, edges);
}

describe("workflowGraph", () => {
  it("turns a 100,000-node chain into 100,000 nodes and 99,999 forward edges", () => {
    const { nodes, edges, dangling } = workflowGraph(chain(100_000, false), []);
    expect(nodes).toHaveLength(100_000);
    expect(edges).toHaveLength(99_999);
    expect(edges.some((e) => e.back)).toBe(false);
    expect(edges[99_998]).toEqual({ from: "n99998", to: "n99999", label: "data", back: false });
    expect(dangling).toBe(0);
  });

  it("marks exactly the edge that closes a 100,000-node loop", () => {
    const { edges } = workflowGraph(chain(100_000, true), []);
    expect(edges.filter((e) => e.back)).toEqual([
      { from: "n99999", to: "n0", label: "data", back: true },
    ]);
  });

  it("leaves out edges and routes to a missing node, and counts them", () => {
    const decision: AgentNode = {
      id: "d",
      type: "decision",
      config: {
        condition: "output.ok = true",
        onTrue: { next: "end" },
        onFalse: { next: "ghost" },
      },
    };
    const wf = workflow(
      [llm("a"), decision],
      [
        { from: "a", to: "d", edgeType: "data" },
        { from: "a", to: "nowhere", edgeType: "data" },
        { from: "ghost", to: "a", edgeType: "data" },
        { from: "a", to: "agnt-helper@1.0.0", edgeType: "delegate" },
      ],
    );
    const { nodes, edges, dangling } = workflowGraph(wf, []);
    expect(nodes.map((n) => n.id)).toEqual(["a", "d", "#delegate-3", END_NODE]);
    expect(edges.map((e) => `${e.from}>${e.to}:${e.label}`)).toEqual([
      "a>d:data",
      "ghost>a:data",
      "a>#delegate-3:delegate",
      `d>${END_NODE}:onTrue`,
    ]);
    // a → nowhere, and the route d → ghost
    expect(dangling).toBe(2);
  });

  it("keeps the first node of a duplicate id, and its routes only when it is a decision", () => {
    const wf = workflow(
      [
        llm("a"),
        {
          id: "a",
          type: "decision",
          config: { condition: "true", onTrue: { next: "end" }, onFalse: { next: "end" } },
        },
      ],
      [{ from: "a", to: "a", edgeType: "data" }],
    );
    const { nodes, edges } = workflowGraph(wf, []);
    expect(nodes.map((n) => `${n.id}:${n.type}`)).toEqual(["a:llm"]);
    expect(edges).toEqual([{ from: "a", to: "a", label: "data", back: true }]);
  });
});
