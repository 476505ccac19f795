/**
 * Patterns a `when` matches with (red team: `matches(element.name, "^(\\w+\\s?)*$")` on a long
 * element name never returned, and a pattern read from the facts could be any pattern): string
 * literals only, and only those redos-detector finds cannot backtrack without bound.
 */
import { describe, expect, it } from "vitest";
import { checkWhen } from "../../src/policy/feel-check.js";

const problemsOf = (when: string): string[] =>
  checkWhen(when, "agentTask").problems.map((p) => p.message);

describe("the patterns of matches, replace and split", () => {
  it.each([
    [
      String.raw`matches(element.name, "^(\\w+\\s?)*$")`,
      String.raw`matches's pattern "^(\\w+\\s?)*$" can backtrack without bound on a long string (redos-detector), which feelin cannot stop: anchor it (^…$) and make each part match one way`,
    ],
    [
      'replace(element.name, "(a|a)*$", "x") = "x"',
      `replace's pattern "(a|a)*$" can backtrack without bound on a long string (redos-detector), which feelin cannot stop: anchor it (^…$) and make each part match one way`,
    ],
    [
      "count(split(element.name, lane.name)) > 1",
      "split's pattern must be a string literal: a pattern read from the facts could backtrack without end, and feelin cannot stop it",
    ],
    [
      "matches(element.name, lane.name)",
      "matches's pattern must be a string literal: a pattern read from the facts could backtrack without end, and feelin cannot stop it",
    ],
    ['matches(element.name, "^x", lane.name)', "matches's flags must be a string literal"],
    [
      // Named arguments in another order: the pattern is the one named `pattern`.
      String.raw`matches(input: element.name, flags: "", pattern: "^(\\w+\\s?)*$")`,
      String.raw`matches's pattern "^(\\w+\\s?)*$" can backtrack without bound on a long string (redos-detector), which feelin cannot stop: anchor it (^…$) and make each part match one way`,
    ],
    [
      // With i in unicode mode, K (U+212A) folds into k: both alternatives match it.
      String.raw`matches(element.name, "^(\\u212A|k)*$", "i")`,
      String.raw`matches's pattern "^(\\u212A|k)*$" with flag i names characters beyond ASCII: feelin matches case-insensitively in unicode mode, where they fold into others (K, U+212A, into k), and that cannot be checked not to backtrack without bound`,
    ],
    [
      'matches(element.id, "[a-z]+-[0-9]+")',
      `matches's pattern "[a-z]+-[0-9]+" can backtrack without bound on a long string (redos-detector), which feelin cannot stop: anchor it (^…$) and make each part match one way`,
    ],
  ])("refuses %s", (when, message) => {
    expect(problemsOf(when)).toEqual([message]);
  });

  it.each([
    'matches(element.name, "^risk")',
    'matches(element.id, "^[a-z]+-[0-9]+$")',
    'matches(element.name, "^gpt-4o(-mini)?$", "i")',
    'replace(element.name, "^draft-", "") = "offer"',
    String.raw`count(split(element.name, "\\s+")) > 1`,
    // A name in scope that is no built-in is not a pattern function (and is not called here).
    '{matches: "x"}.matches = "x"',
  ])("accepts %s", (when) => {
    expect(problemsOf(when)).toEqual([]);
  });
});
