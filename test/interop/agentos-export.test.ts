import { describe, expect, it } from "vitest";
import { agentOs, exportAgentOs, importAgentOs } from "../../src/interop/agentos/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { getTemplate, listTemplates } from "../../src/model/index.js";
import { codes, readFixture } from "./helpers.js";

const ROUTED = "agentos/research-graph-routed.compiled-execution-graph.derived.json";

describe("exportAgentOs", () => {
  it("round trip import → export → import is deep-equal on the derived fixture", () => {
    const first = importAgentOs(readFixture(ROUTED)).workflow;
    const exported = exportAgentOs(first);
    expect(agentOs.detect(exported.document)).toBe(true);
    expect(importAgentOs(exported.document).workflow).toStrictEqual(first);
    expect(codes(exported.warnings)).toEqual([
      ["NOT_EXPORTABLE", "/version"],
      ["NOT_EXPORTABLE", "/autonomyLevel"],
      ["NOT_EXPORTABLE", "/nodes/5/config/cases/0"],
    ]);
  });

  it("writes the graph's edges: start, static, router routes, personality pair, ends", () => {
    const { document } = exportAgentOs(importAgentOs(readFixture(ROUTED)).workflow);
    const edges = (document.edges as Record<string, unknown>[]).map((e) => [
      e.source,
      e.target,
      e.type,
    ]);
    expect(edges).toEqual([
      ["__START__", "plan", "static"],
      ["plan", "search", "static"],
      ["search", "evaluate", "static"],
      ["evaluate", "route-quality", "static"],
      ["route-quality", "summarize", "conditional"],
      ["route-quality", "__END__", "conditional"],
      ["summarize", "review", "personality"],
      ["summarize", "__END__", "personality"],
      ["review", "__END__", "static"],
    ]);
  });

  it("writes a subgraph's stand-in tool back as a subgraph node; the round trip is deep-equal", () => {
    const graph = {
      id: "g1",
      name: "g",
      nodes: [
        {
          id: "inner",
          type: "subgraph",
          executorConfig: {
            type: "subgraph",
            graphId: "graph-inner-1",
            outputMapping: { "artifacts.text": "scratch.text" },
          },
        },
      ],
      edges: [
        { id: "e1", source: "__START__", target: "inner", type: "static" },
        { id: "e2", source: "inner", target: "__END__", type: "static" },
      ],
    };
    const first = importAgentOs(graph).workflow;
    const { document } = exportAgentOs(first);
    expect((document.nodes as unknown[])[0]).toStrictEqual({
      id: "inner",
      type: "subgraph",
      executorConfig: {
        type: "subgraph",
        graphId: "graph-inner-1",
        outputMapping: { "artifacts.text": "scratch.text" },
      },
      executionMode: "single_turn",
      checkpoint: "none",
      effectClass: "read",
    });
    expect(importAgentOs(document).workflow).toStrictEqual(first);
  });

  it.each(listTemplates().map((t) => t.id))(
    "template %s exports and re-imports its nodes and flow",
    (id) => {
      const wf = getTemplate(id);
      if (wf === undefined) throw new Error(`no template ${id}`);
      const { document, warnings } = exportAgentOs(wf);
      expect(codes(warnings).slice(0, 2)).toEqual([
        ["NOT_EXPORTABLE", "/version"],
        ["NOT_EXPORTABLE", "/autonomyLevel"],
      ]);
      const back = importAgentOs(document).workflow;
      expect(back.nodes.map((n) => [n.id, n.type])).toEqual(wf.nodes.map((n) => [n.id, n.type]));
      expect(back.autonomyLevel).toBe(wf.autonomyLevel);
    },
  );
});

describe("exportAgentOs state partitions", () => {
  it("compiles each field as it would be alone, a shared expression once", () => {
    const wf = getTemplate("research");
    if (wf === undefined) throw new Error("no research template");
    // the same expressions under plain names, and names the shape reader takes apart
    const fields = JSON.parse(
      '{"a": "text", "b?": "text", "c": "integer[]", "d": "integer[]", "e??": "text",' +
        ' "__proto__": "text", "": "text", "f": {"type": "string", "format": "uri"}, "g": "Nope"}',
    ) as AgentWorkflow["inputSchema"];
    const input = exportAgentOs({ ...wf, inputSchema: fields }).document.stateSchema as Record<
      string,
      { properties: Record<string, unknown>; required: string[] }
    >;
    const { properties, required } = input.input ?? { properties: {}, required: [] };
    expect(Object.entries(properties)).toEqual([
      ["a", { type: "string" }],
      ["b", { type: "string" }],
      ["c", { type: "array", items: { type: "integer" } }],
      ["d", { type: "array", items: { type: "integer" } }],
      // the reader strips one more "?" and refuses "__proto__": alone, they compile to nothing
      ["e?", {}],
      ["__proto__", {}],
      ["", { type: "string" }],
      ["f", { type: "string", format: "uri" }],
      ["g", {}],
    ]);
    expect(required).toEqual(["a", "c", "d", "__proto__", "", "f", "g"]);
    // each field has its own copy
    expect(properties.c).not.toBe(properties.d);
  });
});
