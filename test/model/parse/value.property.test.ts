import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateWorkflow } from "../../../bench/generate.js";
import type { Diagnostic } from "../../../src/model/index.js";
import {
  buildFlowGraph,
  contentHash,
  getTemplate,
  parseWorkflow,
  parseWorkflowText,
} from "../../../src/model/index.js";

const SEVERITIES = new Set(["error", "warning", "info"]);
const TARGETS = new Set(["workflow", "node", "edge", "bpmn-element"]);

/** Every diagnostic must have the one shape SPEC 3 describes, whatever the input. */
function expectWellFormed(diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics) {
    expect(d.code).toMatch(/^[A-Z][A-Z0-9_]+$/);
    expect(SEVERITIES.has(d.severity)).toBe(true);
    expect(d.message.length).toBeGreaterThan(0);
    expect(TARGETS.has(d.target.kind)).toBe(true);
    expect(d.path === "" || d.path.startsWith("/")).toBe(true);
    expect(typeof d.data).toBe("object");
    if (d.location !== undefined) {
      expect(Number.isInteger(d.location.line) && d.location.line >= 1).toBe(true);
      expect(Number.isInteger(d.location.column) && d.location.column >= 1).toBe(true);
    }
  }
}

/** A template with one value somewhere replaced by an arbitrary JSON value. */
const mutatedWorkflow = fc
  .tuple(
    fc.constantFrom("approval-gate", "research", "document-review"),
    fc.array(
      fc.oneof(
        fc.nat({ max: 6 }),
        fc.constantFrom(
          "nodes",
          "edges",
          "config",
          "onTrue",
          "version",
          "__proto__",
          "constructor",
        ),
      ),
      { maxLength: 5 },
    ),
    fc.jsonValue(),
  )
  .map(([id, path, value]) => {
    const doc = getTemplate(id) as unknown as Record<string, unknown>;
    let current: unknown = doc;
    for (const [i, step] of path.entries()) {
      if (typeof current !== "object" || current === null) break;
      const keys = Object.keys(current);
      const key = typeof step === "number" ? keys[step % Math.max(keys.length, 1)] : step;
      if (key === undefined) break;
      if (i === path.length - 1)
        Object.defineProperty(current, key, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      // Own properties only: walking into __proto__ would pollute the test process itself.
      else if (Object.hasOwn(current, key)) current = (current as Record<string, unknown>)[key];
      else break;
    }
    return doc;
  });

describe("parseWorkflow never throws and always returns well-formed diagnostics", () => {
  it("for arbitrary values", () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const result = parseWorkflow(value);
        expectWellFormed(result.diagnostics);
        expect(result.workflow === undefined).toBe(
          result.diagnostics.some((d) => d.severity === "error"),
        );
      }),
      { numRuns: 500 },
    );
  });

  it("for templates with one value replaced anywhere", () => {
    fc.assert(
      fc.property(mutatedWorkflow, (doc) => {
        const result = parseWorkflow(doc);
        expectWellFormed(result.diagnostics);
        if (result.workflow !== undefined) buildFlowGraph(result.workflow);
      }),
      { numRuns: 500 },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("parseWorkflowText never throws", () => {
  it.each([
    ["arbitrary strings", fc.string({ unit: "binary" })],
    ["JSON text", fc.json()],
    [
      "template text with a character changed",
      fc.tuple(fc.nat(), fc.string({ minLength: 1, maxLength: 1 })).map(([at, ch]) => {
        const text = JSON.stringify(getTemplate("research"), null, 2);
        const i = at % text.length;
        return text.slice(0, i) + ch + text.slice(i + 1);
      }),
    ],
  ])("for %s", (_name, arbitrary) => {
    fc.assert(
      fc.property(arbitrary, (text) => {
        const result = parseWorkflowText(text);
        expectWellFormed(result.diagnostics);
      }),
      { numRuns: 300 },
    );
  });
});

describe("scale and depth", () => {
  it("parses and builds the graph of a 100,000-node chain", () => {
    const text = JSON.stringify(generateWorkflow(100_000, "chain"));
    const result = parseWorkflowText(text);
    expect(result.diagnostics).toEqual([]);
    const graph = buildFlowGraph(result.workflow ?? generateWorkflow(1, "chain"));
    expect(graph.entry).toBe(0);
    expect(graph.reachable.every((r) => r === 1)).toBe(true);
  });

  it("handles a 10,000-deep nested object in metadata, as a value and as text", () => {
    let deep: unknown = { leaf: true };
    for (let i = 0; i < 10_000; i += 1) deep = { d: deep };
    const doc = { ...getTemplate("approval-gate"), metadata: { deep } };
    const result = parseWorkflow(doc);
    expect(result.diagnostics).toEqual([]);
    expect(contentHash(doc)).toMatch(/^sha256:[0-9a-f]{64}$/);
    const text =
      '{"kind":"AgentWorkflow","metadata":' +
      '{"d":'.repeat(10_000) +
      "1" +
      "}".repeat(10_000) +
      "}";
    const fromText = parseWorkflowText(text);
    expect(fromText.workflow).toBeUndefined();
    expect(fromText.diagnostics.map((d) => d.path)).toContain("/id");
  });

  it("handles a 10,000-deep nested array as text without overflowing", () => {
    const text = "[".repeat(10_000) + "]".repeat(10_000);
    expect(parseWorkflowText(text).diagnostics).toMatchObject([
      { code: "STRUCTURE_INVALID", path: "" },
    ]);
  });
});

describe("parseWorkflow on arrays that carry an own constructor", () => {
  it("fills decorator defaults without calling the array's constructor (seed 175 of the property)", () => {
    const doc = getTemplate("research") as unknown as { nodes: { decorators?: unknown[] }[] };
    const decorators = doc.nodes[0]?.decorators;
    if (decorators === undefined) throw new Error("the template's first node has decorators");
    Object.defineProperty(decorators, "constructor", { value: {}, enumerable: true });
    const result = parseWorkflow(doc);
    expectWellFormed(result.diagnostics);
  });
});
