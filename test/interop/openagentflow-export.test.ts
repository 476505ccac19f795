import { describe, expect, it } from "vitest";
import {
  detectOpenAgentFlow,
  exportOpenAgentFlow,
  importOpenAgentFlow,
} from "../../src/interop/openagentflow/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { getTemplate, listTemplates } from "../../src/model/index.js";
import { codes, readFixture } from "./helpers.js";

const FIXTURES = [
  "openagentflow/hello_ir.json",
  "openagentflow/summarize_ir.json",
  "openagentflow/software_dev_ir.json",
  "openagentflow/conditional_routing_ir.generated.json",
];

/** The seed's adapter checks: an entrypoint, at least one terminal, at least one agent. */
function adapterAccepts(doc: ReturnType<typeof exportOpenAgentFlow>["document"]): boolean {
  return doc.graph.entrypoint !== "" && doc.graph.terminals.length > 0 && doc.agents.length > 0;
}

describe.each(FIXTURES)("%s", (path) => {
  it("round trip import → export → import is deep-equal, the second import adds no drop", () => {
    const first = importOpenAgentFlow(readFixture(path));
    const exported = exportOpenAgentFlow(first.workflow);
    expect(codes(exported.warnings)).toEqual([["NOT_EXPORTABLE", "/autonomyLevel"]]);
    expect(detectOpenAgentFlow(exported.document)).toBe(true);
    expect(adapterAccepts(exported.document)).toBe(true);
    const second = importOpenAgentFlow(exported.document);
    expect(second.workflow).toStrictEqual(first.workflow);
    expect(
      second.warnings.filter((w) => w.code === "FIELD_DROPPED" && !w.path.endsWith("/tools")),
    ).toEqual([]);
  });
});

describe("exportOpenAgentFlow", () => {
  it("writes the hello fixture back as the seed's IR", () => {
    const { workflow } = importOpenAgentFlow(readFixture(FIXTURES[0] ?? ""));
    expect(exportOpenAgentFlow(workflow).document).toStrictEqual({
      version: "0.1.0",
      workflow: { name: "Hello", config: { version: "1.0.0" } },
      state: { variables: [] },
      agents: [
        {
          id: "Greeter",
          instructions: "Say hello to the user.",
          model: "gemma-4-26b-a4b-it",
          provider: "gemini",
          temperature: null,
          tools: [],
          inputs: [],
          outputs: [],
        },
      ],
      graph: {
        edges: [],
        entrypoint: "Greeter",
        terminals: [{ source: "Greeter", condition: null }],
      },
    });
  });

  it("writes conditions back as the compiler's trees and max_iterations from maxRetries", () => {
    const source = readFixture(FIXTURES[3] ?? "") as {
      graph: { edges: unknown[]; terminals: unknown[] };
    };
    const { workflow } = importOpenAgentFlow(source);
    const { document } = exportOpenAgentFlow(workflow);
    expect(document.graph.edges).toStrictEqual(source.graph.edges);
    expect(document.graph.terminals).toStrictEqual([
      ...source.graph.terminals,
      { source: "Reviewer", condition: null },
    ]);
    expect(document.workflow.config).toStrictEqual({ version: "1.0.0", max_iterations: 10 });
  });

  it.each(listTemplates().map((t) => t.id))(
    "declares what template %s loses, never throws",
    (id) => {
      const wf = getTemplate(id);
      if (wf === undefined) throw new Error(`no template ${id}`);
      const { document, warnings } = exportOpenAgentFlow(wf);
      expect(warnings[0]?.path).toBe("/autonomyLevel");
      expect(warnings.every((w) => w.code === "NOT_EXPORTABLE")).toBe(true);
      expect(codes(warnings)).toContainEqual(["NOT_EXPORTABLE", "/id"]);
      expect(document.agents.length).toBe(wf.nodes.filter((n) => n.type === "llm").length);
    },
  );

  it("a natural-language decision and a tool node are left out and declared", () => {
    const wf: AgentWorkflow = {
      kind: "AgentWorkflow",
      id: "x",
      version: "1.0.0",
      name: "X",
      autonomyLevel: 1,
      inputSchema: { q: "text" },
      outputSchema: { "a?": "path" },
      nodes: [
        { id: "A", type: "llm", config: { model: "m", promptRef: "prm:a@1.0.0" } },
        {
          id: "D",
          type: "decision",
          config: {
            conditionLanguage: "text",
            cases: [{ condition: "looks fine", next: "end" }],
            otherwise: { next: "T" },
          },
        },
        { id: "T", type: "tool", config: { usesTool: "tool:t@1.0.0" } },
      ],
      edges: [{ from: "A", to: "D", edgeType: "data" }],
    };
    expect(codes(exportOpenAgentFlow(wf).warnings)).toEqual([
      ["NOT_EXPORTABLE", "/autonomyLevel"],
      ["NOT_EXPORTABLE", "/outputSchema/a?"],
      ["NOT_EXPORTABLE", "/nodes/0/config/promptRef"],
      ["NOT_EXPORTABLE", "/nodes/1/config/cases/0"],
      ["NOT_EXPORTABLE", "/nodes/1/config/otherwise"],
      ["NOT_EXPORTABLE", "/nodes/2"],
    ]);
  });
});
