import { describe, expect, it } from "vitest";
import { findMismatch, isAssignable } from "../../../src/model/shape/assignable.js";
import { resolveShape } from "../../../src/model/shape/resolve.js";
import { parseTypeExpression } from "../../../src/model/shape/type-expr.js";
import type { TypeNode } from "../../../src/model/shape/type-expr.js";
import type { SchemaShape } from "../../../src/model/types.js";

const TYPES: Readonly<Record<string, SchemaShape>> = {
  Findings: { items: "text[]", "score?": "number" },
  Evidence: { style: "Findings", accuracy: "Findings" },
  WorkItem: { id: "text", owner: "member<engineering>", writes: "path[]" },
  Plan: { summary: "text", work: "WorkItem[1..6]" },
  Draft: { summary: "text", "work?": "WorkItem[]" },
  Loose: { summary: "text", work: { type: "array" } },
  Odd: { summary: "text", work: { anyOf: [{ type: "string" }, { type: "number" }] } },
};

/** Parses and resolves a type expression against {@link TYPES}. */
function t(expression: string): TypeNode {
  const parsed = parseTypeExpression(expression);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const { type, problems } = resolveShape({ x: expression }, TYPES, "");
  expect(problems).toEqual([]);
  const resolved = type.fields[0]?.type;
  if (resolved === undefined) throw new Error("no field");
  return resolved;
}

/** An anonymous object type written as a shape. */
const shape = (s: SchemaShape): TypeNode => resolveShape(s, TYPES, "").type;

describe("isAssignable: primitives", () => {
  it.each<[string, string, boolean]>([
    ["text", "text", true],
    ["path", "path", true],
    ["bool", "bool", true],
    ["number", "number", true],
    ["duration", "duration", true],
    ["integer", "integer", true],
    ["string", "text", true],
    ["boolean", "bool", true],
    ["number", "duration", true],
    ["duration", "number", true],
    ["integer", "number", true],
    ["integer", "duration", true],
    ["number", "integer", false],
    ["duration", "integer", false],
    ["path", "text", false],
    ["text", "path", false],
    ["text", "number", false],
    ["bool", "text", false],
    ["number", "bool", false],
  ])("%s <: %s is %s", (s, target, expected) => {
    expect(isAssignable(t(s), t(target))).toBe(expected);
  });
});

describe("isAssignable: any, schemas, members, arrays", () => {
  it.each<[string, string, boolean]>([
    ["any", "text", true],
    ["text", "any", true],
    ["any", "Plan", true],
    ["Plan[]", "any", true],
    ["member<engineering>", "text", true],
    ["text", "member<engineering>", false],
    ["member<engineering>", "member<engineering>", true],
    ["member<engineering>", "member<ops>", false],
    ["member<engineering>", "path", false],
    ["text[]", "text[]", true],
    ["member<engineering>[]", "text[]", true],
    ["text[]", "member<engineering>[]", false],
    ["text[]", "text", false],
    ["text", "text[]", false],
    ["path[][]", "path[][]", true],
    ["path[][]", "path[]", false],
    ["integer[][]", "duration[][]", true],
    // Bounds are runtime business: never compared statically.
    ["WorkItem[1..6]", "WorkItem[]", true],
    ["WorkItem[]", "WorkItem[1..6]", true],
    ["text[2..3]", "text[0..1]", true],
  ])("%s <: %s is %s", (s, target, expected) => {
    expect(isAssignable(t(s), t(target))).toBe(expected);
  });

  it.each<[string, TypeNode]>([
    ["an unconvertible JSON Schema", { kind: "schema", schema: { anyOf: [] } }],
    ["an external (unresolved) reference", { kind: "named", name: "Vendor" }],
  ])("%s is assignable both ways", (_title, open) => {
    for (const other of ["text", "number[]", "Plan", "member<ops>"]) {
      expect([isAssignable(open, t(other)), isAssignable(t(other), open)]).toEqual([true, true]);
    }
  });
});

describe("isAssignable: objects are structural", () => {
  it("{style: Findings, accuracy: Findings} <: Evidence (the seed's example)", () => {
    const found = shape({ style: "Findings", accuracy: "Findings" });
    expect(isAssignable(found, t("Evidence"))).toBe(true);
  });

  it.each<[string, SchemaShape, string, boolean]>([
    [
      "extra fields are fine",
      { style: "Findings", accuracy: "Findings", x: "bool" },
      "Evidence",
      true,
    ],
    ["a missing required field", { style: "Findings" }, "Evidence", false],
    [
      "a required field optional in S",
      { style: "Findings", "accuracy?": "Findings" },
      "Evidence",
      false,
    ],
    [
      "a required field of another type",
      { style: "Findings", accuracy: "text" },
      "Evidence",
      false,
    ],
    ["an optional field may be absent", { items: "text[]" }, "Findings", true],
    [
      "an optional field present and assignable",
      { items: "text[]", score: "integer" },
      "Findings",
      true,
    ],
    ["an optional field present but wrong", { items: "text[]", score: "text" }, "Findings", false],
    ["optional in both, wrong type", { items: "text[]", "score?": "bool" }, "Findings", false],
    ["nested structural match", { summary: "text", work: "WorkItem[]" }, "Plan", true],
    [
      "nested member <: text is not text <: member",
      { summary: "text", work: "Draft[]" },
      "Plan",
      false,
    ],
    [
      "a converted JSON Schema array",
      { summary: "text", work: { type: "array", items: { type: "object" } } },
      "Plan",
      false,
    ],
  ])("%s", (_title, source, target, expected) => {
    expect(isAssignable(shape(source), t(target))).toBe(expected);
  });

  it.each<[string, string, boolean]>([
    ["Plan", "Draft", true],
    ["Draft", "Plan", false],
    ["Loose", "Plan", true],
    ["Plan", "Loose", true],
    ["Odd", "Plan", true],
    ["Evidence", "Findings", false],
    ["Plan", "text", false],
    ["text", "Plan", false],
  ])("%s <: %s is %s", (s, target, expected) => {
    expect(isAssignable(t(s), t(target))).toBe(expected);
  });
});

describe("findMismatch", () => {
  it.each<[string, TypeNode, TypeNode, ReturnType<typeof findMismatch>]>([
    ["none", t("Plan"), t("Draft"), undefined],
    [
      "a missing field",
      shape({ style: "Findings" }),
      t("Evidence"),
      { path: ["accuracy"], target: t("Findings") },
    ],
    [
      "a nested element",
      shape({ summary: "text", work: "Findings[]" }),
      t("Plan"),
      { path: ["work", "[]", "id"], target: t("text") },
    ],
    [
      "an optional source for a required target",
      shape({ summary: "text", "work?": "WorkItem[]" }),
      t("Plan"),
      { path: ["work"], source: t("WorkItem[]"), target: t("WorkItem[1..6]") },
    ],
    ["the root", t("text"), t("path"), { path: [], source: t("text"), target: t("path") }],
  ])("%s", (_title, s, target, expected) => {
    expect(findMismatch(s, target)).toEqual(expected);
  });

  it("compares shared structure once, so a hand-built DAG of 2^60 paths stays cheap", () => {
    let node: TypeNode = { kind: "primitive", name: "text" };
    for (let i = 0; i < 60; i += 1) {
      node = {
        kind: "object",
        fields: [
          { name: "a", optional: false, type: node },
          { name: "b", optional: false, type: node },
        ],
      };
    }
    expect(isAssignable(node, node)).toBe(true);
  });
});
