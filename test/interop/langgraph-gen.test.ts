/**
 * The `langgraph-gen` spec: the real fixture imports to the exact nodes, edges, level and
 * warnings; every guess is declared; malformed input fails with its path; detection is precise.
 */
import { readdirSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectLangGraphGen, importLangGraphGen } from "../../src/interop/langgraph-gen/index.js";
import { ImportError } from "../../src/interop/index.js";
import type { AgentEdge, AgentNode } from "../../src/model/index.js";
import { parseWorkflow } from "../../src/model/index.js";
import { codes, readFixture } from "./helpers.js";

const FIXTURE = "langgraph-gen/langgraph-gen-agentic_rag.spec.yml";

/** A spec node: a function stub the spec does not show, a tool of unknown effect and models. */
function fn(id: string): AgentNode {
  return { id, type: "tool", config: { usesTool: `tool:langgraph.node.${id}@0.0.0` } };
}

const NODES: AgentNode[] = [
  fn("agent"),
  fn("retrieve"),
  {
    id: "retrieve.route",
    type: "decision",
    config: {
      conditionLanguage: "text",
      cases: [{ condition: "is_relevant returns 'rewrite'", next: "rewrite" }],
      otherwise: { next: "generate" },
    },
  },
  fn("rewrite"),
  fn("generate"),
];

const EDGES: AgentEdge[] = [
  { from: "agent", to: "retrieve", edgeType: "data" },
  { from: "retrieve", to: "retrieve.route", edgeType: "data" },
  { from: "retrieve.route", to: "rewrite", edgeType: "data", when: "rewrite" },
  { from: "retrieve.route", to: "generate", edgeType: "data", when: "generate" },
  { from: "rewrite", to: "agent", edgeType: "data" },
];

const WARNINGS: [string, string][] = [
  ["HEURISTIC", "/name"],
  ["HEURISTIC", ""],
  ["HEURISTIC", ""],
  ["HEURISTIC", "/nodes/0"],
  ["HEURISTIC", "/nodes/1"],
  ["HEURISTIC", "/nodes/2"],
  ["HEURISTIC", "/nodes/3"],
  ["HEURISTIC", "/edges/1"],
];

/** What importing `doc` throws (`undefined` when it imports). */
function thrownBy(doc: unknown): unknown {
  try {
    importLangGraphGen(doc);
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("langgraph-gen import of the real fixture", () => {
  it("maps nodes, edges, identity, level and warnings exactly", () => {
    const doc = readFixture(FIXTURE);
    expect(detectLangGraphGen(doc)).toBe(true);
    const { workflow, warnings } = importLangGraphGen(doc);
    expect(workflow.id).toBe("langgraph-gen-AgenticRag");
    expect(workflow.name).toBe("AgenticRag");
    expect(workflow.version).toBe("0.0.0");
    expect(workflow.inputSchema).toEqual({ state: "any" });
    expect(workflow.outputSchema).toEqual({ state: "any" });
    expect(workflow.nodes).toEqual(NODES);
    expect(workflow.edges).toEqual(EDGES);
    expect(workflow.autonomyLevel).toBe(2);
    expect(codes(warnings)).toEqual(WARNINGS);
    expect(parseWorkflow(workflow).diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it("is deterministic", () => {
    const doc = readFixture(FIXTURE);
    expect(importLangGraphGen(doc)).toEqual(importLangGraphGen(readFixture(FIXTURE)));
  });
});

describe("langgraph-gen's own test specs: no name, no entrypoint, the entry from __start__", () => {
  it("sample_01: a plain __start__ edge names the entry", () => {
    const doc = readFixture("langgraph-gen/sample_01.yml");
    expect(detectLangGraphGen(doc)).toBe(true);
    const { workflow, warnings } = importLangGraphGen(doc);
    expect(workflow.id).toBe("langgraph-gen-create_agent");
    expect(workflow.name).toBe("create_agent");
    expect(workflow.nodes.map((n) => n.id)).toEqual(["Node-1", "Node-1.route", "Node-2", "Node-3"]);
    expect(workflow.autonomyLevel).toBe(3);
    expect(codes(warnings).slice(0, 3)).toEqual([
      ["HEURISTIC", "/name"],
      ["HEURISTIC", ""],
      ["HEURISTIC", ""],
    ]);
    expect(warnings[0]?.data).toEqual({ assumed: "langgraph-gen-create_agent" });
    expect(warnings).toHaveLength(10);
  });

  it("sample_02: a conditional __start__ edge is a decision, and it is the entry", () => {
    const doc = readFixture("langgraph-gen/sample_02.yml");
    expect(detectLangGraphGen(doc)).toBe(true);
    const { workflow, warnings } = importLangGraphGen(doc);
    expect(workflow.nodes[0]).toEqual({
      id: "start.route",
      type: "decision",
      config: {
        conditionLanguage: "text",
        cases: [
          { condition: "conditional_edge returns 'Node 1'", next: "Node-1" },
          { condition: "conditional_edge returns 'Node 2'", next: "Node-2" },
        ],
        otherwise: { next: "end" },
      },
    });
    expect(workflow.edges).toEqual([
      { from: "start.route", to: "Node-1", edgeType: "data", when: "Node 1" },
      { from: "start.route", to: "Node-2", edgeType: "data", when: "Node 2" },
      { from: "Node-1", to: "Node-2", edgeType: "data" },
    ]);
    expect(workflow.autonomyLevel).toBe(3);
    expect(codes(warnings)).toContainEqual(["HEURISTIC", "/edges/0"]);
  });

  it.each<[string, Spec, string, string | undefined]>([
    [
      "__start__ to two nodes (a parallel entry)",
      {
        nodes: [{ name: "a" }, { name: "b" }],
        edges: [
          { from: "__start__", to: "a" },
          { from: "__start__", to: "b" },
        ],
      },
      "/edges/1",
      "__start__",
    ],
    [
      "__start__ to another node than the entrypoint",
      {
        entrypoint: "a",
        nodes: [{ name: "a" }, { name: "b" }],
        edges: [{ from: "__start__", to: "b" }],
      },
      "/edges/0",
      "__start__",
    ],
    [
      "a conditional __start__ edge beside the entrypoint",
      {
        entrypoint: "a",
        nodes: [{ name: "a" }, { name: "b" }],
        edges: [{ from: "__start__", condition: "c", paths: ["a", "b"] }],
      },
      "/edges/0",
      "__start__",
    ],
    [
      "__start__ straight to __end__",
      { nodes: [{ name: "a" }], edges: [{ from: "__start__", to: "__end__" }] },
      "/edges/0/to",
      "__start__",
    ],
    [
      "neither entrypoint nor __start__",
      { nodes: [{ name: "a" }], edges: [] },
      "/entrypoint",
      undefined,
    ],
  ])("refuses %s", (_, doc, path, elementId) => {
    const caught = thrownBy(doc);
    expect(caught).toBeInstanceOf(ImportError);
    expect((caught as ImportError).path).toBe(path);
    expect((caught as ImportError).elementId).toBe(elementId);
  });

  it("is not claimed without an entrypoint or a __start__ edge", () => {
    expect(
      detectLangGraphGen({ nodes: [{ name: "a" }], edges: [{ from: "a", to: "__end__" }] }),
    ).toBe(false);
  });
});

type Spec = Record<string, unknown>;
const spec = (extra: Spec = {}): Spec => ({
  name: "G",
  entrypoint: "a",
  nodes: [{ name: "a" }, { name: "b c" }],
  edges: [
    { from: "a", to: "b c" },
    { from: "b c", to: "__end__" },
  ],
  ...extra,
});

describe("declared losses and guesses", () => {
  it.each<[string, Spec, [string, string][]]>([
    [
      "unknown keys and a normalised id",
      spec({ state: {}, nodes: [{ name: "a", doc: "x" }, { name: "b c" }] }),
      [
        ["FIELD_DROPPED", "/state"],
        ["HEURISTIC", "/name"],
        ["HEURISTIC", ""],
        ["HEURISTIC", ""],
        ["FIELD_DROPPED", "/nodes/0/doc"],
        ["HEURISTIC", "/nodes/0"],
        ["VALUE_NORMALIZED", "/nodes/1/name"],
        ["HEURISTIC", "/nodes/1"],
      ],
    ],
    [
      "a one-path condition and an __end__ beside a successor",
      spec({
        edges: [
          { from: "a", condition: "c", paths: ["b c"] },
          { from: "a", to: "__end__" },
        ],
      }),
      [
        ["HEURISTIC", "/name"],
        ["HEURISTIC", ""],
        ["HEURISTIC", ""],
        ["HEURISTIC", "/nodes/0"],
        ["VALUE_NORMALIZED", "/nodes/1/name"],
        ["HEURISTIC", "/nodes/1"],
        ["HEURISTIC", "/edges/0/paths"],
        ["FIELD_DROPPED", "/edges/1"],
      ],
    ],
    [
      // The route to __end__ is the decision's otherwise case: kept, so no loss is declared.
      "a condition with a path to __end__ beside another path",
      spec({ edges: [{ from: "a", condition: "c", paths: ["b c", "__end__"] }] }),
      [
        ["HEURISTIC", "/name"],
        ["HEURISTIC", ""],
        ["HEURISTIC", ""],
        ["HEURISTIC", "/nodes/0"],
        ["VALUE_NORMALIZED", "/nodes/1/name"],
        ["HEURISTIC", "/nodes/1"],
        ["HEURISTIC", "/edges/0"],
      ],
    ],
  ])("%s", (_, doc, expected) => {
    expect(codes(importLangGraphGen(doc).warnings)).toEqual(expected);
  });
});

describe("a spec node is a function stub: a tool step of unknown effect", () => {
  // langgraph-gen writes a stub per node for the developer to fill: a model call, a tool, a
  // payment. Read as llm nodes, they had no effect, and an ungated process passed.
  it.each<[string, string, string | undefined]>([
    ["a", "a", undefined],
    ["b c", "b-c", "b c"],
    ["pay_invoice", "pay_invoice", undefined],
  ])(
    "node %j is a tool on tool:langgraph.node.<id>@0.0.0, one warning saying so",
    (name, id, kept) => {
      const doc = spec({
        nodes: [{ name: "a" }, { name: "b c" }, { name: "pay_invoice" }],
        edges: [
          { from: "a", to: "b c" },
          { from: "b c", to: "pay_invoice" },
        ],
      });
      const { workflow, warnings } = importLangGraphGen(doc);
      const usesTool = `tool:langgraph.node.${id}@0.0.0`;
      expect(workflow.nodes.find((n) => n.id === id)).toStrictEqual({
        id,
        type: "tool",
        ...(kept === undefined ? {} : { name: kept }),
        config: { usesTool },
      });
      const at = `/nodes/${String(["a", "b c", "pay_invoice"].indexOf(name))}`;
      const w = warnings.filter((x) => x.path === at);
      expect(w.map((x) => [x.code, x.data])).toEqual([
        ["HEURISTIC", { nodeId: id, assumed: { type: "tool", config: { usesTool } } }],
      ]);
      expect(w[0]?.message).toBe(
        `node '${name}' is read as a tool node: the spec does not say what its function does (it may call a model, tools, or anything); a contract of '${usesTool}' states its effect, and until one does its effect is unknown and the gate verdict strict`,
      );
    },
  );
});

describe("malformed specs fail loudly", () => {
  it.each<[string, unknown, string, string | undefined]>([
    ["not an object", [], "", undefined],
    ["no name", spec({ name: 3 }), "/name", undefined],
    ["unknown entrypoint", spec({ entrypoint: "z" }), "/entrypoint", "z"],
    ["duplicate node", spec({ nodes: [{ name: "a" }, { name: "a" }] }), "/nodes/1/name", "a"],
    ["unknown edge target", spec({ edges: [{ from: "a", to: "z" }] }), "/edges/0/to", "z"],
    [
      "empty paths",
      spec({ edges: [{ from: "a", condition: "c", paths: [] }] }),
      "/edges/0/paths",
      undefined,
    ],
    [
      "to and paths",
      spec({ edges: [{ from: "a", to: "b c", condition: "c", paths: ["a"] }] }),
      "/edges/0",
      "a",
    ],
  ])("%s", (_, doc, path, elementId) => {
    const caught = thrownBy(doc);
    expect(caught).toBeInstanceOf(ImportError);
    const error = caught as ImportError;
    expect(error.format).toBe("langgraph-gen");
    expect(error.path).toBe(path);
    expect(error.elementId).toBe(elementId);
  });
});

describe("detect is precise", () => {
  const root = new URL("../fixtures/", import.meta.url);
  const others = readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(json|ya?ml)$/.test(f) && !f.startsWith("langgraph-gen"))
    .sort();
  it.each(others)("rejects %s", (file) => {
    expect(detectLangGraphGen(readFixture(file))).toBe(false);
  });
});

describe("totality", () => {
  it("import throws only ImportError and detect never throws, on any JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(typeof detectLangGraphGen(value)).toBe("boolean");
        try {
          importLangGraphGen(value);
        } catch (error) {
          expect(error).toBeInstanceOf(ImportError);
        }
      }),
    );
  });

  it("keeps __proto__ as data", () => {
    const doc = JSON.parse(
      '{"name":"G","entrypoint":"a","nodes":[{"name":"a"}],"edges":[],"__proto__":{"x":1}}',
    ) as unknown;
    expect(codes(importLangGraphGen(doc).warnings)[0]).toEqual(["FIELD_DROPPED", "/__proto__"]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
