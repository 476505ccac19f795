import { describe, expect, it } from "vitest";
import type { ErrorObject } from "ajv";
import {
  ajvErrorsToDiagnostics,
  MAX_STRUCTURE_ERRORS,
} from "../../../src/model/parse/ajv-errors.js";
import { getTemplate } from "../../../src/model/index.js";
import { parseToolContract, parseWorkflow } from "../../../src/model/parse/value.js";
import { parseWorkflowText } from "../../../src/model/parse/text.js";

function research(): Record<string, unknown> {
  return structuredClone(getTemplate("research")) as unknown as Record<string, unknown>;
}

/** A valid llm node with one property the schema does not know. */
function nodeWithExtra(i: number): Record<string, unknown> {
  return {
    id: `n${String(i)}`,
    type: "llm",
    config: { model: "m", promptRef: "prm:p@1.0.0" },
    extra: i,
  };
}

describe("the structural error limit", () => {
  it("lists 1,000 structural errors and counts the rest in one last diagnostic", () => {
    const doc = { ...research(), nodes: Array<number>(1_500).fill(7) };
    const { workflow, diagnostics } = parseWorkflow(doc);
    expect(workflow).toBeUndefined();
    expect(diagnostics).toHaveLength(MAX_STRUCTURE_ERRORS + 1);
    expect(diagnostics.slice(0, 1_000).map((d) => d.path)).toEqual(
      Array.from({ length: 1_000 }, (_, i) => `/nodes/${String(i)}`),
    );
    expect(diagnostics[1_000]).toEqual({
      code: "STRUCTURE_INVALID",
      severity: "error",
      message:
        "the workflow: 500 more structural errors, not listed (a document lists at most 1000)",
      target: { kind: "workflow" },
      path: "",
      data: { keyword: "too-many", count: 500, limit: 1_000 },
    });
  });

  it("lists exactly 1,000 with no summary", () => {
    const doc = { ...research(), nodes: Array<number>(1_000).fill(7) };
    const { diagnostics } = parseWorkflow(doc);
    expect(diagnostics).toHaveLength(1_000);
    expect(diagnostics.filter((d) => d.data.keyword === "too-many")).toEqual([]);
  });

  it("lists every unknown property (importers act on each), and counts only errors", () => {
    const nodes: unknown[] = Array.from({ length: 1_200 }, (_, i) => nodeWithExtra(i));
    nodes.push(...Array<number>(1_001).fill(0));
    const { diagnostics } = parseWorkflow({ ...research(), nodes, edges: [] });
    const unknown = diagnostics.filter((d) => d.code === "UNKNOWN_PROPERTY");
    expect(unknown).toHaveLength(1_200);
    expect(unknown[1_199]?.path).toBe("/nodes/1199/extra");
    const errors = diagnostics.filter((d) => d.code === "STRUCTURE_INVALID");
    expect(errors).toHaveLength(1_001);
    expect(errors.at(-2)?.path).toBe("/nodes/2199");
    expect(errors.at(-1)).toMatchObject({ path: "", data: { keyword: "too-many", count: 1 } });
    // The summary comes after every listed diagnostic.
    expect(diagnostics.at(-1)).toBe(errors.at(-1));
  });

  it("names the document kind, and places the summary at the document's start in text", () => {
    const { diagnostics } = parseToolContract({
      kind: "ToolContract",
      id: "tool:x",
      version: "1.0.0",
      name: "x",
      effect: "read",
      authorization: "automatic",
      outputSchema: { a: "text" },
      inputSchema: Object.fromEntries(
        Array.from({ length: 1_002 }, (_, i) => [`f${String(i)}`, 0]),
      ),
    });
    expect(diagnostics.at(-1)?.message).toBe(
      "the tool contract: 2 more structural errors, not listed (a document lists at most 1000)",
    );
    const text = "kind: AgentWorkflow\nnodes:\n" + "- 1\n".repeat(1_003);
    const parsed = parseWorkflowText(text);
    const last = parsed.diagnostics.at(-1);
    expect(last).toMatchObject({
      code: "STRUCTURE_INVALID",
      path: "",
      location: { line: 1, column: 1 },
    });
    // 7 missing properties come first, so 993 of the 1,003 nodes are listed and 10 counted.
    expect(last?.data).toEqual({ keyword: "too-many", count: 10, limit: 1_000 });
    expect(parsed.diagnostics.at(-2)).toMatchObject({
      path: "/nodes/992",
      location: { line: 995, column: 3 },
    });
  });

  it("removes duplicates within a run, before counting", () => {
    const error = (keyword: string, instancePath: string): ErrorObject => ({
      keyword,
      instancePath,
      schemaPath: "#",
      params: { type: "object" },
      data: 1,
    });
    const run = [error("type", "/a"), error("if", "/a"), error("type", "/a"), error("enum", "/a")];
    const out = ajvErrorsToDiagnostics([run, [error("type", "/b")]], {}, "workflow");
    expect(out.map((d) => `${d.path} ${String(d.data.keyword)}`)).toEqual([
      "/a type",
      "/a enum",
      "/b type",
    ]);
  });
});
