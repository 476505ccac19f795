/**
 * Contract tests against the real LangGraph.js (`@langchain/langgraph` 1.7.3, `@langchain/core`
 * 1.4.0): graphs built with the public API, exported as a user would
 * (`(await graph.getGraphAsync({ xray })).toJSON()`), imported; every node and edge of the export
 * survives in the workflow, or a warning names it.
 */
import { tool } from "@langchain/core/tools";
import { FakeStreamingChatModel } from "@langchain/core/utils/testing";
import {
  Annotation,
  Command,
  END,
  MemorySaver,
  Send,
  START,
  StateGraph,
} from "@langchain/langgraph";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { describe, expect, it } from "vitest";
import {
  detectLangGraphGraph,
  importLangGraphGraph,
} from "../../src/interop/langgraph-graph/index.js";
import type { ImportResult } from "../../src/interop/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { decisionRoutes, parseWorkflow } from "../../src/model/index.js";

const State = Annotation.Root({
  x: Annotation<number>({ reducer: (_a: number, b: number) => b, default: () => 0 }),
});
const step = (): Record<string, never> => ({});
const pick = (): string => "a";

interface Exported {
  nodes: { id: string | number; type?: string; data?: unknown }[];
  edges: {
    source: string | number;
    target: string | number;
    data?: string;
    conditional?: boolean;
  }[];
}

interface Drawable {
  getGraphAsync(config?: { xray?: boolean | number }): Promise<{ toJSON(): unknown }>;
}

/** What a user does: draw the compiled graph and serialise it. */
async function exportOf(graph: Drawable, xray: boolean | number = false): Promise<Exported> {
  const doc = JSON.parse(
    JSON.stringify((await graph.getGraphAsync({ xray })).toJSON()),
  ) as Exported;
  expect(detectLangGraphGraph(doc)).toBe(true);
  return doc;
}

const isSentinel = (id: string): boolean => /(^|:)__(start|end)__$/.test(id);

/** The agentflow node standing for a LangGraph id: same id, or its LangGraph id as `name`. */
function nodeFor(wf: AgentWorkflow, raw: string): string | undefined {
  return wf.nodes.find((n) => (n.name ?? n.id) === raw && n.type !== "decision")?.id;
}

/** Every flow successor (edges and routes) of each node, `"end"` included. */
function successors(wf: AgentWorkflow): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const add = (a: string, b: string): void => {
    out.set(a, (out.get(a) ?? new Set()).add(b));
  };
  for (const e of wf.edges) add(e.from, e.to);
  for (const n of wf.nodes)
    if (n.type === "decision") for (const r of decisionRoutes(n.config)) add(n.id, r.next);
  return out;
}

/** Whether `to` follows `from` directly or through one router decision. */
function leadsTo(succ: Map<string, Set<string>>, from: string, to: string): boolean {
  const next = succ.get(from) ?? new Set<string>();
  if (next.has(to)) return true;
  return [...next].some((d) => d.endsWith(".route") && (succ.get(d)?.has(to) ?? false));
}

/**
 * Every step survives as a node; every edge between steps survives as a flow edge or route; an
 * edge into `__end__` ends the run (no successor, or a route to end) or is declared dropped;
 * every subgraph sentinel is declared at its node. Returns the import for specific assertions.
 */
function importWhole(doc: Exported): ImportResult {
  const result = importLangGraphGraph(doc);
  const wf = result.workflow;
  expect(parseWorkflow(wf).diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const at = (path: string): string[] =>
    result.warnings.filter((w) => w.path === path).map((w) => w.code);
  doc.nodes.forEach((n, i) => {
    const raw = String(n.id);
    if (/:__(start|end)__$/.test(raw)) expect(at(`/nodes/${String(i)}/id`)).toContain("HEURISTIC");
    else if (!isSentinel(raw)) expect(nodeFor(wf, raw), raw).toBeDefined();
  });
  const succ = successors(wf);
  // Edges through a subgraph sentinel are checked from step to step, the way the import joins them.
  const resolved = new Map<string, string[]>();
  for (const e of doc.edges) {
    const s = String(e.source);
    if (/:__(start|end)__$/.test(s))
      resolved.set(s, [...(resolved.get(s) ?? []), String(e.target)]);
  }
  const ends = (raw: string): string[] => {
    const stack = [raw];
    const found: string[] = [];
    while (stack.length > 0) {
      const t = stack.pop() ?? "";
      if (/:__(start|end)__$/.test(t)) stack.push(...(resolved.get(t) ?? []));
      else found.push(t);
    }
    return found;
  };
  doc.edges.forEach((e, i) => {
    const s = String(e.source);
    if (/:__(start|end)__$/.test(s)) return;
    for (const t of ends(String(e.target))) {
      const from = s === "__start__" ? undefined : nodeFor(wf, s);
      if (t === "__end__") {
        const ok =
          from === undefined ||
          (succ.get(from)?.size ?? 0) === 0 ||
          leadsTo(succ, from, "end") ||
          at(`/edges/${String(i)}`).includes("FIELD_DROPPED");
        expect(ok, `${s} -> __end__`).toBe(true);
        continue;
      }
      const to = nodeFor(wf, t) ?? "";
      if (from === undefined) {
        const entry = wf.nodes[0]?.id ?? "";
        expect(entry === to || leadsTo(succ, entry, to), `__start__ -> ${t}`).toBe(true);
      } else expect(leadsTo(succ, from, to), `${s} -> ${t}`).toBe(true);
    }
  });
  return result;
}

const codesAt = (r: ImportResult, path: string): string[] =>
  r.warnings.filter((w) => w.path === path).map((w) => w.code);
const indexOf = (doc: Exported, id: string): number => doc.nodes.findIndex((n) => n.id === id);

/** A subgraph that xray cannot trim (a parallel entry, two exits): it keeps its sentinels. */
function forkedTeam() {
  return new StateGraph(State)
    .addNode("d1", step)
    .addNode("d2", step)
    .addEdge(START, "d1")
    .addEdge(START, "d2")
    .addEdge("d1", END)
    .addEdge("d2", END)
    .compile();
}

function nestedGraph() {
  const inner = new StateGraph(State)
    .addNode("research", step)
    .addNode("team", forkedTeam())
    .addNode("write", step)
    .addEdge(START, "research")
    .addEdge("research", "team")
    .addEdge("team", "write")
    .addEdge("write", END)
    .compile();
  return new StateGraph(State)
    .addNode("plan", step)
    .addNode("writer_team", inner)
    .addNode("after", step)
    .addEdge(START, "plan")
    .addEdge("plan", "writer_team")
    .addEdge("writer_team", "after")
    .addEdge("after", END)
    .compile();
}

describe("LangGraph.js 1.7 exports import whole", () => {
  it("a linear graph: ids, no name, plain edges", async () => {
    const g = new StateGraph(State)
      .addNode("fetch", step)
      .addNode("summarise", step)
      .addEdge(START, "fetch")
      .addEdge("fetch", "summarise")
      .addEdge("summarise", END)
      .compile();
    const doc = await exportOf(g);
    const r = importWhole(doc);
    // function nodes: code the graph does not show, each a tool on tool:langgraph.node.<id> (effect
    // and models unknown)
    expect(r.workflow.nodes.map((n) => [n.id, n.type, n.name, n.config])).toEqual([
      ["fetch", "tool", undefined, { usesTool: "tool:langgraph.node.fetch@0.0.0" }],
      ["summarise", "tool", undefined, { usesTool: "tool:langgraph.node.summarise@0.0.0" }],
    ]);
    expect(
      r.warnings.find((w) => w.path === `/nodes/${String(indexOf(doc, "fetch"))}/type`),
    ).toMatchObject({
      code: "HEURISTIC",
      data: { nodeId: "fetch", assumed: "tool:langgraph.node.fetch@0.0.0" },
    });
    expect(r.workflow.edges).toEqual([{ from: "fetch", to: "summarise", edgeType: "data" }]);
  });

  it.each<[string, Record<string, "a" | "b"> | undefined, unknown]>([
    [
      "with a path map",
      { yes: "a", no: "b" },
      {
        conditionLanguage: "text",
        cases: [{ condition: "yes", next: "a" }],
        otherwise: { next: "b" },
      },
    ],
    [
      "without a path map",
      undefined,
      {
        conditionLanguage: "text",
        cases: [
          { condition: "a", next: "a" },
          { condition: "b", next: "b" },
        ],
        otherwise: { next: "end" },
      },
    ],
  ])(
    "conditional edges %s become a text decision over the branch labels",
    async (_n, map, config) => {
      const g = new StateGraph(State)
        .addNode("judge", step)
        .addNode("a", step)
        .addNode("b", step)
        .addEdge(START, "judge")
        .addConditionalEdges("judge", pick, map)
        .addEdge("a", END)
        .addEdge("b", END)
        .compile();
      const doc = await exportOf(g);
      const r = importWhole(doc);
      expect(r.workflow.nodes.find((n) => n.id === "judge.route")).toEqual({
        id: "judge.route",
        type: "decision",
        config,
      });
      expect(
        r.warnings.find((w) => w.path === `/nodes/${String(indexOf(doc, "judge"))}`),
      ).toMatchObject({
        code: "HEURISTIC",
        data: { nodeId: "judge.route", from: "judge" },
      });
    },
  );

  it("the ReAct loop: agent → router {tools, end}, tools → agent", async () => {
    const g = new StateGraph(State)
      .addNode("agent", step)
      .addNode("tools", step)
      .addEdge(START, "agent")
      .addConditionalEdges("agent", pick, ["tools", END])
      .addEdge("tools", "agent")
      .compile();
    const r = importWhole(await exportOf(g));
    expect(r.workflow.nodes.map((n) => [n.id, n.type])).toEqual([
      ["agent", "tool"],
      ["agent.route", "decision"],
      ["tools", "tool"],
    ]);
  });

  it("Command with ends: the declared destinations are conditional edges", async () => {
    const g = new StateGraph(State)
      .addNode("triage", () => new Command({ goto: "billing" }), { ends: ["billing", "support"] })
      .addNode("billing", step)
      .addNode("support", step)
      .addEdge(START, "triage")
      .addEdge("billing", END)
      .addEdge("support", END)
      .compile();
    const r = importWhole(await exportOf(g));
    expect(r.workflow.nodes.map((n) => n.id)).toEqual([
      "triage",
      "triage.route",
      "billing",
      "support",
    ]);
  });

  it("Send map-reduce: the fan-out router and the reduce step", async () => {
    const g = new StateGraph(State)
      .addNode("split", step)
      .addNode("map", step)
      .addNode("reduce", step)
      .addEdge(START, "split")
      .addConditionalEdges("split", () => [new Send("map", { x: 1 }), new Send("map", { x: 2 })], [
        "map",
      ])
      .addEdge("map", "reduce")
      .addEdge("reduce", END)
      .compile();
    const doc = await exportOf(g);
    const r = importWhole(doc);
    expect(r.workflow.edges).toContainEqual({ from: "map", to: "reduce", edgeType: "data" });
    expect(r.workflow.edges).toContainEqual({ from: "split", to: "map", edgeType: "data" });
  });

  it("xray false: a subgraph is one node that keeps its LangGraph id, not 'LangGraph'", async () => {
    const doc = await exportOf(nestedGraph(), false);
    const r = importWhole(doc);
    const i = indexOf(doc, "writer_team");
    // `writer_team` is an agentflow id already: it is kept as it is
    expect(r.workflow.nodes.find((n) => n.id === "writer_team")?.name).toBeUndefined();
    expect(r.workflow.nodes.some((n) => n.name === "LangGraph")).toBe(false);
    expect(r.warnings.find((w) => w.path === `/nodes/${String(i)}/data/name`)).toMatchObject({
      code: "FIELD_DROPPED",
      data: { nodeId: "writer_team", key: "name", name: "LangGraph" },
    });
    // its steps are hidden (they may loop and call tools): a tool whose effect no contract states
    expect(r.workflow.nodes.find((n) => n.id === "writer_team")).toMatchObject({
      type: "tool",
      config: { usesTool: "tool:langgraph.subgraph@0.0.0" },
    });
    expect(r.warnings.find((w) => w.path === `/nodes/${String(i)}/type`)).toMatchObject({
      code: "HEURISTIC",
      data: { nodeId: "writer_team", subgraph: "CompiledStateGraph" },
    });
  });

  it("xray 1: prefixed ids are the subgraph's steps; the nested subgraph stays one node", async () => {
    const doc = await exportOf(nestedGraph(), 1);
    const r = importWhole(doc);
    expect(r.workflow.nodes.map((n) => [n.id, n.name])).toEqual([
      ["plan", undefined],
      ["writer_team:research", undefined],
      ["writer_team:team", undefined],
      ["writer_team:write", undefined],
      ["after", undefined],
    ]);
  });

  it("xray true, nested: the subgraph sentinels are inlined as its entry and exit", async () => {
    const doc = await exportOf(nestedGraph(), true);
    expect(doc.nodes.map((n) => n.id)).toContain("writer_team:team:__start__");
    const r = importWhole(doc);
    const wf = r.workflow;
    expect(wf.nodes.map((n) => n.id)).toEqual([
      "plan",
      "writer_team:research",
      "writer_team:team:d1",
      "writer_team:team:d2",
      "writer_team:write",
      "after",
    ]);
    expect(wf.edges).toEqual(
      expect.arrayContaining([
        { from: "writer_team:research", to: "writer_team:team:d1", edgeType: "data" },
        { from: "writer_team:research", to: "writer_team:team:d2", edgeType: "data" },
        { from: "writer_team:team:d1", to: "writer_team:write", edgeType: "data" },
        { from: "writer_team:team:d2", to: "writer_team:write", edgeType: "data" },
      ]),
    );
    for (const [sentinel, role] of [
      ["writer_team:team:__start__", "entry"],
      ["writer_team:team:__end__", "exit"],
    ] as const) {
      const w = r.warnings.find((x) => x.path === `/nodes/${String(indexOf(doc, sentinel))}/id`);
      expect(w).toMatchObject({
        code: "HEURISTIC",
        data: { nodeId: sentinel, subgraph: "writer_team:team", role },
      });
    }
  });

  it("interrupts are declared at each node's metadata", async () => {
    const g = new StateGraph(State)
      .addNode("draft", step)
      .addNode("review", step)
      .addEdge(START, "draft")
      .addEdge("draft", "review")
      .addEdge("review", END)
      .compile({
        checkpointer: new MemorySaver(),
        interruptBefore: ["review"],
        interruptAfter: ["draft"],
      });
    const doc = await exportOf(g);
    const r = importWhole(doc);
    for (const [id, when] of [
      ["draft", "after"],
      ["review", "before"],
    ] as const) {
      const path = `/nodes/${String(indexOf(doc, id))}/metadata/__interrupt`;
      expect(r.warnings.find((w) => w.path === path)).toMatchObject({
        code: "FIELD_DROPPED",
        data: { nodeId: id, interrupt: when },
      });
    }
  });

  it("several entry edges: an inserted entry step leads to each, declared with both targets", async () => {
    const g = new StateGraph(State)
      .addNode("left", step)
      .addNode("right", step)
      .addEdge(START, "left")
      .addEdge(START, "right")
      .addEdge("left", END)
      .addEdge("right", END)
      .compile();
    const doc = await exportOf(g);
    const r = importWhole(doc);
    expect(r.workflow.nodes[0]).toEqual({
      id: "start",
      type: "llm",
      name: "__start__",
      config: { model: "unspecified", promptRef: "prm:start@0.0.0" },
    });
    expect(r.workflow.edges).toEqual([
      { from: "start", to: "left", edgeType: "data" },
      { from: "start", to: "right", edgeType: "data" },
    ]);
    const w = r.warnings.find((x) => x.path === `/nodes/${String(indexOf(doc, "__start__"))}`);
    expect(w?.code).toBe("HEURISTIC");
    expect(w?.data).toMatchObject({ nodeId: "start", successors: ["left", "right"] });
    expect(w?.message).toContain("'left'");
    expect(w?.message).toContain("'right'");
  });

  it("odd node names (spaces, accents, dots) keep their LangGraph id as name", async () => {
    const g = new StateGraph(State)
      .addNode("fetch data", step)
      .addNode("résumé", step)
      .addNode("v1.2", step)
      .addEdge(START, "fetch data")
      .addEdge("fetch data", "résumé")
      .addEdge("résumé", "v1.2")
      .addEdge("v1.2", END)
      .compile();
    const doc = await exportOf(g);
    const r = importWhole(doc);
    expect(r.workflow.nodes.map((n) => [n.id, n.name])).toEqual([
      ["fetch-data", "fetch data"],
      ["r-sum-", "résumé"],
      ["v1.2", undefined],
    ]);
    expect(codesAt(r, `/nodes/${String(indexOf(doc, "résumé"))}/id`)).toContain("VALUE_NORMALIZED");
  });

  it("a 200-node chain imports every node and edge", async () => {
    let b = new StateGraph(State) as unknown as StateGraph<
      typeof State.spec,
      unknown,
      unknown,
      string
    >;
    for (let i = 0; i < 200; i++) b = b.addNode(`s${String(i)}`, step);
    b = b.addEdge(START, "s0");
    for (let i = 1; i < 200; i++) b = b.addEdge(`s${String(i - 1)}`, `s${String(i)}`);
    b = b.addEdge("s199", END);
    const r = importWhole(await exportOf(b.compile()));
    expect(r.workflow.nodes).toHaveLength(200);
    expect(r.workflow.edges).toHaveLength(199);
  });

  it("createReactAgent with a fake chat model: agent a function node (tool), tools tool, the loop", async () => {
    const search = tool(() => "ok", { name: "search", description: "search the web" });
    // The brief's API: deprecated in favour of langchain's createAgent, still what 1.7 ships.
    // eslint-disable-next-line @typescript-eslint/no-deprecated
    const agent = createReactAgent({ llm: new FakeStreamingChatModel({}), tools: [search] });
    const doc = await exportOf(agent);
    const r = importWhole(doc);
    // `agent` is a RunnableCallable that calls the model: the graph does not say so, so it is
    // a tool on tool:langgraph.node.agent, whose effect is unknown until a contract states it
    expect(r.workflow.nodes.map((n) => [n.id, n.type]).sort()).toEqual([
      ["agent", "tool"],
      ["agent.route", "decision"],
      ["tools", "tool"],
    ]);
    expect(
      r.warnings.find((w) => w.path === `/nodes/${String(indexOf(doc, "agent"))}/type`)?.data,
    ).toMatchObject({ nodeId: "agent", assumed: "tool:langgraph.node.agent@0.0.0" });
    expect(r.workflow.edges).toContainEqual({ from: "tools", to: "agent", edgeType: "data" });
    // The ToolNode's runnable name `func` never replaces its id; it is declared instead.
    expect(r.workflow.nodes.find((n) => n.id === "tools")?.name).toBeUndefined();
    const path = `/nodes/${String(indexOf(doc, "tools"))}/data/name`;
    expect(r.warnings.find((w) => w.path === path)).toMatchObject({
      code: "FIELD_DROPPED",
      data: { nodeId: "tools", name: "func" },
    });
    expect(codesAt(r, `/nodes/${String(indexOf(doc, "tools"))}/metadata/__tools`)).toEqual([
      "FIELD_DROPPED",
    ]);
  });
});
