/**
 * Routers in LangGraph's drawable graph, against the real LangGraph.js (`@langchain/langgraph`
 * 1.7.3): graphs built with its API and exported as a user would (`getGraphAsync().toJSON()`).
 * The parent's router after an xray subgraph keeps its branch labels; two routers on one node are
 * several branches at once, a fan-out of decisions; a router the drawing cannot tell apart says
 * so; the functional API's `entrypoint` imports as Python's `get_graph().to_json()` does.
 */
import { RunnableLambda } from "@langchain/core/runnables";
import { Annotation, END, entrypoint, Send, START, StateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import type { ImportResult } from "../../src/interop/index.js";
import { importLangGraphGraph } from "../../src/interop/langgraph-graph/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";

const State = Annotation.Root({
  v: Annotation<number>({ reducer: (_a: number, b: number) => b, default: () => 0 }),
});
const step = (): Record<string, never> => ({});

/** A router with a name of its own: LangGraph.js allows one unnamed router per node. */
function router(name: string, pick: string): RunnableLambda<unknown, string> {
  const r = RunnableLambda.from((): string => pick);
  r.name = name;
  return r;
}

interface Exported {
  nodes: { id: string | number }[];
  edges: { source: string | number; target: string | number; data?: string }[];
}

interface Drawable {
  getGraphAsync(config?: { xray?: boolean | number }): Promise<{ toJSON(): unknown }>;
}

async function exportOf(graph: Drawable, xray: boolean | number = false): Promise<Exported> {
  return JSON.parse(JSON.stringify((await graph.getGraphAsync({ xray })).toJSON())) as Exported;
}

function decision(wf: AgentWorkflow, id: string): unknown {
  const node = wf.nodes.find((n) => n.id === id);
  return node?.type === "decision" ? node.config : undefined;
}

const at = (r: ImportResult, path: string) => r.warnings.filter((w) => w.path === path);
const indexOf = (doc: Exported, id: string): number => doc.nodes.findIndex((n) => n.id === id);

describe("xray: the parent's router after a subgraph's exit", () => {
  /** A subgraph with two last steps and a labelled branch to its end, so xray keeps `sub:__end__`. */
  function graph() {
    const sub = new StateGraph(State)
      .addNode("p", step)
      .addNode("q", step)
      .addNode("r", step)
      .addEdge(START, "p")
      .addConditionalEdges("p", router("inner", "q"), { more: "q", other: "r", done: END })
      .addEdge("q", END)
      .addEdge("r", END)
      .compile();
    return new StateGraph(State)
      .addNode("plan", step)
      .addNode("sub", sub)
      .addNode("A", step)
      .addNode("B", step)
      .addEdge(START, "plan")
      .addEdge("plan", "sub")
      .addConditionalEdges("sub", router("after", "A"), { goA: "A", goB: "B" })
      .addEdge("A", END)
      .addEdge("B", END)
      .compile();
  }

  it("is one decision, and every way out of the subgraph leads to it with its own label", async () => {
    const doc = await exportOf(graph(), true);
    expect(doc.nodes.map((n) => n.id)).toContain("sub:__end__");
    const r = importLangGraphGraph(doc);
    // both of the parent's branches survive, under their own labels
    expect(decision(r.workflow, "sub.route")).toStrictEqual({
      conditionLanguage: "text",
      cases: [{ condition: "goA", next: "A" }],
      otherwise: { next: "B" },
    });
    // the inner router's `done` leads out of the subgraph: to the parent's router, still `done`
    expect(decision(r.workflow, "sub:p.route")).toStrictEqual({
      conditionLanguage: "text",
      cases: [
        { condition: "more", next: "sub:q" },
        { condition: "other", next: "sub:r" },
      ],
      otherwise: { next: "sub.route" },
    });
    expect(r.workflow.edges).toEqual(
      expect.arrayContaining([
        { from: "sub:q", to: "sub.route", edgeType: "data" },
        { from: "sub:r", to: "sub.route", edgeType: "data" },
        { from: "sub:p.route", to: "sub.route", edgeType: "data", when: "done" },
        { from: "sub.route", to: "A", edgeType: "data", when: "goA" },
        { from: "sub.route", to: "B", edgeType: "data", when: "goB" },
      ]),
    );
    expect(at(r, `/nodes/${String(indexOf(doc, "sub:__end__"))}/id`)[0]?.data).toEqual({
      nodeId: "sub:__end__",
      subgraph: "sub",
      role: "exit",
      router: true,
    });
    // no label is left behind: nothing about a label is declared lost
    expect(
      r.warnings.filter((w) => w.path.endsWith("/data") && w.code === "FIELD_DROPPED"),
    ).toEqual([]);
  });

  it("one branch after an exit reached by a labelled edge: the edge's label stays, the other is declared", () => {
    const doc = {
      nodes: [
        { id: "__start__" },
        { id: "sub:p", type: "runnable" },
        { id: "sub:q", type: "runnable" },
        { id: "sub:__end__", type: "schema" },
        { id: "A", type: "runnable" },
        { id: "__end__" },
      ],
      edges: [
        { source: "__start__", target: "sub:p" },
        { source: "sub:p", target: "sub:q", data: "more", conditional: true },
        { source: "sub:p", target: "sub:__end__", data: "done", conditional: true },
        { source: "sub:q", target: "sub:__end__" },
        { source: "sub:__end__", target: "A", data: "go", conditional: true },
        { source: "A", target: "__end__" },
      ],
    };
    const r = importLangGraphGraph(doc);
    expect(decision(r.workflow, "sub:p.route")).toStrictEqual({
      conditionLanguage: "text",
      cases: [{ condition: "more", next: "sub:q" }],
      otherwise: { next: "A" },
    });
    expect(r.workflow.edges).toContainEqual({
      from: "sub:p.route",
      to: "A",
      edgeType: "data",
      when: "done",
    });
    expect(at(r, "/edges/4/data")).toMatchObject([
      { code: "FIELD_DROPPED", data: { key: "data", label: "go", kept: "done" } },
    ]);
  });
});

describe("several routers on one node", () => {
  it("two routers sharing a branch: several branches at once, one decision each", async () => {
    const g = new StateGraph(State)
      .addNode("s", step)
      .addNode("A", step)
      .addNode("C", step)
      .addEdge(START, "s")
      .addConditionalEdges("s", router("r1", "a"), { a: "A", stop: END })
      .addConditionalEdges("s", router("r2", "c"), { c: "C", stop: END })
      .addEdge("A", END)
      .addEdge("C", END)
      .compile();
    const doc = await exportOf(g);
    const r = importLangGraphGraph(doc);
    expect(r.workflow.nodes.map((n) => n.id)).toEqual(["s", "s.route", "s.route-2", "A", "C"]);
    expect(decision(r.workflow, "s.route")).toStrictEqual({
      conditionLanguage: "text",
      cases: [{ condition: "a", next: "A" }],
      otherwise: { next: "end" },
    });
    expect(decision(r.workflow, "s.route-2")).toStrictEqual({
      conditionLanguage: "text",
      cases: [{ condition: "c", next: "C" }],
      otherwise: { next: "end" },
    });
    // `s` leads to both decisions: a fan-out, both taken
    expect(r.workflow.edges.filter((e) => e.from === "s")).toEqual([
      { from: "s", to: "s.route", edgeType: "data" },
      { from: "s", to: "s.route-2", edgeType: "data" },
    ]);
    const s = `/nodes/${String(indexOf(doc, "s"))}`;
    expect(at(r, s).map((w) => w.data)).toEqual([
      {
        from: "s",
        decisions: ["s.route", "s.route-2"],
        repeated: ["__end__"],
        branches: "several",
      },
      { nodeId: "s", successors: ["s.route", "s.route-2"] },
    ]);
    // the two branches into __end__ have no decision of their own: declared
    const ends = doc.edges.flatMap((e, i) => (e.source === "s" && e.target === END ? [i] : []));
    for (const i of ends)
      expect(at(r, `/edges/${String(i)}`)[0]).toMatchObject({
        code: "FIELD_DROPPED",
        data: { from: "s", to: "__end__" },
      });
    // still a decision tree: the level does not drop for reading the branches apart
    expect(r.workflow.autonomyLevel).toBe(3);
  });

  it.each<[string, () => Drawable]>([
    [
      "two routers with different branches",
      () =>
        new StateGraph(State)
          .addNode("s", step)
          .addNode("A", step)
          .addNode("C", step)
          .addEdge(START, "s")
          .addConditionalEdges("s", router("r1", "a"), { a: "A", b: END })
          .addConditionalEdges("s", router("r2", "c"), { c: "C", d: END })
          .addEdge("A", END)
          .addEdge("C", END)
          .compile(),
    ],
    [
      "a Send to several nodes",
      () =>
        new StateGraph(State)
          .addNode("s", step)
          .addNode("A", step)
          .addNode("C", step)
          .addEdge(START, "s")
          .addConditionalEdges("s", () => [new Send("A", { v: 1 }), new Send("C", { v: 2 })], [
            "A",
            "C",
          ])
          .addEdge("A", END)
          .addEdge("C", END)
          .compile(),
    ],
  ])("%s, drawn as one router: read as one choice, and the warning says so", async (_w, make) => {
    const doc = await exportOf(make());
    const r = importLangGraphGraph(doc);
    const data = at(r, `/nodes/${String(indexOf(doc, "s"))}`)[0]?.data;
    expect(data).toMatchObject({ nodeId: "s.route", branches: "one" });
    expect(at(r, `/nodes/${String(indexOf(doc, "s"))}`)[0]?.message).toContain(
      "several branches at once",
    );
  });
});

describe("the functional API", () => {
  it("an entrypoint graph of LangGraph.js imports as the same graph drawn by Python does", async () => {
    const wf = entrypoint({ name: "draftReply" }, (input: string) => `${input}!`);
    // Pregel's own getGraphAsync signature; the drawing is the same call
    const doc = await exportOf(wf as unknown as Drawable);
    // LangGraph.js numbers what it drew with generated ids: two schema nodes and the entrypoint
    expect(doc.nodes.map((n) => n.id)).toEqual([0, 1, 2]);
    const js = importLangGraphGraph(doc);
    // what `draft_reply.get_graph().to_json()` prints in Python, in the fixtures' form
    const python = importLangGraphGraph({
      nodes: [
        {
          id: "__start__",
          type: "runnable",
          data: { id: ["langgraph", "RunnableCallable"], name: "__start__" },
        },
        {
          id: "draftReply",
          type: "runnable",
          data: { id: ["langgraph", "RunnableCallable"], name: "draftReply" },
        },
        { id: "__end__" },
      ],
      edges: [
        { source: "__start__", target: "draftReply" },
        { source: "draftReply", target: "__end__" },
      ],
    });
    expect(js.workflow).toStrictEqual(python.workflow);
    // the entrypoint is a plain function: a tool of unknown effect, on tool:langgraph.node.<id>
    expect(js.workflow.nodes.map((n) => [n.id, n.type, n.name, n.config])).toEqual([
      ["draftReply", "tool", undefined, { usesTool: "tool:langgraph.node.draftReply@0.0.0" }],
    ]);
    expect(at(js, "/nodes/1/type")[0]?.data).toMatchObject({
      nodeId: "draftReply",
      assumed: "tool:langgraph.node.draftReply@0.0.0",
    });
    expect(at(js, "/nodes/0/id")[0]?.data).toEqual({ nodeId: 0, assumed: "__start__" });
    expect(at(js, "/nodes/2/id")[0]?.data).toEqual({ nodeId: 2, assumed: "__end__" });
    expect(at(js, "/nodes/1/id")[0]?.data).toEqual({ number: 1, name: "draftReply" });
  });
});
