import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseToolContract, parseWorkflow } from "../../../src/model/parse/value.js";

const FIXTURES = new URL("../../fixtures/agentflow/", import.meta.url);

function base(): Record<string, unknown> {
  return {
    kind: "AgentWorkflow",
    id: "agnt-t",
    version: "1.0.0",
    name: "T",
    autonomyLevel: 1,
    inputSchema: { q: "text" },
    outputSchema: { a: "text" },
    nodes: [
      {
        id: "llm-1",
        type: "llm",
        config: { model: "m", promptRef: "prm:p@1.0.0", structuredOutput: true },
      },
      {
        id: "dec",
        type: "decision",
        config: { condition: 'output.a = "x"', onTrue: { next: "end" }, onFalse: { next: "end" } },
      },
    ],
    edges: [{ from: "llm-1", to: "dec", edgeType: "data" }],
  };
}

/** Loose, writable views of the base document, for mutations in tests. */
type Obj = Record<string, unknown>;
type EditableNode = Obj & { config: Obj & Record<"onTrue" | "onFalse", Obj> };
interface Editable extends Obj {
  nodes: [EditableNode, EditableNode];
  edges: [Obj];
}

function mutate(edit: (doc: Editable) => void): Record<string, unknown> {
  const doc = structuredClone(base()) as Editable;
  edit(doc);
  return doc;
}

describe("parseWorkflow: the shared agentflow fixtures", () => {
  const files = readdirSync(FIXTURES).filter(
    (f) => f.endsWith(".json") && !f.startsWith("langgraph-"),
  );
  it.each(files)("%s parses into a workflow without errors", (file) => {
    const doc: unknown = JSON.parse(readFileSync(new URL(file, FIXTURES), "utf8"));
    const result = parseWorkflow(doc);
    expect(result.workflow).toBeDefined();
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it("the Handoff 12 example parses, keeping its abbreviated refs for the ref rules", () => {
    const doc = JSON.parse(
      readFileSync(new URL("handoff12-spec-research-agent.json", FIXTURES), "utf8"),
    ) as Record<string, unknown>;
    const result = parseWorkflow(doc);
    expect(result.diagnostics).toEqual([]);
    const llm = result.workflow?.nodes[0];
    expect(llm?.type === "llm" ? llm.config.promptRef : undefined).toBe("prm:research@2");
    expect(result.workflow?.edges[3]?.to).toBe("agnt-verify@1.0");
  });
});

describe("parseWorkflow: each kind of structural violation", () => {
  const cases: readonly {
    name: string;
    doc: Record<string, unknown>;
    code: string;
    severity: "error" | "warning";
    path: string;
    target: unknown;
    data: Record<string, unknown>;
  }[] = [
    {
      name: "missing required property",
      doc: mutate((d) => delete d.nodes[0].config.promptRef),
      code: "STRUCTURE_INVALID",
      severity: "error",
      path: "/nodes/0/config/promptRef",
      target: { kind: "node", nodeId: "llm-1" },
      data: { keyword: "required", property: "promptRef" },
    },
    {
      name: "wrong type",
      doc: mutate((d) => (d.nodes[0].config.structuredOutput = "yes")),
      code: "STRUCTURE_INVALID",
      severity: "error",
      path: "/nodes/0/config/structuredOutput",
      target: { kind: "node", nodeId: "llm-1" },
      data: { keyword: "type", expected: "boolean", actual: "string" },
    },
    {
      name: "a fourth node type",
      doc: mutate((d) => (d.nodes[1].type = "agent")),
      code: "STRUCTURE_INVALID",
      severity: "error",
      path: "/nodes/1/type",
      target: { kind: "node", nodeId: "dec" },
      data: { keyword: "enum", expected: ["llm", "tool", "decision"], actual: "string" },
    },
    {
      name: "wrong kind",
      doc: mutate((d) => (d.kind = "Workflow")),
      code: "STRUCTURE_INVALID",
      severity: "error",
      path: "/kind",
      target: { kind: "workflow" },
      data: { keyword: "const", expected: "AgentWorkflow", actual: "string" },
    },
    {
      name: "autonomy above 5",
      doc: mutate((d) => (d.autonomyLevel = 6)),
      code: "STRUCTURE_INVALID",
      severity: "error",
      path: "/autonomyLevel",
      target: { kind: "workflow" },
      data: { keyword: "maximum", limit: 5, actual: "integer" },
    },
    {
      name: "negative maxRetries",
      doc: mutate((d) => (d.nodes[1].config.onFalse.maxRetries = -1)),
      code: "STRUCTURE_INVALID",
      severity: "error",
      path: "/nodes/1/config/onFalse/maxRetries",
      target: { kind: "node", nodeId: "dec" },
      data: { keyword: "minimum", limit: 0, actual: "integer" },
    },
    {
      name: "empty route target",
      doc: mutate((d) => (d.nodes[1].config.onTrue.next = "")),
      code: "STRUCTURE_INVALID",
      severity: "error",
      path: "/nodes/1/config/onTrue/next",
      target: { kind: "node", nodeId: "dec" },
      data: { keyword: "minLength", limit: 1, actual: "string" },
    },
    {
      name: "multi-way decision without cases",
      doc: mutate((d) => ((d.nodes[1] as Obj).config = { cases: [], otherwise: { next: "end" } })),
      code: "STRUCTURE_INVALID",
      severity: "error",
      path: "/nodes/1/config/cases",
      target: { kind: "node", nodeId: "dec" },
      data: { keyword: "minItems", limit: 1, actual: "array" },
    },
    {
      name: "invalid workflow id",
      doc: mutate((d) => (d.id = "1-agent")),
      code: "STRUCTURE_INVALID",
      severity: "error",
      path: "/id",
      target: { kind: "workflow" },
      data: { keyword: "pattern", pattern: "^[A-Za-z][A-Za-z0-9._:-]*$", actual: "string" },
    },
    {
      name: "edge type unknown (target is the edge)",
      doc: mutate((d) => (d.edges[0].edgeType = "calls")),
      code: "STRUCTURE_INVALID",
      severity: "error",
      path: "/edges/0/edgeType",
      target: { kind: "edge", index: 0, from: "llm-1", to: "dec" },
      data: { keyword: "enum", expected: ["toolCall", "data", "delegate"], actual: "string" },
    },
    {
      name: "decorator field of another decorator type",
      doc: mutate(
        (d) => (d.nodes[0].decorators = [{ type: "planner", strategy: "static", scope: "short" }]),
      ),
      code: "UNKNOWN_PROPERTY",
      severity: "warning",
      path: "/nodes/0/decorators/0/scope",
      target: { kind: "node", nodeId: "llm-1" },
      data: { keyword: "additionalProperties", property: "scope" },
    },
    {
      name: "unknown top-level key",
      doc: mutate((d) => (d.interrupts = [])),
      code: "UNKNOWN_PROPERTY",
      severity: "warning",
      path: "/interrupts",
      target: { kind: "workflow" },
      data: { keyword: "additionalProperties", property: "interrupts" },
    },
    {
      name: "budget cost key without a currency code",
      doc: mutate((d) => (d.budget = { maxCost: 3 })),
      code: "UNKNOWN_PROPERTY",
      severity: "warning",
      path: "/budget/maxCost",
      target: { kind: "workflow" },
      data: { keyword: "additionalProperties", property: "maxCost" },
    },
    {
      name: "field type neither expression nor schema",
      doc: mutate((d) => (d.inputSchema = { q: 3 })),
      code: "STRUCTURE_INVALID",
      severity: "error",
      path: "/inputSchema/q",
      target: { kind: "workflow" },
      data: { keyword: "type", expected: ["string", "object"], actual: "integer" },
    },
    {
      name: "version that is a tag",
      doc: mutate((d) => (d.version = "latest")),
      code: "VERSION_INVALID",
      severity: "error",
      path: "/version",
      target: { kind: "workflow" },
      data: { version: "latest", reason: "tag" },
    },
    {
      name: "abbreviated version",
      doc: mutate((d) => (d.version = "2.1")),
      code: "VERSION_ABBREVIATED",
      severity: "warning",
      path: "/version",
      target: { kind: "workflow" },
      data: { version: "2.1", normalized: "2.1.0" },
    },
  ];

  it.each(cases)("$name → $code at $path", ({ doc, code, severity, path, target, data }) => {
    const result = parseWorkflow(doc);
    expect(result.diagnostics).toHaveLength(1);
    const [d] = result.diagnostics;
    expect(d).toMatchObject({ code, severity, path, target, data });
    expect(d?.message).toContain(path === "" ? "workflow" : path.split("/").pop());
    expect(result.workflow === undefined).toBe(severity === "error");
  });

  it("normalises an abbreviated version in the returned workflow", () => {
    expect(parseWorkflow(mutate((d) => (d.version = "2"))).workflow?.version).toBe("2.0.0");
  });

  it.each([null, 3, "text", [], true])(
    "a non-object document (%j) is one error at the root",
    (doc) => {
      const result = parseWorkflow(doc);
      expect(result.workflow).toBeUndefined();
      expect(result.diagnostics).toMatchObject([
        { code: "STRUCTURE_INVALID", path: "", data: { keyword: "type" } },
      ]);
    },
  );

  it("a value whose getter throws is a diagnostic, not a crash", () => {
    const doc = base();
    Object.defineProperty(doc, "name", {
      enumerable: true,
      get: () => {
        throw new Error("boom");
      },
    });
    expect(parseWorkflow(doc).diagnostics).toMatchObject([
      { code: "STRUCTURE_INVALID", path: "", data: { keyword: "unreadable" } },
    ]);
  });

  it("keeps __proto__ and constructor keys as data without polluting prototypes", () => {
    const doc = JSON.parse(
      JSON.stringify(base()).replace(
        '"name":"T"',
        '"name":"T","__proto__":{"polluted":1},"constructor":{"x":1}',
      ),
    ) as unknown;
    const result = parseWorkflow(doc);
    expect(result.diagnostics.map((d) => d.path)).toEqual(["/__proto__", "/constructor"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("parseToolContract", () => {
  const contract = {
    kind: "ToolContract",
    id: "tool:refund",
    version: "1.0.0",
    name: "Refund",
    inputSchema: { amount: "number" },
    outputSchema: { refundId: "text" },
    effect: "write-irreversible",
    authorization: "gate",
  };
  it("accepts a contract", () => {
    expect(parseToolContract(contract)).toEqual({ contract, diagnostics: [] });
  });
  it.each([
    [{ ...contract, effect: "delete" }, "/effect", "enum"],
    [{ ...contract, id: "refund" }, "/id", "pattern"],
    [{ ...contract, authorization: undefined }, "/authorization", "required"],
  ])("rejects %j at %s", (doc, path, keyword) => {
    const result = parseToolContract(JSON.parse(JSON.stringify(doc)));
    expect(result.contract).toBeUndefined();
    expect(result.diagnostics).toMatchObject([
      { code: "STRUCTURE_INVALID", path, data: { keyword } },
    ]);
  });
});
