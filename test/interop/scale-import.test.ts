/**
 * The importers on large documents (issue 8, adversarial corpus): a router with 20,000 branches,
 * 20,000 routers, one agent with 20,000 edges, stay linear and give back the whole graph.
 */
import { describe, expect, it } from "vitest";
import { generateWorkflow } from "../../bench/generate.js";
import {
  checkAgent2ModelInvariants,
  exportAgentOs,
  exportLangGraphGen,
  exportLangGraphGraph,
  exportOpenAgentFlow,
  importAgent2Model,
  importAgentOs,
  importLangGraphGen,
  importLangGraphGraph,
  importOpenAgentFlow,
} from "../../src/interop/index.js";
import { unfoldToolLoops } from "../../src/interop/agentos/tool-loop.js";
import type { AgentWorkflow, DecisionNode } from "../../src/model/index.js";
import { decisionRoutes, parseWorkflow } from "../../src/model/index.js";

/** Large enough that a quadratic step would take minutes, small enough for a unit test. */
const BIG = 20_000;

function parsed(value: unknown): AgentWorkflow {
  const { workflow, diagnostics } = parseWorkflow(value);
  if (workflow === undefined) throw new Error(JSON.stringify(diagnostics.slice(0, 3)));
  return workflow;
}

function decisions(wf: AgentWorkflow): DecisionNode[] {
  return wf.nodes.filter((n): n is DecisionNode => n.type === "decision");
}

describe("imports with one router of 20,000 branches", () => {
  const wide = parsed(generateWorkflow(BIG, "wide"));

  it("reads an AgentOS router with 20,000 out-edges as one decision", () => {
    // each gmi node's tool loop (a decision and a tool node) is read back into it first
    const workflow = unfoldToolLoops(importAgentOs(exportAgentOs(wide).document).workflow).wf;
    const [router] = decisions(workflow);
    expect(workflow.nodes).toHaveLength(BIG);
    expect(router === undefined ? [] : decisionRoutes(router.config)).toHaveLength(BIG);
  });

  it("reads a langgraph-gen conditional edge with 20,000 paths as one decision", () => {
    const { workflow } = importLangGraphGen(exportLangGraphGen(wide).document);
    // the entry step the router was written on, its decision, and the 19,999 other steps
    expect(workflow.nodes).toHaveLength(BIG + 1);
    const [router] = decisions(workflow);
    expect(router?.id).toBe("n0.route");
    expect(workflow.nodes[1]?.id).toBe("n0.route");
    expect(router === undefined ? [] : decisionRoutes(router.config)).toHaveLength(BIG);
  });
});

describe("imports with 2,000 routers among 20,000 nodes", () => {
  const loops = parsed(generateWorkflow(BIG, "loops"));

  it("places each drawable-graph router right after its step", () => {
    const { workflow } = importLangGraphGraph(exportLangGraphGraph(loops).document);
    expect(workflow.nodes).toHaveLength(BIG);
    const ids = workflow.nodes.map((n) => n.id);
    // every tenth node of the source is a decision; it comes back as the router of the step before
    expect(ids.slice(0, 11)).toEqual([
      ...["n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8"],
      "n8.route",
      "n10",
    ]);
    expect(decisions(workflow)).toHaveLength(BIG / 10);
    expect(ids.at(-1)).toBe("n19998.route");
  });

  it("places each langgraph-gen router right after its step", () => {
    const { workflow } = importLangGraphGen(exportLangGraphGen(loops).document);
    const ids = workflow.nodes.map((n) => n.id);
    expect(ids.slice(8, 11)).toEqual(["n8", "n8.route", "n10"]);
    expect(decisions(workflow)).toHaveLength(BIG / 10);
  });
});

describe("imports with one node of 20,000 edges", () => {
  it("reads an OpenAgentFlow agent with 20,000 edges", () => {
    const nodes = Array.from({ length: BIG }, (_, i) => ({
      id: `a${String(i)}`,
      type: "llm",
      config: { model: "m", promptRef: "prm:p@1.0.0" },
    }));
    const edges = nodes.slice(1).map((n) => ({ from: "a0", to: n.id, edgeType: "data" }));
    const fan = parsed({ ...generateWorkflow(1, "chain"), nodes, edges });
    const { workflow } = importOpenAgentFlow(exportOpenAgentFlow(fan).document);
    expect(workflow.nodes).toHaveLength(BIG);
    expect(workflow.edges).toHaveLength(BIG - 1);
  });

  it("checks and imports an agent2model turn with 20,000 edges", () => {
    const keys = Array.from({ length: BIG }, (_, i) => `t${String(i)}`);
    const nodes: Record<string, unknown> = {
      start: { role: "agent", prompt: "p", next: keys.map((to) => ({ to })) },
      done: { terminal: "success" },
    };
    for (const key of keys) nodes[key] = { role: "agent", prompt: "p", next: [{ to: "done" }] };
    const flowchart = { name: "fan", start: "start", nodes };
    expect(checkAgent2ModelInvariants(flowchart)).toEqual([]);
    const { workflow } = importAgent2Model(flowchart);
    // the agent's llm node, the decision that holds its choice, and the 20,000 turns
    expect(workflow.nodes).toHaveLength(BIG + 2);
    expect(workflow.nodes[1]?.id).toBe("start.choice");
    expect(workflow.edges).toHaveLength(BIG + 1);
  });
});
