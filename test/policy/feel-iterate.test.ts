/**
 * Iteration a `when` may do (red team: `count(for i in 1..300000000 return i) > 0` filled V8's
 * heap until the process aborted): literal ranges up to the limit, and nothing the check cannot
 * tell is not a range.
 */
import { describe, expect, it } from "vitest";
import { checkWhen } from "../../src/policy/feel-check.js";
import { MAX_RANGE_ITERATIONS } from "../../src/policy/feel-iterate.js";

const problemsOf = (when: string): { from: number; message: string }[] =>
  checkWhen(when, "agentTask").problems.map((p) => ({ from: p.from, message: p.message }));

describe("ranges a when iterates", () => {
  it("the limit is 100,000 values", () => {
    expect(MAX_RANGE_ITERATIONS).toBe(100000);
  });

  it("refuses a literal range over the limit, at the range", () => {
    const when = "count(for i in 1..300000000 return i) > 0 and level > 3";
    expect(problemsOf(when)).toEqual([
      {
        from: 15,
        message:
          "range 1..300000000 iterates 300,000,000 values; a rule's 'when' may iterate at most 100,000 (feelin builds every value in memory)",
      },
    ]);
  });

  it("counts nested ranges together", () => {
    const when = "count(for i in 1..1000, j in 1..1000 return i) > 0";
    expect(problemsOf(when)).toEqual([
      {
        from: 29,
        message:
          "range 1..1000 makes the ranges of this 'when' iterate up to 1,000,000 values together; a rule's 'when' may iterate at most 100,000 (feelin builds every value in memory)",
      },
    ]);
  });

  it("refuses an interval over the limit, and one feelin never stops iterating", () => {
    expect(problemsOf("some i in [0..100000] satisfies i = level")).toEqual([
      {
        from: 10,
        message:
          "range [0..100000] iterates 100,001 values; a rule's 'when' may iterate at most 100,000 (feelin builds every value in memory)",
      },
    ]);
    expect(problemsOf("some i in (1..1] satisfies i = level")).toEqual([
      {
        from: 10,
        message: "range (1..1] excludes its start and ends there: feelin never stops iterating it",
      },
    ]);
    expect(problemsOf("some i in 1.5..3 satisfies i = level")).toEqual([
      {
        from: 10,
        message:
          "range 1.5..3 to iterate must have whole-number bounds: feelin steps by 1 from the start and never reaches an end it cannot land on",
      },
    ]);
  });

  it("refuses a range whose bound is computed (fail closed: feelin cannot bound it)", () => {
    expect(problemsOf("some i in 1..budget.maxTokens satisfies i = level")).toEqual([
      {
        from: 13,
        message:
          "range 1..budget.maxTokens to iterate has a bound that is not a literal ('budget.maxTokens'): feelin iterates a range of any size without a bound, so a range's bounds must be whole numbers or single letters written in the rule",
      },
    ]);
  });

  it("refuses iterating a value that may be a range", () => {
    expect(problemsOf("some i in {r: [1..300000000]}.r satisfies i = level")).toEqual([
      {
        from: 10,
        message:
          "cannot iterate '{r: [1..300000000]}.r': the check cannot tell it is not a range, and feelin iterates a range of any size without a bound (iterate a fact, a list, a filter, a 'for' or a built-in's result, or a range with literal bounds such as 1..10)",
      },
    ]);
  });

  it.each([
    "some i in 1..100000 satisfies i = level",
    "some i in -2..2, j in 0..5 satisfies i + j = level",
    'some c in "a".."z" satisfies c = element.id',
    "some i in [1..5) satisfies i = level",
    "some t in tools satisfies t.effect = null",
    "some x in [1, 2, 3] satisfies x = level",
    "some e in distinct values(tools.effect) satisfies e = null",
    "some n in (for i in 1..10 return i * 2) satisfies n = level",
  ])("accepts %s", (when) => {
    expect(problemsOf(when)).toEqual([]);
  });
});
