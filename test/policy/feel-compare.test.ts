/**
 * Comparisons of a typed fact with a literal of another type (red team: `level in ["4", "5"]`
 * compiled and never fired): a compile problem at the literal; unknown types and null never are.
 */
import { describe, expect, it } from "vitest";
import type { PolicySubject } from "../../src/policy/facts.js";
import { checkWhen } from "../../src/policy/feel-check.js";

const problemsOf = (when: string, subject: PolicySubject = "agentTask") =>
  checkWhen(when, subject).problems.map((p) => ({ from: p.from, message: p.message }));

const never =
  "FEEL never finds values of different types equal or ordered, so this comparison is never true (write a literal of the fact's type)";

describe("typed comparisons", () => {
  it("refuses a number fact in a list of strings, at each literal", () => {
    expect(problemsOf('level in ["4", "5"]')).toEqual([
      { from: 10, message: `'level' is a number or null, but "4" is a string: ${never}` },
      { from: 15, message: `'level' is a number or null, but "5" is a string: ${never}` },
    ]);
  });

  it("refuses =, <, an interval and a unary test, on either side", () => {
    expect(problemsOf('"4" = level')).toEqual([
      { from: 0, message: `'level' is a number or null, but "4" is a string: ${never}` },
    ]);
    expect(problemsOf('effect < 3 or id in <"x"', "tool")).toEqual([
      { from: 9, message: `'effect' is a string or null, but 3 is a number: ${never}` },
    ]);
    expect(problemsOf("camunda in [1..2]")).toEqual([
      { from: 12, message: `'camunda' is a boolean, but 1 is a number: ${never}` },
      { from: 15, message: `'camunda' is a boolean, but 2 is a number: ${never}` },
    ]);
    expect(problemsOf("level >= true")).toEqual([
      { from: 9, message: `'level' is a number or null, but true is a boolean: ${never}` },
    ]);
  });

  it("refuses a field of a bound name and a filter's field", () => {
    expect(
      problemsOf("some t in tools satisfies t.effect = 1 or count(tools[authorization = 2]) > 0"),
    ).toEqual([
      { from: 37, message: `'t.effect' is a string or null, but 1 is a number: ${never}` },
      { from: 70, message: `'authorization' is a string or null, but 2 is a number: ${never}` },
    ]);
  });

  it.each([
    "level in [4, 5]",
    "level = null",
    "ref = null or lane.name != null",
    "budget.maxCost.EUR > 10",
    'abs(level) = "4"',
    'string(level) in ["4", "5"]',
    "level in [3..5]",
  ])("accepts %s", (when) => {
    expect(problemsOf(when)).toEqual([]);
  });
});
