/**
 * LangGraph's native drawable graph: each real fixture imports to the exact nodes, edges, level
 * and warnings; every guess is declared; malformed input fails with its path; detection is precise.
 */
import { describe, expect, it } from "vitest";
import {
  detectLangGraphGraph,
  importLangGraphGraph,
} from "../../src/interop/langgraph-graph/index.js";
import type { AgentEdge, AgentNode } from "../../src/model/index.js";
import { parseWorkflow } from "../../src/model/index.js";
import { codes, readFixture } from "./helpers.js";

const DIR = "langgraph-graph/";

/** fixture, autonomyLevel, nodes, edges, warnings as [code, path]. */
const TABLE: [string, number, AgentNode[], AgentEdge[], [string, string][]][] = [
  [
    "py-to_json-conditional-entrypoint.json",
    3,
    [
      {
        id: "start.route",
        type: "decision",
        config: {
          conditionLanguage: "text",
          cases: [{ condition: "go-left", next: "left" }],
          otherwise: { next: "right" },
        },
      },
      { id: "left", type: "tool", config: { usesTool: "tool:langgraph.node.left@0.0.0" } },
      { id: "right", type: "tool", config: { usesTool: "tool:langgraph.node.right@0.0.0" } },
    ],
    [
      { from: "start.route", to: "left", edgeType: "data", when: "go-left" },
      { from: "start.route", to: "right", edgeType: "data", when: "go-right" },
    ],
    [
      ["HEURISTIC", ""],
      ["HEURISTIC", "/nodes/1/type"],
      ["HEURISTIC", "/nodes/2/type"],
      ["HEURISTIC", "/nodes/0"],
      ["HEURISTIC", "/edges/2/conditional"],
    ],
  ],
  [
    "py-to_json-human-agent-loop.json",
    2,
    [
      { id: "human", type: "tool", config: { usesTool: "tool:langgraph.node.human@0.0.0" } },
      { id: "agent", type: "tool", config: { usesTool: "tool:langgraph.node.agent@0.0.0" } },
    ],
    [
      { from: "agent", to: "human", edgeType: "data" },
      { from: "human", to: "agent", edgeType: "data" },
    ],
    [
      ["HEURISTIC", ""],
      ["HEURISTIC", "/nodes/1/type"],
      ["HEURISTIC", "/nodes/2/type"],
      ["HEURISTIC", "/edges/3/conditional"],
      ["FIELD_DROPPED", "/edges/3"],
    ],
  ],
  [
    "py-to_json-prebuilt-react-agent-toolnode.json",
    2,
    [
      { id: "agent", type: "tool", config: { usesTool: "tool:langgraph.node.agent@0.0.0" } },
      {
        id: "agent.route",
        type: "decision",
        config: {
          conditionLanguage: "text",
          cases: [{ condition: "__end__", next: "end" }],
          otherwise: { next: "tools" },
        },
      },
      { id: "tools", type: "tool", config: { usesTool: "tool:tools@0.0.0" } },
    ],
    [
      { from: "agent", to: "agent.route", edgeType: "data" },
      { from: "agent.route", to: "tools", edgeType: "data", when: "tools" },
      { from: "tools", to: "agent", edgeType: "data" },
    ],
    [
      ["HEURISTIC", ""],
      ["HEURISTIC", "/nodes/1/type"],
      ["HEURISTIC", "/nodes/2/data"],
      ["HEURISTIC", "/edges/1/data"],
      ["HEURISTIC", "/edges/2/data"],
      ["HEURISTIC", "/nodes/1"],
    ],
  ],
  [
    "js-getGraphAsync-toJSON-interrupt-before.generated.json",
    2,
    [
      {
        id: "write_draft",
        type: "tool",
        config: { usesTool: "tool:langgraph.node.write_draft@0.0.0" },
      },
      {
        id: "write_draft.route",
        type: "decision",
        config: {
          conditionLanguage: "text",
          cases: [{ condition: "review", next: "human_review" }],
          otherwise: { next: "search_tool" },
        },
      },
      {
        id: "search_tool",
        type: "tool",
        config: { usesTool: "tool:search_tool@0.0.0" },
      },
      {
        id: "human_review",
        type: "tool",
        config: { usesTool: "tool:langgraph.node.human_review@0.0.0" },
      },
    ],
    [
      { from: "search_tool", to: "write_draft", edgeType: "data" },
      { from: "write_draft", to: "write_draft.route", edgeType: "data" },
      { from: "write_draft.route", to: "human_review", edgeType: "data", when: "review" },
      { from: "write_draft.route", to: "search_tool", edgeType: "data", when: "search" },
    ],
    [
      ["FIELD_DROPPED", "/nodes/3/metadata/__interrupt"],
      ["HEURISTIC", ""],
      ["HEURISTIC", "/nodes/1/type"],
      ["HEURISTIC", "/nodes/2/id"],
      ["HEURISTIC", "/nodes/2/data"],
      ["HEURISTIC", "/nodes/3/type"],
      ["HEURISTIC", "/nodes/1"],
    ],
  ],
  [
    "platform-get_graph-sdk-docstring-example.json",
    1,
    [{ id: "agent", type: "tool", config: { usesTool: "tool:langgraph.node.agent@0.0.0" } }],
    [],
    [
      ["HEURISTIC", ""],
      ["HEURISTIC", "/nodes/2/type"],
    ],
  ],
];

describe("importLangGraphGraph: the real fixtures", () => {
  it.each(TABLE)("%s", (file, level, nodes, edges, warnings) => {
    const doc = readFixture(DIR + file);
    expect(detectLangGraphGraph(doc)).toBe(true);
    const result = importLangGraphGraph(doc);
    expect(result.workflow).toStrictEqual({
      kind: "AgentWorkflow",
      id: "langgraph-graph",
      version: "0.0.0",
      name: "LangGraph graph",
      autonomyLevel: level,
      inputSchema: { state: "any" },
      outputSchema: { state: "any" },
      nodes,
      edges,
    });
    expect(codes(result.warnings)).toEqual(warnings);
    const errors = parseWorkflow(result.workflow).diagnostics.filter((d) => d.severity === "error");
    expect(errors).toEqual([]);
  });

  it("declares the interrupt, the classification and the synthesised refs with their data", () => {
    const { warnings } = importLangGraphGraph(readFixture(`${DIR}${TABLE[3]?.[0] ?? ""}`));
    expect(warnings.find((w) => w.path === "/nodes/3/metadata/__interrupt")?.data).toEqual({
      nodeId: "human_review",
      key: "__interrupt",
      interrupt: "before",
    });
    expect(warnings.find((w) => w.path === "/nodes/2/id" && w.code === "HEURISTIC")?.data).toEqual({
      nodeId: "search_tool",
      assumed: "tool",
    });
    expect(warnings.find((w) => w.path === "/nodes/2/data")?.data).toEqual({
      nodeId: "search_tool",
      assumed: { usesTool: "tool:search_tool@0.0.0" },
    });
    // a function node, the human pause's included: a tool on tool:langgraph.node.<id>, one warning
    expect(warnings.find((w) => w.path === "/nodes/3/type")?.data).toEqual({
      nodeId: "human_review",
      assumed: "tool:langgraph.node.human_review@0.0.0",
      className: "RunnableCallable",
    });
    expect(warnings.filter((w) => w.path.startsWith("/nodes/3/")).map((w) => w.path)).toEqual([
      "/nodes/3/metadata/__interrupt",
      "/nodes/3/type",
    ]);
    // a router read as one choice says so: the drawing cannot show several branches at once
    expect(warnings.find((w) => w.path === "/nodes/1" && w.code === "HEURISTIC")?.data).toEqual({
      nodeId: "write_draft.route",
      from: "write_draft",
      otherwise: "search",
      branches: "one",
    });
  });
});

interface G {
  nodes: unknown[];
  edges: unknown[];
}
/** A runnable node of class `langgraph.<cls>`, or of the class path `cls`. */
const runnable = (
  id: unknown,
  cls: string | readonly string[] = "RunnableCallable",
): Record<string, unknown> => ({
  id,
  type: "runnable",
  data: { id: typeof cls === "string" ? ["langgraph", cls] : cls, name: String(id) },
});
/** Chat models' class paths as `to_json()` writes them (the serialisation namespace). */
const CHAT_OPENAI = ["langchain", "chat_models", "openai", "ChatOpenAI"];
const CHAT_ANTHROPIC = ["langchain", "chat_models", "anthropic", "ChatAnthropic"];
const edge = (source: unknown, target: unknown, extra: Record<string, unknown> = {}) => ({
  source,
  target,
  ...extra,
});
const graph = (nodes: unknown[], edges: unknown[]): G => ({
  nodes: [{ id: "__start__" }, ...nodes, { id: "__end__" }],
  edges,
});

describe("importLangGraphGraph: mapping rules", () => {
  it("chat models are llm and ToolNodes tool without a classification guess", () => {
    const doc = graph(
      [runnable("model", CHAT_OPENAI), runnable("act", "ToolNode")],
      [edge("__start__", "model"), edge("model", "act"), edge("act", "__end__")],
    );
    const { workflow, warnings } = importLangGraphGraph(doc);
    expect(workflow.nodes.map((n) => [n.id, n.type])).toEqual([
      ["model", "llm"],
      ["act", "tool"],
    ]);
    expect(codes(warnings)).toEqual([
      ["HEURISTIC", ""],
      ["HEURISTIC", "/nodes/1/data"],
      ["HEURISTIC", "/nodes/2/data"],
    ]);
  });

  // A function node is code the graph does not show: it may call a model or move money. Its ref is
  // of the family a reader of facts knows may call any model (src/model/unstated-model.ts).
  it.each([
    [
      "a RunnableCallable",
      { id: "pay", type: "runnable", data: { id: ["langgraph", "RunnableCallable"], name: "pay" } },
      { className: "RunnableCallable" },
    ],
    [
      "a runnable of another class",
      { id: "pay", type: "runnable", data: { id: ["app", "Payer"], name: "pay" } },
      { className: "Payer" },
    ],
    ["a runnable with no class path", { id: "pay", type: "runnable", data: { name: "pay" } }, {}],
    ["an unknown node", { id: "pay", type: "unknown" }, {}],
    ["a typeless node", { id: "pay" }, {}],
    [
      "a human node",
      {
        id: "human",
        type: "runnable",
        data: { id: ["langgraph", "RunnableCallable"], name: "human" },
      },
      { className: "RunnableCallable" },
    ],
  ])(
    "%s is a tool on tool:langgraph.node.<id>@0.0.0, whose effect and models are unknown: one warning at its type",
    (_name, node, cls) => {
      const id = node.id;
      const { workflow, warnings } = importLangGraphGraph(graph([node], [edge("__start__", id)]));
      expect(workflow.nodes).toEqual([
        { id, type: "tool", config: { usesTool: `tool:langgraph.node.${id}@0.0.0` } },
      ]);
      expect(codes(warnings).filter(([, path]) => path.startsWith("/nodes/1"))).toEqual([
        ["HEURISTIC", "/nodes/1/type"],
      ]);
      const w = warnings.find((x) => x.path === "/nodes/1/type");
      expect(w?.data).toEqual({ nodeId: id, assumed: `tool:langgraph.node.${id}@0.0.0`, ...cls });
      expect(w?.message).toContain("may call a model, tools, or anything");
      expect(w?.message).toContain(`'tool:langgraph.node.${id}@0.0.0' must state its effect`);
      expect(w?.message).toContain("the models it may call are unknown");
    },
  );

  it("only a chat model's class path reads as an llm; a ToolNode and a tool name read as before", () => {
    const doc = graph(
      [
        runnable("draft", CHAT_ANTHROPIC),
        runnable("plan", "RunnableCallable"),
        runnable("act", "ToolNode"),
        runnable("web_search_tool"),
      ],
      [
        edge("__start__", "draft"),
        edge("draft", "plan"),
        edge("plan", "act"),
        edge("act", "web_search_tool"),
      ],
    );
    const { workflow, warnings } = importLangGraphGraph(doc);
    expect(workflow.nodes.map((n) => [n.id, n.type, n.config])).toEqual([
      ["draft", "llm", { model: "unspecified", promptRef: "prm:draft@0.0.0" }],
      ["plan", "tool", { usesTool: "tool:langgraph.node.plan@0.0.0" }],
      ["act", "tool", { usesTool: "tool:act@0.0.0" }],
      ["web_search_tool", "tool", { usesTool: "tool:web_search_tool@0.0.0" }],
    ]);
    expect(codes(warnings)).toEqual([
      ["HEURISTIC", ""],
      ["HEURISTIC", "/nodes/1/data"],
      ["HEURISTIC", "/nodes/2/type"],
      ["HEURISTIC", "/nodes/3/data"],
      ["HEURISTIC", "/nodes/4/id"],
      ["HEURISTIC", "/nodes/4/data"],
    ]);
  });

  it("the inserted start of a parallel entry runs nothing: it stays an llm step", () => {
    const doc = graph(
      [runnable("a"), runnable("b")],
      [edge("__start__", "a"), edge("__start__", "b")],
    );
    const { workflow } = importLangGraphGraph(doc);
    expect(workflow.nodes.map((n) => [n.id, n.type, n.config])).toEqual([
      ["start", "llm", { model: "unspecified", promptRef: "prm:start@0.0.0" }],
      ["a", "tool", { usesTool: "tool:langgraph.node.a@0.0.0" }],
      ["b", "tool", { usesTool: "tool:langgraph.node.b@0.0.0" }],
    ]);
  });

  it.each(["CompiledStateGraph", "CompiledGraph", "Pregel", "RemoteGraph"])(
    "a compiled subgraph drawn whole (%s) is a tool on the subgraph ref, whose effect is unknown",
    (cls) => {
      const doc = graph(
        [runnable("worker", cls), runnable("post")],
        [edge("__start__", "worker"), edge("worker", "post"), edge("post", "__end__")],
      );
      const { workflow, warnings } = importLangGraphGraph(doc);
      expect(workflow.nodes[0]).toEqual({
        id: "worker",
        type: "tool",
        config: { usesTool: "tool:langgraph.subgraph@0.0.0" },
      });
      // one warning for it, at its type (`__start__` is node 0): no per-node placeholder at /data
      expect(codes(warnings).filter(([, path]) => path.startsWith("/nodes/1/"))).toEqual([
        ["HEURISTIC", "/nodes/1/type"],
      ]);
      expect(warnings.find((w) => w.path === "/nodes/1/type")?.data).toEqual({
        nodeId: "worker",
        assumed: "tool:langgraph.subgraph@0.0.0",
        subgraph: cls,
      });
    },
  );

  it("ids: names that are ids keep themselves; numbers, clashes and 'end' map deterministically", () => {
    const doc = graph(
      [
        runnable(7),
        runnable("a b"),
        runnable("a_b"),
        runnable("a-b"),
        runnable("end"),
        runnable("sub:x_y"),
      ],
      [
        edge("__start__", 7),
        edge(7, "a b"),
        edge("a b", "a_b"),
        edge("a_b", "a-b"),
        edge("a-b", "end"),
        edge("end", "sub:x_y"),
      ],
    );
    const { workflow, warnings } = importLangGraphGraph(doc);
    expect(workflow.nodes.map((n) => [n.id, n.name])).toEqual([
      ["node-7", "7"],
      // `a-b` is an id already and keeps it; the name that rewrites to it moves
      ["a-b-2", "a b"],
      ["a_b", undefined],
      ["a-b", undefined],
      // `end` is the route keyword: never a node id, never the end of the run
      ["end-2", "end"],
      ["sub:x_y", undefined],
    ]);
    expect(workflow.edges.map((e) => `${e.from} -> ${e.to}`)).toEqual([
      "node-7 -> a-b-2",
      "a-b-2 -> a_b",
      "a_b -> a-b",
      "a-b -> end-2",
      "end-2 -> sub:x_y",
    ]);
    expect(warnings.filter((w) => w.code === "VALUE_NORMALIZED").map((w) => w.data)).toEqual([
      { from: 7, to: "node-7", reason: "invalid" },
      { from: "a b", to: "a-b-2", reason: "invalid" },
      { from: "end", to: "end-2", reason: "reserved" },
    ]);
    const renamed = warnings.find((w) => w.path === "/nodes/5/id" && w.code === "VALUE_NORMALIZED");
    expect(renamed?.message).toContain("'end'");
    expect(renamed?.message).toContain("'end-2'");
    expect(warnings.find((w) => w.path === "/nodes/6/id" && w.code === "HEURISTIC")?.data).toEqual({
      nodeId: "sub:x_y",
      subgraph: "sub",
    });
  });

  it("parallel fan-out and unread keys are declared", () => {
    const doc = {
      ...graph(
        [runnable("a"), runnable("b"), runnable("c")],
        [
          edge("__start__", "a", { weight: 1 }),
          edge("a", "b"),
          edge("a", "c"),
          edge("b", "__end__"),
        ],
      ),
      checkpointer: {},
    };
    const { warnings } = importLangGraphGraph(doc);
    expect(codes(warnings)).toContainEqual(["FIELD_DROPPED", "/checkpointer"]);
    expect(codes(warnings)).toContainEqual(["FIELD_DROPPED", "/edges/0/weight"]);
    expect(warnings.find((w) => w.path === "/nodes/1")?.data).toEqual({
      nodeId: "a",
      successors: ["b", "c"],
    });
  });

  it("subgraph sentinels are inlined: a router on a subgraph's entry routes after the step before", () => {
    const doc = graph(
      [
        runnable("plan"),
        { id: "sub:__start__", type: "schema" },
        runnable("sub:a"),
        runnable("sub:b"),
        { id: "sub:__end__", type: "schema" },
        { id: "dead:__end__", type: "schema" },
      ],
      [
        edge("__start__", "plan"),
        edge("plan", "sub:__start__"),
        edge("sub:__start__", "sub:a", { conditional: true, data: "left" }),
        edge("sub:__start__", "sub:b", { conditional: true, data: "right" }),
        edge("sub:a", "sub:__end__"),
        edge("sub:b", "sub:__end__"),
        edge("sub:__end__", "__end__"),
        edge("dead:__end__", "plan"),
      ],
    );
    const { workflow, warnings } = importLangGraphGraph(doc);
    // the router leaving the subgraph's entry is its own decision, after the step before it
    expect(workflow.nodes.map((n) => n.id)).toEqual(["plan", "sub:start.route", "sub:a", "sub:b"]);
    expect(workflow.nodes[1]?.config).toEqual({
      conditionLanguage: "text",
      cases: [{ condition: "left", next: "sub:a" }],
      otherwise: { next: "sub:b" },
    });
    expect(workflow.edges[0]).toEqual({ from: "plan", to: "sub:start.route", edgeType: "data" });
    expect(warnings.find((w) => w.path === "/nodes/2/id")?.data).toEqual({
      nodeId: "sub:__start__",
      subgraph: "sub",
      role: "entry",
      router: true,
    });
    expect(warnings.find((w) => w.path === "/nodes/5/id")?.data).toMatchObject({ role: "exit" });
    expect(warnings.find((w) => w.path === "/edges/7")).toMatchObject({
      code: "FIELD_DROPPED",
      data: { from: "dead:__end__", to: "plan" },
    });
  });

  it.each([
    [
      "a changed id keeps the LangGraph id; another data.name is declared",
      "writer team",
      "LangGraph",
      "writer team",
      true,
    ],
    ["a kept id drops another data.name, declared", "writer_team", "LangGraph", undefined, true],
    [
      "an unchanged id keeps a data.name that spells it",
      "fetch-data",
      "fetch data",
      "fetch data",
      false,
    ],
    ["an unchanged id drops a data.name that does not", "tools", "func", undefined, true],
    ["a data.name equal to the last id segment says nothing", "sub:x_y", "x_y", undefined, false],
  ])("%s", (_name, id, dataName, name, declared) => {
    const doc = graph(
      [{ id, type: "runnable", data: { id: ["x"], name: dataName } }],
      [edge("__start__", id)],
    );
    const { workflow, warnings } = importLangGraphGraph(doc);
    expect(workflow.nodes[0]?.name).toBe(name);
    const w = warnings.find((x) => x.path === "/nodes/1/data/name");
    expect(w?.code).toBe(declared ? "FIELD_DROPPED" : undefined);
    if (declared) expect(w?.data).toMatchObject({ key: "name", name: dataName });
  });

  it("a parallel entry beside a router: the inserted start step leads to the router and the step", () => {
    const doc = graph(
      [runnable("a"), runnable("b"), runnable("c")],
      [
        edge("__start__", "a", { conditional: true, data: "x" }),
        edge("__start__", "b", { conditional: true, data: "y" }),
        edge("__start__", "c"),
      ],
    );
    const { workflow, warnings } = importLangGraphGraph(doc);
    expect(workflow.nodes.map((n) => n.id)).toEqual(["start", "start.route", "a", "b", "c"]);
    expect(workflow.edges).toEqual([
      { from: "start", to: "start.route", edgeType: "data" },
      { from: "start.route", to: "a", edgeType: "data", when: "x" },
      { from: "start.route", to: "b", edgeType: "data", when: "y" },
      { from: "start", to: "c", edgeType: "data" },
    ]);
    expect(
      warnings.find((w) => w.path === "/nodes/0" && "successors" in (w.data ?? {}))?.data,
    ).toMatchObject({
      nodeId: "start",
      successors: ["start.route", "c"],
    });
  });
});
