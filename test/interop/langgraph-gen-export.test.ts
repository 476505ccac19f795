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
        llm("a"),
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

  it("an entry decision is written as a node with its own conditional edge, declared", () => {
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
        llm("a"),
        llm("b"),
      ],
    });
    const { document, warnings } = exportLangGraphGen(wf);
    expect(document).toStrictEqual({
      name: "g",
      entrypoint: "d",
      nodes: [{ name: "d" }, { name: "a" }, { name: "b" }],
      edges: [
        { from: "d", condition: "d", paths: ["a", "b"] },
        { from: "a", to: "__end__" },
        { from: "b", to: "__end__" },
      ],
    });
    expect(codes(warnings)).toEqual([
      ["NOT_EXPORTABLE", "/autonomyLevel"],
      ["NOT_EXPORTABLE", "/nodes/0/type"],
    ]);
    expect(importLangGraphGen(document).workflow.nodes.map((n) => [n.id, n.type])).toEqual([
      ["d", "llm"],
      ["d.route", "decision"],
      ["a", "llm"],
      ["b", "llm"],
    ]);
  });
});

describe("exportLangGraphGen: declared losses", () => {
  it("identity, schemas, tools, config, names, labels and delegation", () => {
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
      ["NOT_EXPORTABLE", "/nodes/1/type"],
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
    expect(codes(warnings)[0]).toEqual(["NOT_EXPORTABLE", "/autonomyLevel"]);
    expect(warnings.every((w) => w.code === "NOT_EXPORTABLE")).toBe(true);
    const back = importLangGraphGen(document).workflow;
    expect(back.name).toBe(wf.name);
    const steps = (w: AgentWorkflow): string[] =>
      w.nodes.filter((n) => n.type !== "decision").map((n) => n.id);
    expect(steps(back)).toEqual(steps(wf));
    expect(back.nodes.filter((n) => n.type === "decision")).toHaveLength(
      wf.nodes.filter((n) => n.type === "decision").length,
    );
  });
});
