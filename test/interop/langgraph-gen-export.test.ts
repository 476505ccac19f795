/** langgraph-gen spec export: exact documents, declared losses, round trips, templates. */
import { describe, expect, it } from "vitest";
import {
  detectLangGraphGen,
  exportLangGraphGen,
  importLangGraphGen,
} from "../../src/interop/langgraph-gen/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { getTemplate, listTemplates, parseWorkflow } from "../../src/model/index.js";
import { codes, readFixture } from "./helpers.js";

const RAG = "langgraph-gen/langgraph-gen-agentic_rag.spec.yml";

/** What the importer synthesises for a spec named `g`, taken from one import. */
const BASE = importLangGraphGen({
  name: "g",
  entrypoint: "a",
  nodes: [{ name: "a" }],
  edges: [],
}).workflow;

function workflow(extra: Partial<AgentWorkflow>): AgentWorkflow {
  const parsed = parseWorkflow({ ...BASE, autonomyLevel: 1, nodes: [], edges: [], ...extra });
  if (parsed.workflow === undefined) throw new Error(JSON.stringify(parsed.diagnostics));
  return parsed.workflow;
}

function llm(id: string): AgentWorkflow["nodes"][number] {
  return { id, type: "llm", config: { model: "unspecified", promptRef: `prm:${id}@0.0.0` } };
}

/** What an import makes of a spec node: a tool on `tool:langgraph.node.<id>@0.0.0`. */
function fn(id: string): AgentWorkflow["nodes"][number] {
  return { id, type: "tool", config: { usesTool: `tool:langgraph.node.${id}@0.0.0` } };
}

describe("exportLangGraphGen: the agentic RAG spec", () => {
  const first = importLangGraphGen(readFixture(RAG)).workflow;
  const { document, warnings } = exportLangGraphGen(first);

  it("writes the spec back exactly as it was", () => {
    expect(document).toStrictEqual(readFixture(RAG));
    expect(document).toStrictEqual({
      name: "AgenticRag",
      entrypoint: "agent",
      nodes: [{ name: "agent" }, { name: "retrieve" }, { name: "rewrite" }, { name: "generate" }],
      edges: [
        { from: "agent", to: "retrieve" },
        { from: "retrieve", condition: "is_relevant", paths: ["rewrite", "generate"] },
        { from: "rewrite", to: "agent" },
        { from: "generate", to: "__end__" },
      ],
    });
  });

  it("round trip import → export → import is deep-equal, declaring only autonomyLevel", () => {
    expect(codes(warnings)).toEqual([["NOT_EXPORTABLE", "/autonomyLevel"]]);
    expect(detectLangGraphGen(document)).toBe(true);
    expect(importLangGraphGen(document).workflow).toStrictEqual(first);
  });
});

describe("exportLangGraphGen: decisions", () => {
  it("a router whose case conditions do not name one function gets the decision's id, declared", () => {
    const wf = workflow({
      nodes: [
        fn("a"),
        {
          id: "a.route",
          type: "decision",
          config: {
            conditionLanguage: "text",
            cases: [{ condition: "needs more", next: "a" }],
            otherwise: { next: "end" },
          },
        },
      ],
      edges: [{ from: "a", to: "a.route", edgeType: "data" }],
    });
    const { document, warnings } = exportLangGraphGen(wf);
    expect(document.edges).toStrictEqual([
      { from: "a", condition: "a_route", paths: ["a", "__end__"] },
    ]);
    expect(codes(warnings)).toEqual([
      ["NOT_EXPORTABLE", "/autonomyLevel"],
      ["NOT_EXPORTABLE", "/nodes/1/config"],
    ]);
    const back = importLangGraphGen(document).workflow;
    expect(back.nodes[1]?.config).toStrictEqual({
      conditionLanguage: "text",
      cases: [{ condition: "a_route returns 'a'", next: "a" }],
      otherwise: { next: "end" },
    });
  });

  it("an entry decision is written as a node with its own conditional edge, declared; its router gets a name of its own", () => {
    const wf = workflow({
      nodes: [
        {
          id: "d",
          type: "decision",
          config: {
            conditionLanguage: "text",
            cases: [{ condition: "d returns 'a'", next: "a" }],
            otherwise: { next: "b" },
          },
        },
        fn("a"),
        fn("b"),
      ],
    });
    const { document, warnings } = exportLangGraphGen(wf);
    expect(document).toStrictEqual({
      name: "g",
      entrypoint: "d",
      nodes: [{ name: "d" }, { name: "a" }, { name: "b" }],
      edges: [
        // `d` is the node's implementation name already: langgraph-gen would merge the two
        { from: "d", condition: "d_2", paths: ["a", "b"] },
        { from: "a", to: "__end__" },
        { from: "b", to: "__end__" },
      ],
    });
    expect(codes(warnings)).toEqual([
      ["NOT_EXPORTABLE", "/autonomyLevel"],
      ["NOT_EXPORTABLE", "/nodes/0/type"],
      ["VALUE_NORMALIZED", "/nodes/0/config"],
    ]);
    expect(warnings[2]?.data).toEqual({ nodeId: "d", from: "d", to: "d_2" });
    // the spec has no node kinds: the decision's node reads back as a step of unknown effect
    expect(warnings[1]?.message).toContain(
      "an import reads it as a tool step of unknown effect on 'tool:langgraph.node.d@0.0.0' followed by its conditional edge",
    );
    expect(importLangGraphGen(document).workflow.nodes.map((n) => [n.id, n.type])).toEqual([
      ["d", "tool"],
      ["d.route", "decision"],
      ["a", "tool"],
      ["b", "tool"],
    ]);
  });
});

describe("exportLangGraphGen: node kinds", () => {
  it("a tool on a spec node's ref round-trips; an llm node is declared, read back as a tool step", () => {
    const wf = workflow({
      nodes: [fn("plan"), llm("draft"), fn("review")],
      edges: [
        { from: "plan", to: "draft", edgeType: "data" },
        { from: "draft", to: "review", edgeType: "data" },
      ],
    });
    const { document, warnings } = exportLangGraphGen(wf);
    expect(document.nodes).toStrictEqual([{ name: "plan" }, { name: "draft" }, { name: "review" }]);
    expect(codes(warnings)).toEqual([
      ["NOT_EXPORTABLE", "/autonomyLevel"],
      ["NOT_EXPORTABLE", "/nodes/1/type"],
    ]);
    expect([warnings[1]?.message, warnings[1]?.data]).toEqual([
      "llm node 'draft' left out as an llm node: the spec has no node kinds; an import reads it as a tool step of unknown effect on 'tool:langgraph.node.draft@0.0.0'",
      { nodeId: "draft" },
    ]);
    const back = importLangGraphGen(document).workflow;
    expect(back.nodes).toStrictEqual([fn("plan"), fn("draft"), fn("review")]);
    // then import → export → import is a fixed point, declaring only autonomyLevel
    const again = exportLangGraphGen(back);
    expect(codes(again.warnings)).toEqual([["NOT_EXPORTABLE", "/autonomyLevel"]]);
    expect(again.document).toStrictEqual(document);
    expect(importLangGraphGen(again.document).workflow).toStrictEqual(back);
  });
});

describe("exportLangGraphGen: declared losses", () => {
  it("identity, schemas, an llm node, a tool's ref, config, names, labels and delegation", () => {
    const wf = workflow({
      id: "agnt-x",
      version: "2.0.0",
      outputSchema: { answer: "text" },
      nodes: [
        { ...llm("a"), name: "A" },
        { id: "t", type: "tool", config: { usesTool: "tool:t@1.0.0" } },
      ],
      edges: [
        { from: "a", to: "t", edgeType: "toolCall", when: "search" },
        { from: "t", to: "agnt-y@1.0.0", edgeType: "delegate" },
      ],
    });
    const { document, warnings } = exportLangGraphGen(wf);
    expect(document).toStrictEqual({
      name: "g",
      entrypoint: "a",
      nodes: [{ name: "a" }, { name: "t" }],
      edges: [
        { from: "a", to: "t" },
        { from: "t", to: "__end__" },
      ],
    });
    expect(codes(warnings)).toEqual([
      ["NOT_EXPORTABLE", "/autonomyLevel"],
      ["NOT_EXPORTABLE", "/id"],
      ["NOT_EXPORTABLE", "/version"],
      ["NOT_EXPORTABLE", "/outputSchema"],
      ["NOT_EXPORTABLE", "/nodes/0/name"],
      // an llm node reads back as a tool; a tool node stays one, on another ref
      ["NOT_EXPORTABLE", "/nodes/0/type"],
      ["NOT_EXPORTABLE", "/nodes/1/config/usesTool"],
      ["NOT_EXPORTABLE", "/edges/0/when"],
      ["NOT_EXPORTABLE", "/edges/0/edgeType"],
      ["NOT_EXPORTABLE", "/edges/1"],
    ]);
  });
});

describe.each(listTemplates().map((t) => t.id))("template %s", (id) => {
  it("exports a spec that re-imports with the same steps and a router per decision", () => {
    const wf = getTemplate(id);
    if (wf === undefined) throw new Error(`no template ${id}`);
    const { document, warnings } = exportLangGraphGen(wf);
    expect(detectLangGraphGen(document)).toBe(true);
    expect(codes(warnings).slice(0, 2)).toEqual([
      ["NOT_EXPORTABLE", "/autonomyLevel"],
      ["NOT_EXPORTABLE", "/id"],
    ]);
    // the name is the stub function's name: "Research Agent" becomes `Research_Agent`
    expect(document.name).toBe(wf.name.replace(/ /g, "_"));
    expect(warnings.filter((w) => w.code !== "NOT_EXPORTABLE")).toEqual([
      {
        code: "VALUE_NORMALIZED",
        path: "/name",
        message: `name "${wf.name}" written as '${document.name}': langgraph-gen writes the spec's name as the stub function's name, in Python and TypeScript`,
        data: { from: wf.name, to: document.name },
      },
    ]);
    const back = importLangGraphGen(document).workflow;
    expect(back.name).toBe(document.name);
    const steps = (w: AgentWorkflow): string[] =>
      w.nodes.filter((n) => n.type !== "decision").map((n) => n.id);
    expect(steps(back)).toEqual(steps(wf));
    expect(back.nodes.filter((n) => n.type === "decision")).toHaveLength(
      wf.nodes.filter((n) => n.type === "decision").length,
    );
  });
});

describe("exportLangGraphGen: names langgraph-gen accepts", () => {
  it.each([
    ["Research Agent", "Research_Agent"],
    ["Refund Autopilot (deliberately broken)", "Refund_Autopilot_deliberately_broken"],
    ["AgenticRag", "AgenticRag"],
    ["__init__", "__init__"],
    ["class", "class_agent"],
    ["None", "None_agent"],
    ["let", "let_agent"],
    ["StateGraph", "StateGraph_agent"],
    ["3 steps", "agent_3_steps"],
    ["Résumé", "R_sum"],
    ["???", "create_agent"],
  ])("the workflow name %j is written as %j", (name, written) => {
    // the id an import gives a spec of that name: only the name is renamed
    const id = importLangGraphGen({
      name: written,
      entrypoint: "a",
      nodes: [{ name: "a" }],
      edges: [],
    }).workflow.id;
    const { document, warnings } = exportLangGraphGen(workflow({ id, name, nodes: [llm("a")] }));
    expect(document.name).toBe(written);
    const renamed = warnings.filter((w) => w.path === "/name");
    expect(renamed.map((w) => [w.code, w.data])).toEqual(
      name === written ? [] : [["VALUE_NORMALIZED", { from: name, to: written }]],
    );
    expect(warnings.some((w) => w.path === "/id")).toBe(false);
    expect(importLangGraphGen(document).workflow.name).toBe(written);
  });

  it("renames nodes langgraph-gen refuses or merges, ids that may stay first, and the edges with them", () => {
    const wf = workflow({
      nodes: [llm("a:b"), llm("a-b"), llm("a.b"), llm("if"), llm("None")],
      edges: [
        { from: "a:b", to: "a-b", edgeType: "data" },
        { from: "a-b", to: "a.b", edgeType: "data" },
        { from: "a.b", to: "if", edgeType: "data" },
        { from: "if", to: "None", edgeType: "data" },
      ],
    });
    const { document, warnings } = exportLangGraphGen(wf);
    expect(document.entrypoint).toBe("a-b-2");
    expect(document.nodes.map((n) => n.name)).toEqual([
      "a-b-2",
      "a-b",
      "a.b-3",
      "if-node",
      "None-node",
    ]);
    expect(document.edges).toEqual([
      { from: "a-b-2", to: "a-b" },
      { from: "a-b", to: "a.b-3" },
      { from: "a.b-3", to: "if-node" },
      { from: "if-node", to: "None-node" },
      { from: "None-node", to: "__end__" },
    ]);
    expect(
      warnings.filter((w) => w.code === "VALUE_NORMALIZED").map((w) => [w.path, w.data]),
    ).toEqual([
      ["/nodes/0/id", { nodeId: "a:b", from: "a:b", to: "a-b-2" }],
      // `a.b-2` would share `a_b_2` with `a-b-2`
      ["/nodes/2/id", { nodeId: "a.b", from: "a.b", to: "a.b-3" }],
      ["/nodes/3/id", { nodeId: "if", from: "if", to: "if-node" }],
      ["/nodes/4/id", { nodeId: "None", from: "None", to: "None-node" }],
    ]);
    // an import reads the names back as written
    const back = importLangGraphGen(document).workflow;
    expect(back.nodes.map((n) => n.id)).toEqual(document.nodes.map((n) => n.name));
  });

  it("gives each router a name no node and no other router has", () => {
    const decision = (id: string, next: string): AgentWorkflow["nodes"][number] => ({
      id,
      type: "decision",
      config: {
        conditionLanguage: "text",
        cases: [{ condition: "c", next }],
        otherwise: { next: "end" },
      },
    });
    const wf = workflow({
      nodes: [llm("s"), decision("d-x", "t"), llm("t"), decision("d.x", "u"), llm("u"), llm("d_x")],
      edges: [
        { from: "s", to: "d-x", edgeType: "data" },
        { from: "t", to: "d.x", edgeType: "data" },
        { from: "u", to: "d_x", edgeType: "data" },
      ],
    });
    const { document } = exportLangGraphGen(wf);
    // `d_x` is the last node's implementation name; `d-x` and `d.x` map to it too
    expect(document.edges.filter((e) => e.condition !== undefined).map((e) => e.condition)).toEqual(
      ["d_x_2", "d_x_3"],
    );
  });
});

describe("exportLangGraphGen: a renamed node's original name", () => {
  it.each<[string, string[], string[], string[], [string, string][]]>([
    [
      // `end` is agentflow's route keyword; `fetch data` only a name langgraph-gen takes
      "renamed names are written back",
      ["fetch data", "end", "b"],
      ["fetch-data", "end-2", "b"],
      ["fetch data", "end", "b"],
      [],
    ],
    [
      // `fetch data` and `fetch-data` share the implementation name `fetch_data`: langgraph-gen
      // cannot take both, so the first keeps its id; `end` is still written back
      "a name sharing an implementation name stays its id, declared",
      ["fetch data", "fetch-data", "end"],
      ["fetch-data-2", "fetch-data", "end-2"],
      ["fetch-data-2", "fetch-data", "end"],
      [["NOT_EXPORTABLE", "/nodes/0/name"]],
    ],
  ])("%s", (_label, source, ids, written, declared) => {
    const spec = {
      name: "g",
      entrypoint: source[0],
      nodes: source.map((name) => ({ name })),
      edges: source.map((from, k) => ({ from, to: source[k + 1] ?? "__end__" })),
    };
    const first = importLangGraphGen(spec).workflow;
    expect(first.nodes.map((n) => [n.id, n.name])).toEqual(
      ids.map((id, k) => [id, id === source[k] ? undefined : source[k]]),
    );
    const { document, warnings } = exportLangGraphGen(first);
    expect(document.nodes.map((n) => n.name)).toEqual(written);
    expect(document.entrypoint).toBe(written[0]);
    expect(codes(warnings).filter(([, path]) => path.startsWith("/nodes"))).toEqual(declared);
    expect(importLangGraphGen(document).workflow.nodes.map((n) => n.id)).toEqual(ids);
  });

  it("a name an import would read back as another id is left out, declared", () => {
    const wf = workflow({ nodes: [{ ...llm("a"), name: "Step A" }, llm("b")] });
    const { document, warnings } = exportLangGraphGen(wf);
    expect(document.nodes.map((n) => n.name)).toEqual(["a", "b"]);
    expect(warnings.find((w) => w.path === "/nodes/0/name")?.data).toEqual({
      nodeId: "a",
      name: "Step A",
    });
  });
});
