/**
 * A node called `end` in every format: `end` is the route keyword for the end of the run, so the
 * node is renamed by the importers' one mapper (`end-2`, the next free id on a clash), the rename
 * is declared with both ids, and every edge and route that named the node still reaches it. The
 * LangGraph.js and AgentOS graphs are built and exported by their own code; OpenAgentFlow's
 * compiler refuses the name (openagentflow-plain.test.ts covers its IR).
 */
import { AgentGraph, gmiNode } from "@framers/agentos/orchestration/builders/index";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ImportResult, InteropWarning } from "../../src/interop/index.js";
import {
  importAgent2Model,
  importAgentOs,
  importLangGraph,
  importLangGraphGen,
  importLangGraphGraph,
} from "../../src/interop/index.js";
import { unfoldToolLoops } from "../../src/interop/agentos/tool-loop.js";
import { allocateId, mapIds, wantedId } from "../../src/interop/ids.js";
import { RESERVED_NODE_IDS } from "../../src/model/internal.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { decisionRoutes } from "../../src/model/index.js";

/** Every route and flow edge as `from -> to`, routes marked with their target `end` or node. */
function flow(wf: AgentWorkflow): string[] {
  const out = wf.edges.map((e) => `${e.from} -> ${e.to}`);
  for (const n of wf.nodes)
    if (n.type === "decision")
      for (const r of decisionRoutes(n.config)) out.push(`${n.id} => ${r.next}`);
  return out.sort();
}

function renames(warnings: readonly InteropWarning[]): unknown[] {
  return warnings.filter((w) => w.code === "VALUE_NORMALIZED").map((w) => [w.path, w.data]);
}

function expectNoNodeCalledEnd(r: ImportResult): void {
  expect(r.workflow.nodes.map((n) => n.id)).not.toContain("end");
}

describe("the one id mapper", () => {
  it("keeps ids, rewrites the rest, reserves end, and suffixes clashes in input order", () => {
    expect([...RESERVED_NODE_IDS]).toEqual(["end"]);
    expect(wantedId("write_draft", "n-")).toBe("write_draft");
    expect(wantedId("fetch data", "n-")).toBe("fetch-data");
    expect(wantedId("1st", "a-")).toBe("a-1st");
    expect([...mapIds(["a b", "end", "a-b", "end-2", "x"], "n-")]).toEqual([
      ["a-b", "a-b"],
      ["end-2", "end-2"],
      ["x", "x"],
      ["a b", "a-b-2"],
      ["end", "end-3"],
    ]);
    const used = new Set<string>();
    expect([allocateId("end", used), allocateId("end", used)]).toEqual(["end-2", "end-3"]);
  });
});

describe("LangGraph.js: a node called end", () => {
  it("is renamed, and the branch to it stays apart from the branch to __end__", async () => {
    const State = Annotation.Root({
      v: Annotation<number>({ reducer: (_a: number, b: number) => b, default: () => 0 }),
    });
    const graph = new StateGraph(State)
      .addNode("end", () => ({}))
      .addNode("check", () => ({}))
      .addEdge(START, "check")
      .addConditionalEdges("check", () => "more", { done: END, more: "end" })
      .addEdge("end", END)
      .compile();
    const doc = JSON.parse(JSON.stringify((await graph.getGraphAsync()).toJSON())) as {
      nodes: { id: string }[];
    };
    const r = importLangGraphGraph(doc);
    expectNoNodeCalledEnd(r);
    expect(r.workflow.nodes.find((n) => n.name === "end")?.id).toBe("end-2");
    expect(flow(r.workflow)).toEqual([
      "check -> check.route",
      "check.route -> end-2",
      "check.route => end",
      "check.route => end-2",
    ]);
    const i = doc.nodes.findIndex((n) => n.id === "end");
    expect(renames(r.warnings)).toEqual([
      [`/nodes/${String(i)}/id`, { from: "end", to: "end-2", reason: "reserved" }],
    ]);
  });
});

describe("AgentOS: a node called end", () => {
  it("is renamed end-2 with its id kept as name; end-2 taken gives end-3", () => {
    const state = {
      input: z.object({ topic: z.string() }),
      scratch: z.object({}),
      artifacts: z.object({ summary: z.string() }),
    };
    const ir = new AgentGraph(state)
      .addNode("start", gmiNode({ instructions: "Begin." }))
      .addNode("end", gmiNode({ instructions: "Wrap up." }))
      .addNode("end-2", gmiNode({ instructions: "Then this." }))
      .addEdge("__START__", "start")
      .addEdge("start", "end")
      .addEdge("end", "end-2")
      .addEdge("end-2", "__END__")
      .compile()
      .toIR();
    const r = importAgentOs(JSON.parse(JSON.stringify(ir)));
    expectNoNodeCalledEnd(r);
    // each gmi node's tool loop read back into it: the graph's own flow
    const wf = unfoldToolLoops(r.workflow).wf;
    expect(wf.nodes.map((n) => [n.id, n.name])).toEqual([
      ["start", undefined],
      ["end-3", "end"],
      ["end-2", undefined],
    ]);
    expect(flow(wf)).toEqual(["end-3 -> end-2", "start -> end-3"]);
    expect(renames(r.warnings)).toEqual([
      ["/nodes/1/id", { from: "end", to: "end-3", reason: "reserved" }],
    ]);
  });
});

describe("agent2model: a turn called end", () => {
  it("is renamed, and a decision's route to it reaches it, not the end of the run", () => {
    const r = importAgent2Model({
      name: "desk",
      start: "greet",
      nodes: {
        greet: { role: "agent", prompt: "Hello.", next: ["check"] },
        check: {
          role: "decision",
          next: [{ to: "end", when: "the customer is done" }, { to: "bye" }],
        },
        end: { role: "agent", prompt: "Say goodbye.", next: ["bye"] },
        bye: { terminal: "success" },
      },
    });
    expectNoNodeCalledEnd(r);
    expect(r.workflow.nodes.find((n) => n.id === "check")?.config).toMatchObject({
      onTrue: { next: "end-2" },
      onFalse: { next: "end" },
    });
    expect(flow(r.workflow)).toContain("check -> end-2");
    expect(renames(r.warnings)).toEqual([
      ["/nodes/end", { from: "end", to: "end-2", reason: "reserved" }],
    ]);
  });
});

describe("langgraph-gen: a node called end", () => {
  it("is renamed; an edge to it is an edge, an edge to __end__ ends the run", () => {
    const r = importLangGraphGen({
      name: "g",
      entrypoint: "a",
      nodes: [{ name: "a" }, { name: "end" }],
      edges: [
        { from: "a", condition: "pick", paths: ["end", "__end__"] },
        { from: "end", to: "__end__" },
      ],
    });
    expectNoNodeCalledEnd(r);
    expect(flow(r.workflow)).toEqual([
      "a -> a.route",
      "a.route -> end-2",
      "a.route => end",
      "a.route => end-2",
    ]);
    expect(renames(r.warnings)).toEqual([
      ["/nodes/1/name", { from: "end", to: "end-2", reason: "reserved" }],
    ]);
  });
});

describe("the LangGraph subset: a node called end", () => {
  it("is renamed with the edges that name it; routes keep end as the end of the run", () => {
    const r = importLangGraph({
      id: "agnt-x",
      name: "X",
      version: "1.0.0",
      input_schema: { q: "text" },
      output_schema: { a: "text" },
      nodes: [
        { id: "a", type: "llm", data: { model: "m", promptRef: "prm:a@1.0.0" } },
        {
          id: "d",
          type: "decision",
          data: { condition: "output.ok = true", onTrue: { next: "end" }, onFalse: { next: "a" } },
        },
        { id: "end", type: "llm", data: { model: "m", promptRef: "prm:end@1.0.0" } },
      ],
      edges: [
        { source: "a", target: "end", data: { edgeType: "data" } },
        { source: "end", target: "d", data: { edgeType: "data" } },
      ],
    });
    expectNoNodeCalledEnd(r);
    expect(flow(r.workflow)).toEqual(["a -> end-2", "d => a", "d => end", "end-2 -> d"]);
    expect(renames(r.warnings)).toEqual([
      ["/nodes/2/id", { from: "end", to: "end-2", reason: "reserved" }],
    ]);
  });
});
