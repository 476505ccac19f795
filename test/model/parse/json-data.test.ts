import { describe, expect, it } from "vitest";
import {
  getTemplate,
  jsonDataProblems,
  MAX_JSON_VALUES,
  parseToolContract,
  parseWorkflow,
  parseWorkflowText,
} from "../../../src/model/index.js";

function research(): Record<string, unknown> {
  return structuredClone(getTemplate("research")) as unknown as Record<string, unknown>;
}

/** `{ d: { d: ... } }`, `depth` levels, and the innermost object. */
function nested(depth: number): { root: Record<string, unknown>; bottom: Record<string, unknown> } {
  const root: Record<string, unknown> = {};
  let bottom = root;
  for (let i = 0; i < depth; i += 1) {
    const next: Record<string, unknown> = {};
    bottom.d = next;
    bottom = next;
  }
  return { root, bottom };
}

describe("jsonDataProblems", () => {
  const valid: [string, unknown][] = [
    ["a template", getTemplate("research")],
    ["scalars", [null, true, 0, -0, 1.5, "", "é😀"]],
    ["a null-prototype object", Object.assign(Object.create(null) as object, { a: 1 })],
    ["an own __proto__ key", JSON.parse('{"__proto__": {"x": 1}}')],
    ["undefined members (absent, as in JSON.stringify)", { a: undefined, b: 1 }],
    ["a shared object (no cycle)", ((s) => ({ a: s, b: [s, s] }))({ x: 1 })],
  ];
  it.each(valid)("accepts %s", (_name, value) => {
    expect(jsonDataProblems(value)).toEqual([]);
  });

  const cyclic: Record<string, unknown> = { a: { b: [] } };
  ((cyclic.a as Record<string, unknown>).b as unknown[]).push(cyclic);
  const invalid: [string, unknown, { path: string; kind: string; found: string }[]][] = [
    ["NaN at the root", Number.NaN, [{ path: "", kind: "not-finite", found: "NaN" }]],
    ["-Infinity", { x: [-Infinity] }, [{ path: "/x/0", kind: "not-finite", found: "-Infinity" }]],
    [
      "a lone high surrogate",
      { s: "a\ud800b" },
      [{ path: "/s", kind: "lone-surrogate", found: "U+D800" }],
    ],
    [
      "a lone low surrogate key",
      { "k\udc01": 1 },
      [{ path: "/k\udc01", kind: "lone-surrogate", found: "U+DC01" }],
    ],
    ["a BigInt", { n: 10n }, [{ path: "/n", kind: "bigint", found: "10n" }]],
    [
      "a cycle",
      cyclic,
      [{ path: "/a/b/0", kind: "cycle", found: "a reference to an enclosing value" }],
    ],
    ["a Map", { m: new Map() }, [{ path: "/m", kind: "not-plain-object", found: "Map" }]],
    ["a Date", [new Date(0)], [{ path: "/0", kind: "not-plain-object", found: "Date" }]],
    ["a function", { f: () => 1 }, [{ path: "/f", kind: "no-json-form", found: "a function" }]],
    ["a symbol", { s: Symbol("s") }, [{ path: "/s", kind: "no-json-form", found: "a symbol" }]],
    [
      "undefined in an array",
      [1, undefined],
      [{ path: "/1", kind: "no-json-form", found: "undefined" }],
    ],
    [
      "a hole in an array",
      Object.assign(new Array<number>(3), { 0: 1, 2: 3 }),
      [{ path: "/1", kind: "no-json-form", found: "undefined" }],
    ],
    [
      "an escaped key",
      { "a/b~c": Number.NaN },
      [{ path: "/a~1b~0c", kind: "not-finite", found: "NaN" }],
    ],
  ];
  it.each(invalid)("reports %s", (_name, value, expected) => {
    expect(jsonDataProblems(value)).toEqual(expected);
  });

  it("reports every problem in document order", () => {
    const value = { a: [Number.NaN, { b: 1n }], c: "\udfff" };
    expect(jsonDataProblems(value).map((p) => p.path)).toEqual(["/a/0", "/a/1/b", "/c"]);
  });

  it("walks 10,000-deep nesting without recursion and finds the problem at the bottom", () => {
    const { root, bottom } = nested(10_000);
    bottom.n = Number.POSITIVE_INFINITY;
    const [problem] = jsonDataProblems(root);
    expect(problem?.kind).toBe("not-finite");
    expect(problem?.path).toBe("/d".repeat(10_000) + "/n");
  });

  it("finds a cycle that closes 10,000 levels down", () => {
    const { root, bottom } = nested(10_000);
    bottom.back = root;
    expect(jsonDataProblems(root).map((p) => p.kind)).toEqual(["cycle"]);
  });

  it("stops a value whose shared references expand past the limit", () => {
    let level: unknown = 1;
    for (let i = 0; i < 40; i += 1) level = [level, level]; // 2^40 places as JSON text
    expect(jsonDataProblems(level)).toEqual([
      { path: "", kind: "too-large", found: `more than ${String(MAX_JSON_VALUES)} values` },
    ]);
  });
});

describe("the parsers refuse values that are not JSON data", () => {
  it("names the place and the node in parseWorkflow", () => {
    const doc = research();
    const nodes = doc.nodes as { config: Record<string, unknown> }[];
    (nodes[1] as { config: Record<string, unknown> }).config.params = { n: Number.NaN };
    doc.metadata = { when: new Date(0) };
    const { workflow, diagnostics } = parseWorkflow(doc);
    expect(workflow).toBeUndefined();
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: "NOT_JSON_DATA",
        severity: "error",
        path: "/nodes/1/config/params/n",
        target: { kind: "node", nodeId: "tool-2" },
        data: { kind: "not-finite", found: "NaN" },
      }),
      expect.objectContaining({
        code: "NOT_JSON_DATA",
        path: "/metadata/when",
        target: { kind: "workflow" },
        data: { kind: "not-plain-object", found: "Date" },
      }),
    ]);
    expect(diagnostics[0]?.message).toBe(
      "/nodes/1/config/params/n: NaN is not a JSON number, so the document has no canonical form or content hash",
    );
  });

  it("refuses a cyclic tool contract", () => {
    const contract: Record<string, unknown> = {
      kind: "ToolContract",
      id: "tool:x",
      version: "1.0.0",
      effect: "read-only",
      inputSchema: {},
      outputSchema: {},
    };
    contract.metadata = contract;
    const result = parseToolContract(contract);
    expect(result.contract).toBeUndefined();
    expect(result.diagnostics.map((d) => [d.code, d.path])).toContainEqual([
      "NOT_JSON_DATA",
      "/metadata",
    ]);
  });

  it("locates a lone-surrogate escape in JSON text", () => {
    const text = JSON.stringify(research(), null, 2).replace(
      '"name": "Research Agent"',
      '"name": "Research \\ud800 Agent"',
    );
    const { workflow, diagnostics } = parseWorkflowText(text);
    expect(workflow).toBeUndefined();
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: "NOT_JSON_DATA",
        path: "/name",
        location: { line: 5, column: 11 },
      }),
    ]);
  });

  it("locates one in YAML text, and accepts a well-formed surrogate pair", () => {
    const yaml = 'kind: AgentWorkflow\nname: "bad \\udc00"\n';
    expect(parseWorkflowText(yaml).diagnostics[0]).toMatchObject({
      code: "NOT_JSON_DATA",
      path: "/name",
      location: { line: 2, column: 7 },
    });
    const pair = JSON.stringify({ ...research(), name: "ok \ud83d\ude00" });
    expect(parseWorkflowText(pair).workflow?.name).toBe("ok 😀");
  });
});
