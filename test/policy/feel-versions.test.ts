/**
 * Versions and refs ordered, refused when the pack compiles (red team: `some t in tools
 * satisfies t.id = "send-loan-offer" and t.version < "1.10.0"` was false for version 1.9.0:
 * FEEL orders strings character by character). Equality and lists of versions are not.
 */
import { evaluate } from "feelin";
import { describe, expect, it } from "vitest";
import type { PolicySubject } from "../../src/policy/facts.js";
import { checkWhen } from "../../src/policy/feel-check.js";

const problemsOf = (when: string, subject: PolicySubject) =>
  checkWhen(when, subject).problems.map((p) => ({ from: p.from, message: p.message }));

const TEXT =
  'FEEL holds as text: ordering it compares characters ("1.10.0" < "1.9.0" is true), so this comparison does not order';

describe("a version ordered", () => {
  it("is what FEEL does with version strings", () => {
    expect(evaluate('"1.9.0" < "1.10.0"', {}).value).toBe(false);
  });

  it.each([
    [
      'some t in tools satisfies t.id = "send-loan-offer" and t.version < "1.10.0"',
      "agentTask",
      55,
      "t.version",
    ],
    ['version >= "2.0.0"', "workflow", 0, "version"],
    ['"2.0.0" > version', "workflow", 10, "version"],
    ['version between "1.0.0" and "2.0.0"', "workflow", 0, "version"],
    ['version in ["1.0.0".."2.0.0")', "tool", 0, "version"],
    ['version in < "2.0.0"', "tool", 0, "version"],
    ['some t in tools satisfies t.version <= "1.9.9"', "workflow", 26, "t.version"],
    ['count(tools[version > "1.0.0"]) > 0', "agentTask", 12, "version"],
    ["count(sort(tools, function(a, b) a.version < b.version)) > 1", "agentTask", 33, "a.version"],
  ] as const)("refuses %s (%s)", (when, subject, from, shown) => {
    expect(problemsOf(when, subject)).toEqual([
      {
        from,
        message: `'${shown}' is a version, which ${TEXT} versions (compare with '=', or 'in' a list of the versions meant: ${shown} in ["1.9.0", "1.10.0"])`,
      },
    ]);
  });

  it.each([
    ['ref >= "agnt-x@1.0.0"', "agentTask", 0, "ref"],
    ['some t in tools satisfies t.ref < "tool:x@2.0.0"', "workflow", 26, "t.ref"],
  ] as const)("refuses a ref ordered: %s (%s)", (when, subject, from, shown) => {
    expect(problemsOf(when, subject)).toEqual([
      {
        from,
        message: `'${shown}' is a ref, which ${TEXT} refs by version (compare with '=', or 'in' a list of the refs meant)`,
      },
    ]);
  });

  it.each([
    ['some t in tools satisfies t.id = "send-loan-offer" and t.version in ["1.9.0", "1.10.0"]'],
    ['some t in tools satisfies t.version = "1.9.0" or t.version != null'],
    ['version in ("1.0.0", "1.1.0")'],
    ['list contains(tools.version, "1.9.0")'],
    ['some t in tools satisfies t.id < "m"'],
  ])("accepts %s", (when) => {
    expect(problemsOf(when, "workflow")).toEqual([]);
  });
});
