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
});
