import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { detectLangGraph, exportLangGraph, importLangGraph } from "../../src/interop/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { getTemplate, listTemplates, parseWorkflow } from "../../src/model/index.js";
import { codes, fixture, readFixture } from "./helpers.js";

function workflowFixture(name: string): AgentWorkflow {
  const { workflow } = parseWorkflow(readFixture(`agentflow/${name}`));
  if (workflow === undefined) throw new Error(`${name} does not parse`);
  return workflow;
}

function template(id: string): AgentWorkflow {
  const wf = getTemplate(id);
  if (wf === undefined) throw new Error(`no template ${id}`);
  return wf;
}

const subsetWorkflow = (): AgentWorkflow => importLangGraph(fixture()).workflow;

describe("exportLangGraph: what has no LangGraph form is declared", () => {
  const cases: [string, () => AgentWorkflow, [string, string][]][] = [
    ["the imported fixture", subsetWorkflow, [["NOT_EXPORTABLE", "/autonomyLevel"]]],
    [
      "approval-gate template",
      () => template("approval-gate"),
      [
        ["NOT_EXPORTABLE", "/autonomyLevel"],
        ["NOT_EXPORTABLE", "/description"],
      ],
    ],
    [
      "research template (budget, decorators)",
      () => template("research"),
      [
        ["NOT_EXPORTABLE", "/autonomyLevel"],
        ["NOT_EXPORTABLE", "/description"],
        ["NOT_EXPORTABLE", "/budget"],
        ["NOT_EXPORTABLE", "/nodes/0/decorators"],
      ],
    ],
    [
      "the acid-test sandwich (a delegate edge)",
      () => workflowFixture("acid-test-sandwich-agent.json"),
      [
        ["NOT_EXPORTABLE", "/autonomyLevel"],
        ["NOT_EXPORTABLE", "/edges/3"],
      ],
    ],
    [
      "$schema, types, metadata, a node name",
      () => {
        const wf = subsetWorkflow();
        const [first, ...rest] = wf.nodes;
        if (first === undefined) throw new Error("no node");
        return {
          $schema: "./agent-workflow.schema.json",
          ...wf,
          types: { Item: { a: "text" } },
          metadata: { owner: "x" },
          nodes: [{ ...first, name: "Writer" }, ...rest],
        };
      },
      [
        ["NOT_EXPORTABLE", "/autonomyLevel"],
        ["NOT_EXPORTABLE", "/$schema"],
        ["NOT_EXPORTABLE", "/types"],
        ["NOT_EXPORTABLE", "/metadata"],
        ["NOT_EXPORTABLE", "/nodes/0/name"],
      ],
    ],
  ];

  it.each(cases)("%s", (_name, make, expected) => {
    const { warnings } = exportLangGraph(make());
    expect(codes(warnings)).toEqual(expected);
    for (const w of warnings) expect(w.message.length).toBeGreaterThan(0);
  });

  it("exports the fixture back to the fixture", () => {
    expect(exportLangGraph(subsetWorkflow()).document).toStrictEqual(fixture());
  });

  it("omits delegate edges and keeps the others in order, with their labels", () => {
    const { document } = exportLangGraph(workflowFixture("acid-test-sandwich-agent.json"));
    expect(document.edges).toStrictEqual([
      { source: "plan", target: "grill", data: { edgeType: "toolCall" } },
      { source: "grill", target: "taste", data: { edgeType: "data" } },
      { source: "taste", target: "plan", data: { edgeType: "data", when: "retry" } },
    ]);
  });

  it("says what was left out in data", () => {
    const { warnings } = exportLangGraph(workflowFixture("acid-test-sandwich-agent.json"));
    expect(warnings.map((w) => w.data)).toEqual([
      { autonomyLevel: 4 },
      { from: "plan", to: "agnt-garnish@2.0.0", edgeType: "delegate" },
    ]);
  });
});

describe("round trip import → export → import", () => {
  it("the fixture is deep-equal after a round trip, with no warning the second time", () => {
    const first = importLangGraph(fixture());
    const second = importLangGraph(exportLangGraph(first.workflow).document);
    expect(second.workflow).toStrictEqual(first.workflow);
    expect(second.warnings).toEqual([]);
  });

  const workflows: [string, () => AgentWorkflow][] = [
    ...listTemplates().map((t): [string, () => AgentWorkflow] => [t.id, () => template(t.id)]),
    ["acid-test sandwich", () => workflowFixture("acid-test-sandwich-agent.json")],
  ];

  it.each(workflows)("%s: export → import is stable and keeps the subset", (_name, make) => {
    const wf = make();
    const first = importLangGraph(exportLangGraph(wf).document);
    const second = importLangGraph(exportLangGraph(first.workflow).document);
    expect(second.workflow).toStrictEqual(first.workflow);
    expect(first.warnings).toEqual([]);
    // Within the subset nothing changes: same identity, schemas, node configs, non-delegate edges.
    expect(first.workflow.id).toBe(wf.id);
    expect(first.workflow.inputSchema).toStrictEqual(wf.inputSchema);
    expect(first.workflow.nodes).toStrictEqual(
      wf.nodes.map((n) => ({ id: n.id, type: n.type, config: n.config })),
    );
    expect(first.workflow.edges).toStrictEqual(wf.edges.filter((e) => e.edgeType !== "delegate"));
  });

  it("templates get back the level they declare (their graphs justify it exactly)", () => {
    for (const t of listTemplates()) {
      const wf = template(t.id);
      expect(importLangGraph(exportLangGraph(wf).document).workflow.autonomyLevel).toBe(
        wf.autonomyLevel,
      );
    }
  });
});

describe("detectLangGraph", () => {
  const native = {
    nodes: [
      { id: "__start__", type: "schema", data: "__start__" },
      { id: "agent", type: "runnable", data: { id: ["x"], name: "agent" } },
      { id: "__end__", type: "schema", data: "__end__" },
    ],
    edges: [{ source: "__start__", target: "agent" }],
  };
  const cases: [string, unknown, boolean][] = [
    ["the seed fixture", fixture(), true],
    ["its export", exportLangGraph(subsetWorkflow()).document, true],
    [
      "nodes without data, edges with source/target",
      { nodes: [{ id: "a" }], edges: [{ source: "a", target: "b" }] },
      true,
    ],
    ["an AgentWorkflow", template("research"), false],
    ["any document with kind", { ...fixture(), kind: "Other" }, false],
    ["the native drawable graph", native, false],
    [
      "native node types without sentinels",
      { nodes: [{ id: "a", type: "runnable", data: {} }], edges: [] },
      false,
    ],
    ["numeric native ids", { nodes: [{ id: 0, data: {} }], edges: [] }, false],
    [
      "native conditional edges",
      {
        nodes: [{ id: "a", type: "llm", data: {} }],
        edges: [{ source: "a", target: "b", conditional: true }],
      },
      false,
    ],
    ["no nodes", { edges: [] }, false],
    ["nodes without data and no edges", { nodes: [{ id: "a" }] }, false],
    ["empty graph", { nodes: [], edges: [] }, false],
    ["an array", [fixture()], false],
    ["null", null, false],
  ];
  it.each(cases)("%s → %s", (_name, doc, expected) => {
    expect(detectLangGraph(doc)).toBe(expected);
  });
});

describe("docs/interop/langgraph.md", () => {
  const text = readFileSync(new URL("../../docs/interop/langgraph.md", import.meta.url), "utf8");
  const example = text.slice(text.indexOf("## Example"));
  const blocks = [...example.matchAll(/```json\n([\s\S]*?)```/g)].map((m): unknown =>
    JSON.parse(m[1] ?? ""),
  );

  it("its example imports as documented, with the documented warnings", () => {
    const [source, expected] = blocks;
    const { workflow, warnings } = importLangGraph(source);
    expect(workflow).toStrictEqual(expected);
    expect(warnings.map((w) => [w.code, w.path, w.data])).toEqual([
      ["FIELD_DROPPED", "/interrupts", { key: "interrupts" }],
      ["FIELD_DROPPED", "/checkpointer", { key: "checkpointer" }],
      ["HEURISTIC", "/edges/0/data/edgeType", { assumed: "data" }],
    ]);
    expect(codes(exportLangGraph(workflow).warnings)).toEqual([
      ["NOT_EXPORTABLE", "/autonomyLevel"],
    ]);
  });
});
