/**
 * A `when` too large for feelin, refused before it is parsed (red team: a 20,000-term `or` chain
 * exhausted the heap and aborted the process; a list of 20,000 ids took a minute and 3 GB), and
 * the chain feelin's parser stops reading though it is sound, said as such rather than as an
 * incomplete expression.
 */
import { describe, expect, it } from "vitest";
import { checkWhen } from "../../src/policy/feel-check.js";
import { MAX_WHEN_CHARS, MAX_WHEN_ITEMS } from "../../src/policy/feel-syntax.js";

const problemsOf = (when: string): [number, string][] =>
  checkWhen(when, "agentTask").problems.map((p) => [p.from, p.message]);

const ids = (n: number): string =>
  Array.from({ length: n }, (_, i) => `"Task_${String(i).padStart(5, "0")}"`).join(", ");
const ors = (n: number, op = "or"): string =>
  Array.from({ length: n }, (_, i) => `element.id = "T${i}"`).join(` ${op} `);

const INSTEAD = "test a naming pattern (matches()) or a lane instead of listing every name";
const GROWS =
  "feelin parses it on every evaluation, in time and memory that grow faster than the text";
const CHAIN = (what: string) =>
  `FEEL syntax error: feelin's parser stops reading here, inside a chain of ${what} too long for it (a few hundred terms), though the rest of the expression follows: group the terms in parentheses of at most 100, or test one fact against many values with 'in' (element.id in ["a", "b"])`;

describe("the size of a when", () => {
  it("holds the limits the docs state", () => {
    expect([MAX_WHEN_CHARS, MAX_WHEN_ITEMS]).toEqual([10_000, 1_000]);
  });

  it.each([
    [
      "a 20,000-term or chain",
      ors(20_000),
      0,
      `this 'when' is 488,886 characters long; a rule's 'when' may have at most 10,000 (${GROWS}): ${INSTEAD}`,
    ],
    [
      "a list of 20,000 ids",
      `level >= 3 and not(element.id in [${ids(20_000)}])`,
      0,
      `this 'when' is 280,034 characters long; a rule's 'when' may have at most 10,000 (${GROWS}): ${INSTEAD}`,
    ],
    [
      "10,001 characters",
      `element.name = "${"x".repeat(9_984)}"`,
      0,
      `this 'when' is 10,001 characters long; a rule's 'when' may have at most 10,000 (${GROWS}): ${INSTEAD}`,
    ],
    [
      "1,001 list items",
      `level in [${Array(1_002).fill("1").join(",")}]`,
      2_011,
      `this 'when' has more than 1,000 list items, context entries and arguments (commas outside strings); a rule's 'when' may have at most 1,000 (${GROWS}): ${INSTEAD}`,
    ],
  ])("refuses %s before parsing it", (_, when, from, message) => {
    expect(problemsOf(when)).toEqual([[from, message]]);
  });

  it.each([
    ["1,000 list items", `level in [${Array(1_001).fill("1").join(",")}]`],
    ["commas inside strings", `element.name in ["${",".repeat(2_000)}", "a\\",b"]`],
    ["10,000 characters", `element.name = "${"x".repeat(9_983)}"`],
    [
      "a chain of 500 terms grouped by 100 (flat, feelin stops reading it)",
      Array(5)
        .fill(`(${Array(100).fill("level = 1").join(" or ")})`)
        .join(" or "),
    ],
  ])("accepts %s", (_, when) => {
    expect(problemsOf(when)).toEqual([]);
  });
});

describe("a chain too long for feelin's parser", () => {
  it.each([
    ["or", ors(300), 4_305, CHAIN("'or'")],
    ["and", ors(300, "and"), 4_401, CHAIN("'and'")],
    ["+", `${Array(700).fill("level").join(" + ")} > 1`, 2_807, CHAIN("an arithmetic expression")],
  ])(
    "says a long flat chain of %s is past feelin's limit, not incomplete",
    (_, when, from, message) => {
      expect(problemsOf(when)).toEqual([[from, message]]);
    },
  );

  it.each([
    [
      "level = 1 or",
      12,
      "FEEL syntax error: the expression is incomplete (it ends inside a disjunction)",
    ],
    [
      "level = 1 and // a comment\n",
      26,
      "FEEL syntax error: the expression is incomplete (it ends inside a conjunction)",
    ],
    [
      "level in [1, 2",
      14,
      "FEEL syntax error: the expression is incomplete (it ends inside a list)",
    ],
  ])("still says %j is incomplete", (when, from, message) => {
    expect(problemsOf(when)).toEqual([[from, message]]);
  });
});
