/**
 * IR condition trees to FEEL text, `not` included: the exact text, that it parses as FEEL, and
 * that the export's reader gives the same tree back.
 */
import { describe, expect, it } from "vitest";
import { conditionToFeel, feelToCondition } from "../../src/interop/openagentflow/condition.js";
import type { OafExpr } from "../../src/interop/openagentflow/index.js";
import { ImportError } from "../../src/interop/index.js";
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

/** `n` terms `output.a = <i>` nested by `operator` to the left (the compiler's form) or right. */
function nested(operator: "and" | "or", n: number, side: "left" | "right"): OafExpr {
  const term = (i: number): OafExpr => cmp("==", id("c"), lit(i));
  let tree = term(side === "left" ? 0 : n - 1);
  for (let k = 1; k < n; k += 1) {
    const next = term(side === "left" ? k : n - 1 - k);
    const join = operator === "and" ? and : or;
    tree = side === "left" ? join(tree, next) : join(next, tree);
  }
  return tree;
}

/** The flat FEEL of `n` such terms. */
const flat = (operator: string, n: number): string =>
  Array.from({ length: n }, (_, i) => `output.c = ${String(i)}`).join(` ${operator} `);

describe("conditionToFeel: chains of one operator are one level", () => {
  // Before: more than 64 terms were "nested too deeply", though the compiler writes every chain so.
  it.each<[string, OafExpr, string, boolean]>([
    ["70 or, nested left (the compiler's form)", nested("or", 70, "left"), flat("or", 70), true],
    ["70 and, nested left", nested("and", 70, "left"), flat("and", 70), true],
    // associative: the same FEEL, which reads back nested left
    ["70 or, nested right", nested("or", 70, "right"), flat("or", 70), false],
    [
      "a chain of ands inside a chain of ors keeps its parentheses",
      or(or(and(and(id("a"), id("b")), id("a")), id("c")), and(id("b"), id("b"))),
      "(output.a and output.b and output.a) or output.c or (output.b and output.b)",
      true,
    ],
  ])("%s", (_what, tree, feel, same) => {
    expect(conditionToFeel(tree, CTX)).toBe(feel);
    expect(analyzeCondition(feel).ok).toBe(true);
    if (same) expect(feelToCondition(feel)).toStrictEqual(tree);
  });

  /** `n` names `output.a` chained by `or`, nested left: `2n - 1` nodes. */
  const names = (n: number): OafExpr => {
    let tree: OafExpr = id("a");
    for (let k = 1; k < n; k += 1) tree = or(tree, id("a"));
    return tree;
  };

  it("a chain of 10,000 nodes is read (its FEEL's length is the model's to check)", () => {
    expect(conditionToFeel(names(5000), CTX)).toBe(Array(5000).fill("output.a").join(" or "));
  });

  /** `not` around `not` ... `n` times: each one a level. */
  const nots = (n: number): OafExpr => {
    let tree: OafExpr = id("a");
    for (let k = 0; k < n; k += 1) tree = not(tree);
    return tree;
  };

  it.each<[string, OafExpr, RegExp, string]>([
    ["65 levels of not", nots(65), /nested too deeply/, `/graph/edges/0${"/right".repeat(65)}`],
    [
      // 5,000 `or` nodes and 5,001 names: the 10,001st node, the last term, is refused
      "a chain of 5,001 names",
      names(5001),
      /more than 10000 nodes/,
      "/graph/edges/0/right",
    ],
  ])("%s is refused, with its path", (_what, tree, reason, path) => {
    let error: unknown;
    try {
      conditionToFeel(tree, CTX);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ImportError);
    const failure = error as ImportError;
    expect([failure.path, failure.elementId]).toEqual([path, "A"]);
    expect(failure.reason).toMatch(reason);
  });

  it("a chain of 100,000 terms is refused by size, without a stack overflow", () => {
    expect(() => conditionToFeel(nested("and", 100_000, "left"), CTX)).toThrow(
      /more than 10000 nodes/,
    );
  });
});
