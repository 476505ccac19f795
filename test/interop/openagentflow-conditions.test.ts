/**
 * IR condition trees to FEEL text, `not` included: the exact text, that it parses as FEEL, and
 * that the export's reader gives the same tree back.
 */
import { describe, expect, it } from "vitest";
import { conditionToFeel, feelToCondition } from "../../src/interop/openagentflow/condition.js";
import type { OafExpr } from "../../src/interop/openagentflow/index.js";
import { analyzeCondition } from "../../src/model/index.js";

const id = (name: string): OafExpr => ({ type: "IdentifierExpr", name });
const lit = (value: string | number | boolean): OafExpr => ({ type: "LiteralExpr", value });
const not = (right: OafExpr): OafExpr => ({ type: "UnaryExpr", operator: "not", right });
const cmp = (
  operator: "==" | "!=" | "<" | "<=" | ">" | ">=",
  left: OafExpr,
  right: OafExpr,
): OafExpr => ({ type: "BinaryExpr", operator, left, right });
const and = (left: OafExpr, right: OafExpr): OafExpr => ({
  type: "LogicalExpr",
  operator: "and",
  left,
  right,
});
const or = (left: OafExpr, right: OafExpr): OafExpr => ({
  type: "LogicalExpr",
  operator: "or",
  left,
  right,
});

const CTX = { at: ["graph", "edges", 0], elementId: "A", variables: new Set(["a", "b", "c", "s"]) };

const CASES: [string, OafExpr, string][] = [
  ["not of a name", not(id("a")), "not(output.a)"],
  ["not of a comparison", not(cmp("==", id("s"), lit("x"))), 'not(output.s = "x")'],
  ["not of and", not(and(id("a"), id("b"))), "not(output.a and output.b)"],
  ["not of not", not(not(id("a"))), "not(not(output.a))"],
  [
    'not compared (the compiler\'s `not s == "x"`)',
    cmp("==", not(id("s")), lit("x")),
    'not(output.s) = "x"',
  ],
  [
    "and of not",
    and(not(id("a")), cmp(">=", id("c"), lit(0.7))),
    "not(output.a) and output.c >= 0.7",
  ],
  [
    "or of and (FEEL's precedence, parenthesised anyway)",
    or(id("a"), and(id("b"), id("c"))),
    "output.a or (output.b and output.c)",
  ],
  [
    "and of or",
    and(or(id("a"), id("b")), not(id("c"))),
    "(output.a or output.b) and not(output.c)",
  ],
  [
    "or of two ands",
    or(and(id("a"), id("b")), and(id("c"), not(id("a")))),
    "(output.a and output.b) or (output.c and not(output.a))",
  ],
  [
    "a comparison of a comparison",
    cmp("==", cmp("<", id("c"), lit(3)), lit(true)),
    "(output.c < 3) = true",
  ],
  [
    "a comparison of a logical",
    cmp("!=", and(id("a"), id("b")), lit(false)),
    "(output.a and output.b) != false",
  ],
];

describe("conditionToFeel", () => {
  it.each(CASES)("%s", (_what, tree, feel) => {
    expect(conditionToFeel(tree, CTX)).toBe(feel);
    expect(analyzeCondition(feel).ok).toBe(true);
  });

  it.each(CASES)("%s reads back as the same tree (export)", (_what, tree, feel) => {
    expect(feelToCondition(feel)).toStrictEqual(tree);
  });

  it("not is valid FEEL but not simulable (a function invocation)", () => {
    const analysis = analyzeCondition("not(output.a)");
    expect(analysis.ok).toBe(true);
    expect(analysis.ok && analysis.simulable).toBe(false);
  });

  it.each([
    ["a not without parentheses", "not output.a"],
    ["an unclosed not", "not(output.a"],
    ["a chained comparison", "output.a = 1 = true"],
    ["another function", "count(output.a) > 1"],
  ])("%s is not read back", (_what, feel) => {
    expect(feelToCondition(feel)).toBeUndefined();
  });
});
