/** FEEL syntax errors as a rule's author reads them. */
import { describe, expect, it } from "vitest";
import { checkWhen } from "../../src/policy/feel-check.js";

const problemsOf = (when: string): [number, string][] =>
  checkWhen(when, "agentTask").problems.map((p) => [p.from, p.message]);

describe("syntax errors of a when", () => {
  it("says an expression nested too deeply for feelin's parser is, not an unexpected token", () => {
    const parens = `${"(".repeat(4000)}level > 3${")".repeat(4000)}`;
    expect(problemsOf(parens)).toEqual([
      [
        2800,
        "FEEL syntax error: nested too deeply for feelin's parser (2,800 brackets are open here)",
      ],
    ]);
    const nots = `${"not(".repeat(1500)}level > 3${")".repeat(1500)}`;
    expect(problemsOf(nots)).toEqual([
      [
        5600,
        "FEEL syntax error: nested too deeply for feelin's parser (1,400 brackets are open here)",
      ],
    ]);
  });

  it("counts no bracket inside a string literal", () => {
    const when = `element.name = "${"(".repeat(2000)}" and level > )`;
    expect(problemsOf(when)).toEqual([[2030, "FEEL syntax error: unexpected ')'"]]);
  });
  // Only feelin's parser giving up on a long chain leaves text after an error with nothing
  // after it in the tree (chainMessage): an error before text of its own keeps its words.
  const terms = (n: number) => Array(n).fill('element.id = "abcdefgh"').join(" or ");
  it.each([
    ["a doubled 'or'", "level = 1 or or level = 2", 13, "FEEL syntax error: unexpected 'or'"],
    [
      "a missing 'else'",
      "if level > 1 then 2 level = 1",
      20,
      "FEEL syntax error: unexpected 'level = 1'",
    ],
    ["a missing ','", "{a: 1 b: 2}.a = 1", 6, "FEEL syntax error: unexpected 'b: 2'"],
    [
      "an unclosed list",
      "level in [1, 2 or level = 1",
      27,
      "FEEL syntax error: the expression is incomplete (it ends inside a list)",
    ],
    [
      "an 'or' before a comment",
      "level = 1 or /* more */",
      23,
      "FEEL syntax error: the expression is incomplete (it ends inside a disjunction)",
    ],
    [
      "a stray ')' inside a chain feelin reads (120 terms)",
      `${terms(60)} ) or ${terms(60)}`,
      1617,
      "FEEL syntax error: unexpected ')'",
    ],
  ])("keeps its own words for %s, text following", (_, when, from, message) => {
    expect(problemsOf(when)).toEqual([[from, message]]);
  });
});
