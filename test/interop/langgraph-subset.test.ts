import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { detectLangGraph, importLangGraph } from "../../src/interop/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { parseWorkflow } from "../../src/model/index.js";
import type { Doc } from "./helpers.js";
import { codes, fixture, mutate, readFixture } from "./helpers.js";

/** The fixture as the workflow the importer must produce, exactly. */
const EXPECTED: AgentWorkflow = {
  kind: "AgentWorkflow",
  id: "agnt-x",
  version: "1.0.0",
  name: "X",
  autonomyLevel: 1,
  inputSchema: { q: "string" },
  outputSchema: { a: "string" },
  nodes: [
    {
      id: "llm-1",
      type: "llm",
      config: { model: "gpt-4o", promptRef: "prm:x@1.0.0", structuredOutput: true },
    },
    {
      id: "dec-1",
      type: "decision",
      config: {
        condition: "output.done === true",
        onTrue: { next: "end" },
        onFalse: { next: "end" },
      },
    },
  ],
  edges: [{ from: "llm-1", to: "dec-1", edgeType: "data" }],
};

describe("importLangGraph: the seed fixture", () => {
  it("imports to the exact expected workflow, autonomy 1 (both routes end), no warning", () => {
    const result = importLangGraph(fixture());
    expect(result.workflow).toStrictEqual(EXPECTED);
    expect(result.warnings).toEqual([]);
  });

  it("the imported workflow parses with no diagnostic at all", () => {
    expect(parseWorkflow(importLangGraph(fixture()).workflow).diagnostics).toEqual([]);
  });

  it("never aliases the source document", () => {
    const doc = fixture();
    const { workflow } = importLangGraph(doc);
    doc.nodes[0].data.model = "changed";
    expect(workflow.nodes[0]?.config).toHaveProperty("model", "gpt-4o");
  });
});

describe("importLangGraph: what is dropped or guessed is declared", () => {
  const cases: [string, (doc: Doc) => void, [string, string][]][] = [
    [
      "top-level keys outside the subset, one warning each, in key order",
      (d) => {
        d.interrupts = ["dec-1"];
        d.checkpointer = { type: "memory" };
        d.checkpoints = [];
        d.description = "not in the subset";
      },
      [
        ["FIELD_DROPPED", "/interrupts"],
        ["FIELD_DROPPED", "/checkpointer"],
        ["FIELD_DROPPED", "/checkpoints"],
        ["FIELD_DROPPED", "/description"],
      ],
    ],
    [
      "a key needing pointer escapes",
      (d) => {
        d["a/b~c"] = 1;
      },
      [["FIELD_DROPPED", "/a~1b~0c"]],
    ],
    [
      "unknown keys on nodes, edges and edge data",
      (d) => {
        d.nodes[0].name = "Writer";
        d.nodes[1].metadata = {};
        d.edges[0].id = "e1";
        d.edges[0].data = { edgeType: "data", label: "go" };
      },
      [
        ["FIELD_DROPPED", "/nodes/0/name"],
        ["FIELD_DROPPED", "/nodes/1/metadata"],
        ["FIELD_DROPPED", "/edges/0/id"],
        ["FIELD_DROPPED", "/edges/0/data/label"],
      ],
    ],
    [
      "data keys the model does not know, in node data and in a route",
      (d) => {
        d.nodes[0].data.temperature_x = 1;
        d.nodes[1].data.onTrue.label = "done";
      },
      [
        ["FIELD_DROPPED", "/nodes/0/data/temperature_x"],
        ["FIELD_DROPPED", "/nodes/1/data/onTrue/label"],
      ],
    ],
    [
      "an edge without data is read as a data edge (heuristic)",
      (d) => {
        delete d.edges[0].data;
      },
      [["HEURISTIC", "/edges/0/data/edgeType"]],
    ],
    [
      "an edge whose data has no edgeType (heuristic)",
      (d) => {
        d.edges[0].data = { when: "always" };
      },
      [["HEURISTIC", "/edges/0/data/edgeType"]],
    ],
    [
      "an abbreviated version is normalised",
      (d) => {
        d.version = "1.2";
      },
      [["VALUE_NORMALIZED", "/version"]],
    ],
  ];

  it.each(cases)("%s", (_name, edit, expected) => {
    const result = importLangGraph(mutate(edit));
    expect(codes(result.warnings)).toEqual(expected);
    for (const w of result.warnings) expect(w.message.length).toBeGreaterThan(0);
    expect(parseWorkflow(result.workflow).diagnostics).toEqual([]);
  });

  it("dropped data keys are gone from the workflow; guessed and normalised values are set", () => {
    const doc = mutate((d) => {
      d.nodes[0].data.temperature_x = 1;
      d.edges[0].data = { when: "always" };
      d.version = "2";
    });
    const { workflow, warnings } = importLangGraph(doc);
    expect(workflow.nodes[0]?.config).not.toHaveProperty("temperature_x");
    expect(workflow.edges[0]).toStrictEqual({
      from: "llm-1",
      to: "dec-1",
      edgeType: "data",
      when: "always",
    });
    expect(workflow.version).toBe("2.0.0");
    expect(warnings.map((w) => w.data)).toEqual([
      { from: "2", to: "2.0.0" },
      { assumed: "data" },
      { key: "temperature_x" },
    ]);
  });

  it("a __proto__ key is ordinary data: declared and dropped, the prototype untouched", () => {
    const text = JSON.stringify(fixture())
      .replace('{"id":"agnt-x"', '{"__proto__":{"polluted":true},"id":"agnt-x"')
      .replace('"model":"gpt-4o"', '"__proto__":{"x":1},"model":"gpt-4o"');
    const { workflow, warnings } = importLangGraph(JSON.parse(text));
    expect(codes(warnings)).toEqual([
      ["FIELD_DROPPED", "/__proto__"],
      ["FIELD_DROPPED", "/nodes/0/data/__proto__"],
    ]);
    expect(Object.hasOwn(workflow.nodes[0]?.config ?? {}, "__proto__")).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("a delegate edge is in the subset and maps (autonomy 4)", () => {
    const doc = mutate((d) => {
      d.edges.push({ source: "llm-1", target: "agnt-v@1.0.0", data: { edgeType: "delegate" } });
    });
    const { workflow, warnings } = importLangGraph(doc);
    expect(workflow.edges[1]).toStrictEqual({
      from: "llm-1",
      to: "agnt-v@1.0.0",
      edgeType: "delegate",
    });
    expect(workflow.autonomyLevel).toBe(4);
    expect(warnings).toEqual([]);
  });
});

describe("importLangGraph: autonomyLevel is the level the graph justifies", () => {
  const cases: [string, (doc: Doc) => void, number][] = [
    ["two routes to end: loop-free", () => undefined, 1],
    [
      "a bounded retry loop",
      (d) => {
        d.nodes[1].data.onFalse = { next: "llm-1", maxRetries: 2 };
      },
      2,
    ],
    [
      "two different forward routes",
      (d) => {
        d.nodes.push({ id: "t", type: "tool", data: { usesTool: "tool:t@1.0.0" } });
        d.nodes[1].data.onFalse = { next: "t" };
      },
      3,
    ],
  ];
  it.each(cases)("%s → %i", (_name, edit, level) => {
    expect(importLangGraph(mutate(edit)).workflow.autonomyLevel).toBe(level);
  });
});

describe("detectLangGraph declines AgentOS graphs by their own marks", () => {
  const agentOsFixtures = readdirSync(new URL("../fixtures/agentos/", import.meta.url))
    .filter((f) => /\.(json|ya?ml)$/.test(f))
    .map((f) => `agentos/${f}`);

  it("there are AgentOS fixtures to check", () => {
    expect(agentOsFixtures.length).toBeGreaterThanOrEqual(3);
  });

  it.each(agentOsFixtures)("declines %s", (path) => {
    expect(detectLangGraph(readFixture(path))).toBe(false);
  });

  it.each([
    [
      "a node with an executorConfig",
      (d: Doc) => Object.assign(d.nodes[0], { executorConfig: {} }),
    ],
    ["an edge from __START__", (d: Doc) => Object.assign(d.edges[0], { source: "__START__" })],
    ["an edge into __END__", (d: Doc) => Object.assign(d.edges[0], { target: "__END__" })],
  ])("declines the subset fixture with %s, and still claims it without", (_name, edit) => {
    expect(detectLangGraph(fixture())).toBe(true);
    expect(detectLangGraph(mutate(edit))).toBe(false);
  });
});
