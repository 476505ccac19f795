/**
 * An OpenAgentFlow agent's in-agent `tools`: each is a tool node on `tool:<name>@0.0.0` that the
 * decision `<agent>-tools` after the agent calls (then back to the agent), so its contract decides
 * the effect; the export writes the loop back as the agent's `tools`, not as nodes.
 */
import { describe, expect, it } from "vitest";
import { ImportError } from "../../src/interop/index.js";
import { exportOpenAgentFlow, importOpenAgentFlow } from "../../src/interop/openagentflow/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { parseWorkflow } from "../../src/model/index.js";
import { codes } from "./helpers.js";

/** A workflow the model parses, or the test fails. */
function parsed(value: unknown): AgentWorkflow {
  const { workflow, diagnostics } = parseWorkflow(value);
  if (workflow === undefined) throw new Error(JSON.stringify(diagnostics));
  return workflow;
}

const agent = (id: string, tools: string[]): Record<string, unknown> => ({
  id,
  instructions: `Do ${id}.`,
  model: "gpt-4o",
  provider: "openai",
  temperature: null,
  tools,
  inputs: [],
  outputs: [],
});

/** The red team's trap: `Act` can wire money; it goes back to `Judge` or ends on a condition. */
function trap(tools: string[] = ["wire_money"]): Record<string, unknown> {
  const done = { type: "IdentifierExpr", name: "done" };
  return {
    version: "0.1.5",
    workflow: { name: "Trap", config: { max_iterations: 3 } },
    state: { variables: [{ name: "done", type: "bool", options: [] }] },
    agents: [agent("Judge", []), agent("Act", tools)],
    graph: {
      edges: [
        { source: "Judge", target: "Act", condition: null },
        { source: "Act", target: "Judge", condition: null },
      ],
      entrypoint: "Judge",
      terminals: [{ source: "Act", condition: done }],
    },
  };
}

describe("importOpenAgentFlow: an agent's tools", () => {
  it("become tool nodes a decision after the agent calls, before its own routes", () => {
    const { workflow, warnings } = importOpenAgentFlow(trap());
    expect(workflow.nodes.slice(1).map((n) => [n.id, n.type])).toEqual([
      ["Act", "llm"],
      ["Act-tools", "decision"],
      ["Act-wire_money", "tool"],
      ["Act-route", "decision"],
    ]);
    expect(workflow.nodes[2]?.config).toEqual({
      conditionLanguage: "text",
      cases: [{ condition: "the agent calls its tool 'wire_money'", next: "Act-wire_money" }],
      // going on to its routes leads back to Judge: max_iterations was meant to bound it, but its
      // runtime never enforces it, so the route is read unbounded
      otherwise: { next: "Act-route" },
    });
    expect(workflow.nodes[3]?.config).toEqual({ usesTool: "tool:wire_money@0.0.0" });
    expect(workflow.edges).toEqual([
      { from: "Judge", to: "Act", edgeType: "data" },
      { from: "Act", to: "Act-tools", edgeType: "data" },
      { from: "Act-wire_money", to: "Act", edgeType: "data" },
    ]);
    expect(warnings.find((w) => w.path === "/agents/1/tools")).toMatchObject({
      code: "HEURISTIC",
      data: {
        agentId: "Act",
        tools: ["wire_money"],
        decisionId: "Act-tools",
        toolNodes: ["Act-wire_money"],
        assumed: ["tool:wire_money@0.0.0"],
      },
    });
    expect(parseWorkflow(workflow).diagnostics).toEqual([]);
  });

  it.each([
    ["a space", "wire money"],
    ["an at sign", "wire@money"],
    ["nothing", ""],
  ])("refuses a tool name with %s, which forms no tool ref, at its path", (_label, name) => {
    try {
      importOpenAgentFlow(trap(["lookup", name]));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ImportError);
      expect((error as ImportError).path).toBe("/agents/1/tools/1");
      expect((error as ImportError).elementId).toBe("Act");
    }
  });
});

describe("exportOpenAgentFlow: an agent's tool loop", () => {
  it("is written back as the agent's tools, and the import reads it back the same", () => {
    const first = importOpenAgentFlow(trap(["wire_money", "lookup"])).workflow;
    expect(first.nodes.filter((n) => n.type === "tool").map((n) => n.id)).toEqual([
      "Act-wire_money",
      "Act-lookup",
    ]);
    const { document, warnings } = exportOpenAgentFlow(first);
    expect(document.agents.map((a) => [a.id, a.tools])).toEqual([
      ["Judge", []],
      ["Act", ["wire_money", "lookup"]],
    ]);
    expect(document.graph.edges.map((e) => `${e.source} -> ${e.target}`)).toEqual([
      "Act -> Judge",
      "Judge -> Act",
    ]);
    expect(codes(warnings)).toEqual([["NOT_EXPORTABLE", "/autonomyLevel"]]);
    expect(importOpenAgentFlow(document).workflow).toStrictEqual(first);
  });

  it("takes the tools from the loop, not from metadata; another tool node is declared", () => {
    const first = importOpenAgentFlow(trap()).workflow;
    // a hand-edited workflow: the tool bound to a reviewed contract, so no longer the import's
    const edited = parsed({
      ...first,
      nodes: first.nodes.map((n) =>
        n.id === "Act-wire_money" ? { ...n, config: { usesTool: "tool:wire_money@2.0.0" } } : n,
      ),
    });
    const { document, warnings } = exportOpenAgentFlow(edited);
    expect(codes(warnings)).toContainEqual(["NOT_EXPORTABLE", "/nodes/3"]);
    const without = parsed({
      ...first,
      nodes: first.nodes.filter((n) => n.id !== "Act-tools" && n.id !== "Act-wire_money"),
      edges: [
        { from: "Judge", to: "Act", edgeType: "data" },
        { from: "Act", to: "Act-route", edgeType: "data" },
      ],
    });
    // without a loop, the names kept in metadata are all there is
    expect(exportOpenAgentFlow(without).document.agents[1]?.tools).toEqual(["wire_money"]);
    expect(document.agents[1]?.tools).toEqual(["wire_money"]);
  });
});
