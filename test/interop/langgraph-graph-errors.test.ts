/**
 * LangGraph's native drawable graph: malformed graphs fail with their path and element, detection
 * declines every other format, and no JSON value makes detect or import throw anything else.
 */
import { readdirSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectLangGraph, ImportError } from "../../src/interop/index.js";
import {
  detectLangGraphGraph,
  importLangGraphGraph,
} from "../../src/interop/langgraph-graph/index.js";
import { readFixture } from "./helpers.js";

const FIXTURES = [
  "py-to_json-conditional-entrypoint.json",
  "py-to_json-human-agent-loop.json",
  "py-to_json-prebuilt-react-agent-toolnode.json",
  "js-getGraphAsync-toJSON-interrupt-before.generated.json",
  "platform-get_graph-sdk-docstring-example.json",
].map((f) => `langgraph-graph/${f}`);

interface G {
  nodes: unknown[];
  edges: unknown[];
}
const runnable = (id: unknown, cls = "RunnableCallable"): Record<string, unknown> => ({
  id,
  type: "runnable",
  data: { id: ["langgraph", cls], name: String(id) },
});
const edge = (source: unknown, target: unknown, extra: Record<string, unknown> = {}) => ({
  source,
  target,
  ...extra,
});
const graph = (nodes: unknown[], edges: unknown[]): G => ({
  nodes: [{ id: "__start__" }, ...nodes, { id: "__end__" }],
  edges,
});

describe("importLangGraphGraph: malformed graphs fail loudly", () => {
  const cases: [string, unknown, string, string | undefined][] = [
    ["an array", [], "", undefined],
    ["no nodes", { edges: [] }, "/nodes", undefined],
    ["no edges", { nodes: [] }, "/edges", undefined],
    ["a node that is not an object", graph([3], []), "/nodes/1", undefined],
    ["a node without id", graph([{ type: "runnable" }], []), "/nodes/1/id", undefined],
    ["a duplicate id", graph([runnable("a"), runnable("a")], []), "/nodes/2/id", "a"],
    ["a schema step", graph([{ id: "s", type: "schema" }], []), "/nodes/1/type", "s"],
    ["an agentflow type", graph([{ id: "s", type: "llm" }], []), "/nodes/1/type", "s"],
    ["an unknown target", graph([], [edge("__start__", "x")]), "/edges/0/target", undefined],
    ["an edge from __end__", graph([], [edge("__end__", "__end__")]), "/edges/0/source", undefined],
    [
      "an edge into __start__",
      graph([], [edge("__start__", "__start__")]),
      "/edges/0/target",
      undefined,
    ],
    [
      "an object label",
      graph([runnable("a")], [edge("__start__", "a", { data: {} })]),
      "/edges/0/data",
      undefined,
    ],
    [
      "a string flag",
      graph([runnable("a")], [edge("__start__", "a", { conditional: "yes" })]),
      "/edges/0/conditional",
      undefined,
    ],
  ];
  it.each(cases)("%s", (_name, doc, path, elementId) => {
    let caught: unknown;
    try {
      importLangGraphGraph(doc);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ImportError);
    expect(caught).toMatchObject({ format: "langgraph-graph", path });
    expect((caught as ImportError).elementId).toBe(elementId);
  });
});

describe("detectLangGraphGraph", () => {
  it("declines the other formats' fixtures and the LangGraph subset, which declines these", () => {
    const shared = "/work/shared/fixtures/";
    const others = ["agentos", "openagentflow", "n8n", "agentflow"].flatMap((d) =>
      readdirSync(shared + d)
        .filter((f) => f.endsWith(".json"))
        .map((f) => JSON.parse(readFileSync(`${shared}${d}/${f}`, "utf8")) as unknown),
    );
    for (const doc of others) expect(detectLangGraphGraph(doc)).toBe(false);
    for (const file of FIXTURES) expect(detectLangGraph(readFixture(file))).toBe(false);
    expect(detectLangGraphGraph({ nodes: [], edges: [] })).toBe(false);
    expect(
      detectLangGraphGraph({ kind: "AgentWorkflow", nodes: [{ id: "__start__" }], edges: [] }),
    ).toBe(false);
  });

  it("detect and import throw only ImportError on any JSON, and never pollute", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (doc) => {
        expect(typeof detectLangGraphGraph(doc)).toBe("boolean");
        try {
          importLangGraphGraph(doc);
        } catch (error) {
          expect(error).toBeInstanceOf(ImportError);
        }
      }),
      { numRuns: 500 },
    );
    const doc = JSON.parse(
      '{"nodes":[{"id":"__proto__","type":"runnable"}],"edges":[],"__proto__":{"x":1}}',
    ) as unknown;
    expect(importLangGraphGraph(doc).workflow.nodes[0]?.id).toBe("n-__proto__");
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
