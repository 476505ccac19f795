import { Ajv2020 } from "ajv/dist/2020.js";
import type { ErrorObject } from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { getTemplate, parseWorkflow } from "../../../src/model/index.js";
import { MAX_STRUCTURE_ERRORS } from "../../../src/model/parse/ajv-errors.js";
import { schemaChecks } from "../../../src/model/parse/schema-check.js";
import { agentWorkflowSchema } from "../../../src/model/schema/workflow.js";

/** The published schema, compiled whole: the reference the split check must agree with. */
const reference = new Ajv2020({
  allErrors: true,
  strict: true,
  strictTypes: false,
  strictRequired: false,
}).compile(agentWorkflowSchema);

function referenceErrors(doc: object): readonly ErrorObject[] {
  return reference(doc) ? [] : (reference.errors ?? []);
}

/** What a diagnostic is built from: where, which keyword, and its parameters. */
function essence(errors: readonly ErrorObject[]): string[] {
  return errors.map((e) => `${e.instancePath} ${e.keyword} ${JSON.stringify(e.params)}`);
}

function research(): Record<string, unknown> {
  return structuredClone(getTemplate("research")) as unknown as Record<string, unknown>;
}

/** A template with up to three places (most under `nodes`) replaced by arbitrary JSON values. */
const mutated = fc
  .tuple(
    fc.constantFrom("approval-gate", "research", "document-review"),
    fc.array(
      fc.tuple(
        fc.array(
          fc.oneof(fc.nat({ max: 8 }), fc.constantFrom("nodes", "edges", "config", "budget")),
          { minLength: 1, maxLength: 4 },
        ),
        fc.jsonValue(),
      ),
      { minLength: 1, maxLength: 3 },
    ),
  )
  .map(([id, edits]) => {
    const doc = structuredClone(getTemplate(id)) as unknown as Record<string, unknown>;
    for (const [path, value] of edits) {
      let current: Record<string, unknown> = doc;
      for (const [i, step] of path.entries()) {
        const keys = Object.keys(current);
        const key = typeof step === "number" ? keys[step % Math.max(keys.length, 1)] : step;
        if (key === undefined) break;
        const next = current[key];
        if (i === path.length - 1 || typeof next !== "object" || next === null) {
          current[key] = value;
          break;
        }
        current = next as Record<string, unknown>;
      }
    }
    return doc;
  });

describe("the workflow schema check", () => {
  it("gives the published schema's errors, in its order, for mutated templates", () => {
    fc.assert(
      fc.property(mutated, (doc) => {
        expect(essence(schemaChecks().workflow(doc).flat())).toEqual(essence(referenceErrors(doc)));
      }),
      { seed: 20_250_808, numRuns: 400 },
    );
  });

  it("gives them for errors before, inside and after the nodes", () => {
    const doc = research();
    doc.extra = 1; // additionalProperties, reported before the properties
    doc.autonomyLevel = 9; // before nodes
    (doc.nodes as unknown[]).push(7, { id: "x", type: "llm", config: {} });
    doc.edges = "none"; // after nodes
    doc.budget = { maxSteps: -1 }; // after nodes
    const errors = schemaChecks().workflow(doc).flat();
    expect(essence(errors)).toEqual(essence(referenceErrors(doc)));
    expect(errors.map((e) => e.instancePath)).toEqual(
      expect.arrayContaining(["/autonomyLevel", "/nodes/3", "/nodes/4/config", "/edges"]),
    );
  });

  it("holds a node to its own type's config, whichever config it carries", () => {
    const doc = research();
    const decisionConfig = { condition: "x", onTrue: { next: "a" }, onFalse: { next: "b" } };
    (doc.nodes as unknown[]).push(
      { id: "l", type: "llm", config: decisionConfig },
      { id: "d", type: "decision", config: { model: "m", promptRef: "p" } },
      { id: "t", type: "tool", config: { usesTool: "x" }, decorators: [{ type: "memory" }] },
      { id: "u", type: "unknown", config: {} },
      { id: "n", type: null, config: {} },
      { id: "ok", type: "tool", config: { usesTool: "x" } },
    );
    const errors = schemaChecks().workflow(doc).flat();
    expect(essence(errors)).toEqual(essence(referenceErrors(doc)));
    const at = new Set(errors.map((e) => e.instancePath.split("/").slice(0, 3).join("/")));
    expect([...at].sort()).toEqual(
      ["/nodes/3", "/nodes/4", "/nodes/5", "/nodes/6", "/nodes/7"].sort(),
    );
  });

  it("checks 100,000 invalid nodes: lists the first 1,000, counts the rest in one diagnostic", () => {
    const doc = { ...research(), nodes: Array<number>(100_000).fill(0) };
    const runs = schemaChecks().workflow(doc);
    // One run per invalid node, each holding its own errors.
    expect(runs).toHaveLength(100_000);
    expect(runs[99_999]?.map((e) => e.instancePath)).toEqual(["/nodes/99999"]);
    const { workflow, diagnostics } = parseWorkflow(doc);
    expect(workflow).toBeUndefined();
    expect(MAX_STRUCTURE_ERRORS).toBe(1_000);
    expect(diagnostics).toHaveLength(1_001);
    expect(diagnostics[999]).toMatchObject({
      code: "STRUCTURE_INVALID",
      path: "/nodes/999",
      data: { keyword: "type", expected: "object", actual: "integer" },
    });
    expect(diagnostics[1_000]).toEqual({
      code: "STRUCTURE_INVALID",
      severity: "error",
      message:
        "the workflow: 99000 more structural errors, not listed (a document lists at most 1000)",
      target: { kind: "workflow" },
      path: "",
      data: { keyword: "too-many", count: 99_000, limit: 1_000 },
    });
  });
});
