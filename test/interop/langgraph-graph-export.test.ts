/** LangGraph drawable-graph export: exact documents, declared losses, round trips, templates. */
import { describe, expect, it } from "vitest";
import {
  detectLangGraphGraph,
  exportLangGraphGraph,
  importLangGraphGraph,
} from "../../src/interop/langgraph-graph/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { getTemplate, listTemplates, parseWorkflow } from "../../src/model/index.js";
import { codes, readFixture } from "./helpers.js";

const FIXTURES = [
  "py-to_json-conditional-entrypoint.json",
  "py-to_json-human-agent-loop.json",
  "py-to_json-prebuilt-react-agent-toolnode.json",
  "js-getGraphAsync-toJSON-interrupt-before.generated.json",
  "platform-get_graph-sdk-docstring-example.json",
].map((f) => `langgraph-graph/${f}`);

const FUNCTION_NODE = ["langgraph", "_internal", "_runnable", "RunnableCallable"];
const TOOL_NODE = ["langgraph", "prebuilt", "tool_node", "ToolNode"];
const CHAT_MODEL = ["langchain_core", "language_models", "chat_models", "BaseChatModel"];
const START = { id: "__start__", type: "schema", data: "__start__" };
const END = { id: "__end__", type: "schema", data: "__end__" };

/** What the importer synthesises for a graph, taken from one import, so a test states its graph. */
const BASE = importLangGraphGraph(readFixture(FIXTURES[4] ?? "")).workflow;

function workflow(extra: Partial<AgentWorkflow>): AgentWorkflow {
  const parsed = parseWorkflow({ ...BASE, autonomyLevel: 1, nodes: [], edges: [], ...extra });
  if (parsed.workflow === undefined) throw new Error(JSON.stringify(parsed.diagnostics));
  return parsed.workflow;
}

function llm(id: string, name?: string): AgentWorkflow["nodes"][number] {
  return {
    id,
    type: "llm",
    ...(name === undefined ? {} : { name }),
    config: { model: "unspecified", promptRef: `prm:${id}@0.0.0` },
  };
}

describe.each(FIXTURES)("%s", (path) => {
  it("round trip import → export → import is deep-equal, declaring only autonomyLevel", () => {
    const first = importLangGraphGraph(readFixture(path)).workflow;
    const { document, warnings } = exportLangGraphGraph(first);
    expect(codes(warnings)).toEqual([["NOT_EXPORTABLE", "/autonomyLevel"]]);
    expect(detectLangGraphGraph(document)).toBe(true);
    expect(importLangGraphGraph(document).workflow).toStrictEqual(first);
  });
});

describe("exportLangGraphGraph: the fixtures' graphs", () => {
  const exported = (path: string): ReturnType<typeof exportLangGraphGraph>["document"] =>
    exportLangGraphGraph(importLangGraphGraph(readFixture(`langgraph-graph/${path}`)).workflow)
      .document;

  it("a router becomes labelled conditional edges of its step; ids stay as LangGraph wrote them", () => {
    expect(exported(FIXTURES[3]?.slice(16) ?? "")).toStrictEqual({
      nodes: [
        START,
        // function nodes, imported as tools on tool:langgraph.node.<id>, are written back as such
        { id: "write_draft", type: "runnable", data: { id: FUNCTION_NODE, name: "write_draft" } },
        { id: "search_tool", type: "runnable", data: { id: TOOL_NODE, name: "search_tool" } },
        { id: "human_review", type: "runnable", data: { id: FUNCTION_NODE, name: "human_review" } },
        END,
      ],
      edges: [
        { source: "__start__", target: "write_draft" },
        { source: "search_tool", target: "write_draft" },
        { source: "write_draft", target: "human_review", data: "review", conditional: true },
        { source: "write_draft", target: "search_tool", data: "search", conditional: true },
        { source: "human_review", target: "__end__" },
      ],
    });
  });

  it("a ToolNode stays a ToolNode; a route to end is a labelled edge into __end__", () => {
    expect(exported("py-to_json-prebuilt-react-agent-toolnode.json").edges).toStrictEqual([
      { source: "__start__", target: "agent" },
      { source: "agent", target: "__end__", data: "__end__", conditional: true },
      { source: "agent", target: "tools", data: "tools", conditional: true },
      { source: "tools", target: "agent" },
    ]);
  });

  it("the start.route decision becomes conditional edges from __start__", () => {
    expect(exported("py-to_json-conditional-entrypoint.json").edges).toStrictEqual([
      { source: "__start__", target: "left", data: "go-left", conditional: true },
      { source: "__start__", target: "right", data: "go-right", conditional: true },
      { source: "left", target: "__end__" },
      { source: "right", target: "__end__" },
    ]);
  });
});

describe("exportLangGraphGraph: what the importer's heuristics need", () => {
  it("an llm node is written as a chat model (a function node reads back as a tool), a tool as a ToolNode", () => {
    const wf = workflow({
      nodes: [llm("draft"), { id: "pay", type: "tool", config: { usesTool: "tool:pay@0.0.0" } }],
      edges: [{ from: "draft", to: "pay", edgeType: "data" }],
    });
    const { document, warnings } = exportLangGraphGraph(wf);
    expect(document.nodes.slice(1, 3)).toStrictEqual([
      { id: "draft", type: "runnable", data: { id: CHAT_MODEL, name: "draft" } },
      { id: "pay", type: "runnable", data: { id: TOOL_NODE, name: "pay" } },
    ]);
    expect(codes(warnings)).toEqual([["NOT_EXPORTABLE", "/autonomyLevel"]]);
    const back = importLangGraphGraph(document);
    expect(back.workflow).toStrictEqual(wf);
    // both read back exactly: no classification guess at either node's type
    expect(back.warnings.filter((w) => w.path.endsWith("/type"))).toEqual([]);
  });

  it("a tool on a function node's ref is written as a function node, and read back on that ref", () => {
    const fn = (id: string): AgentWorkflow["nodes"][number] => ({
      id,
      type: "tool",
      config: { usesTool: `tool:langgraph.node.${id}@0.0.0` },
    });
    const wf = workflow({
      nodes: [
        fn("plan"),
        llm("draft"),
        { id: "pay", type: "tool", config: { usesTool: "tool:pay@0.0.0" } },
      ],
      edges: [
        { from: "plan", to: "draft", edgeType: "data" },
        { from: "draft", to: "pay", edgeType: "data" },
      ],
    });
    const { document, warnings } = exportLangGraphGraph(wf);
    expect(document.nodes.slice(1, 4)).toStrictEqual([
      { id: "plan", type: "runnable", data: { id: FUNCTION_NODE, name: "plan" } },
      { id: "draft", type: "runnable", data: { id: CHAT_MODEL, name: "draft" } },
      { id: "pay", type: "runnable", data: { id: TOOL_NODE, name: "pay" } },
    ]);
    expect(codes(warnings)).toEqual([["NOT_EXPORTABLE", "/autonomyLevel"]]);
    const back = importLangGraphGraph(document);
    expect(back.workflow).toStrictEqual(wf);
    // import → export → import → export: the same graph again
    expect(exportLangGraphGraph(back.workflow).document).toStrictEqual(document);
  });

  it.each([
    // a tool-named id reads back on `tool:<id>` (the named reading), whatever its class path
    ["search_tool", "tool:langgraph.node.search_tool@0.0.0", "tool:search_tool@0.0.0"],
    // a ref of the family, but not the node's own: the id decides what an import reads
    ["plan", "tool:langgraph.node.other@0.0.0", "tool:langgraph.node.plan@0.0.0"],
    ["plan", "tool:langgraph.node.plan@1.0.0", "tool:langgraph.node.plan@0.0.0"],
  ])(
    "node '%s' on %s is written as a function node; its ref, read back as %s, is declared",
    (id, usesTool, back) => {
      const wf = workflow({ nodes: [{ id, type: "tool", config: { usesTool } }] });
      const { document, warnings } = exportLangGraphGraph(wf);
      expect(document.nodes[1]).toStrictEqual({
        id,
        type: "runnable",
        data: { id: FUNCTION_NODE, name: id },
      });
      expect(codes(warnings)).toEqual([
        ["NOT_EXPORTABLE", "/autonomyLevel"],
        ["NOT_EXPORTABLE", "/nodes/0/config/usesTool"],
      ]);
      expect(importLangGraphGraph(document).workflow.nodes[0]).toStrictEqual({
        id,
        type: "tool",
        config: { usesTool: back },
      });
    },
  );

  it("an llm node whose name reads as a tool gets a chat-model class path, and stays llm", () => {
    // wired, so that both run: a step the drawing reaches by no edge is read as a router's branch
    const wf = workflow({
      nodes: [llm("search_tool"), llm("fetch-tool", "fetch tool")],
      edges: [{ from: "search_tool", to: "fetch-tool", edgeType: "data" }],
    });
    const { document, warnings } = exportLangGraphGraph(wf);
    expect(document.nodes.slice(1, 3)).toStrictEqual([
      { id: "search_tool", type: "runnable", data: { id: CHAT_MODEL, name: "search_tool" } },
      { id: "fetch-tool", type: "runnable", data: { id: CHAT_MODEL, name: "fetch tool" } },
    ]);
    expect(codes(warnings)).toEqual([["NOT_EXPORTABLE", "/autonomyLevel"]]);
    expect(importLangGraphGraph(document).workflow).toStrictEqual(wf);
  });

  it("a subgraph the importer read as a tool is written back as a compiled graph, and read back so", () => {
    const sub = {
      id: "worker",
      type: "tool",
      config: { usesTool: "tool:langgraph.subgraph@0.0.0" },
    };
    const wf = workflow({
      nodes: [sub as AgentWorkflow["nodes"][number], llm("post")],
      edges: [{ from: "worker", to: "post", edgeType: "data" }],
    });
    const { document, warnings } = exportLangGraphGraph(wf);
    expect(document.nodes[1]).toStrictEqual({
      id: "worker",
      type: "runnable",
      data: { id: ["langgraph", "pregel", "CompiledStateGraph"], name: "worker" },
    });
    expect(codes(warnings)).toEqual([["NOT_EXPORTABLE", "/autonomyLevel"]]);
    expect(importLangGraphGraph(document).workflow).toStrictEqual(wf);
  });

  it("a name that does not spell the node id is declared: an import would not keep it", () => {
    const wf = workflow({ nodes: [llm("search-tool", "search_tool")] });
    const { document, warnings } = exportLangGraphGraph(wf);
    expect(document.nodes[1]).toMatchObject({ id: "search-tool", data: { name: "search_tool" } });
    expect(warnings.find((w) => w.path === "/nodes/0/name")).toMatchObject({
      code: "NOT_EXPORTABLE",
      data: { nodeId: "search-tool", name: "search_tool" },
    });
    expect(importLangGraphGraph(document).workflow.nodes[0]?.name).toBeUndefined();
  });

  it("a decision no single step leads to is a routing step of its own, declared", () => {
    const wf = workflow({
      nodes: [
        llm("a"),
        llm("b"),
        {
          id: "d",
          type: "decision",
          config: {
            conditionLanguage: "text",
            cases: [{ condition: "again", next: "a" }],
            otherwise: { next: "end" },
          },
        },
      ],
      // `b` runs after `a`, so that both run: a step the drawing reaches by no edge is read as
      // a router's branch
      edges: [
        { from: "a", to: "b", edgeType: "data" },
        { from: "a", to: "d", edgeType: "data" },
        { from: "b", to: "d", edgeType: "data" },
        { from: "d", to: "a", edgeType: "data", when: "again" },
      ],
    });
    const { document, warnings } = exportLangGraphGraph(wf);
    // it runs nothing: written as a chat model so that it reads back as a step with no effect
    expect(document.nodes[3]).toStrictEqual({
      id: "d",
      type: "runnable",
      data: { id: CHAT_MODEL, name: "d" },
    });
    expect(document.edges).toStrictEqual([
      { source: "__start__", target: "a" },
      { source: "a", target: "b" },
      { source: "a", target: "d" },
      { source: "b", target: "d" },
      { source: "d", target: "a", data: "again", conditional: true },
      { source: "d", target: "__end__", data: "__end__", conditional: true },
    ]);
    expect(codes(warnings)).toEqual([
      ["NOT_EXPORTABLE", "/autonomyLevel"],
      ["NOT_EXPORTABLE", "/nodes/2"],
    ]);
    const back = importLangGraphGraph(document).workflow;
    expect(back.nodes.map((n) => [n.id, n.type])).toEqual([
      ["a", "llm"],
      ["b", "llm"],
      ["d", "llm"],
      ["d.route", "decision"],
    ]);
  });
});

describe("exportLangGraphGraph: declared losses", () => {
  it("identity, schemas, config, decorators, names of routers, conditions and edges", () => {
    const wf = workflow({
      id: "agnt-x",
      version: "1.0.0",
      description: "d",
      nodes: [
        {
          id: "plan_step",
          type: "llm",
          config: { model: "gpt-4o", promptRef: "prm:plan_step@0.0.0" },
          decorators: [{ type: "memory", scope: "short" }],
        },
        {
          id: "dec",
          type: "decision",
          name: "Done?",
          config: {
            condition: "output.done = true",
            onTrue: { next: "end" },
            onFalse: { next: "plan_step", maxRetries: 2 },
          },
        },
      ],
      edges: [
        { from: "plan_step", to: "dec", edgeType: "toolCall", when: "check" },
        { from: "plan_step", to: "agnt-y@1.0.0", edgeType: "delegate" },
      ],
    });
    const { document, warnings } = exportLangGraphGraph(wf);
    expect(codes(warnings)).toEqual([
      ["NOT_EXPORTABLE", "/autonomyLevel"],
      ["NOT_EXPORTABLE", "/id"],
      ["NOT_EXPORTABLE", "/version"],
      ["NOT_EXPORTABLE", "/description"],
      ["NOT_EXPORTABLE", "/nodes/0/decorators"],
      ["NOT_EXPORTABLE", "/nodes/0/config/model"],
      ["NOT_EXPORTABLE", "/nodes/1/id"],
      ["NOT_EXPORTABLE", "/nodes/1/name"],
      ["NOT_EXPORTABLE", "/edges/0/when"],
      ["NOT_EXPORTABLE", "/nodes/1/config/onFalse/maxRetries"],
      ["NOT_EXPORTABLE", "/nodes/1/config/conditionLanguage"],
      ["NOT_EXPORTABLE", "/edges/1"],
    ]);
    expect(document.edges).toStrictEqual([
      { source: "__start__", target: "plan_step" },
      { source: "plan_step", target: "__end__", data: "output.done = true", conditional: true },
      { source: "plan_step", target: "plan_step", data: "plan_step", conditional: true },
    ]);
  });
});

describe.each(listTemplates().map((t) => t.id))("template %s", (id) => {
  it("exports a graph that re-imports with the same steps and a router per decision", () => {
    const wf = getTemplate(id);
    if (wf === undefined) throw new Error(`no template ${id}`);
    const { document, warnings } = exportLangGraphGraph(wf);
    expect(detectLangGraphGraph(document)).toBe(true);
    expect(codes(warnings)[0]).toEqual(["NOT_EXPORTABLE", "/autonomyLevel"]);
    expect(warnings.every((w) => w.code === "NOT_EXPORTABLE")).toBe(true);
    const back = importLangGraphGraph(document).workflow;
    const steps = (w: AgentWorkflow): string[][] =>
      w.nodes.filter((n) => n.type !== "decision").map((n) => [n.id, n.type]);
    expect(steps(back)).toEqual(steps(wf));
    expect(back.nodes.filter((n) => n.type === "decision")).toHaveLength(
      wf.nodes.filter((n) => n.type === "decision").length,
    );
    expect(back.autonomyLevel).toBe(wf.autonomyLevel);
  });
});
