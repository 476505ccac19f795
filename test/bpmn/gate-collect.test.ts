/** nonEmptyList: a multi-instance input collection that is a FEEL list literal with an item. */
import { describe, expect, it } from "vitest";
import { nonEmptyList } from "../../src/bpmn/gate-collect.js";

describe("nonEmptyList", () => {
  it.each([
    ['=["legal","risk"]'],
    ['  = [ "legal" ]  '],
    ["[1]"],
    ["=[x]"],
    ["=[[]]"],
    ['=["]", "[", "// not a comment"]'],
    ['=[{a: "}"}]'],
    ["=[1] // the reviewers"],
    ["=/* reviewers */ [1]"],
    ["=[/* one */ 1]"],
  ])("%j is a list literal with an item", (expression) => {
    expect(nonEmptyList(expression)).toBe(true);
  });

  it.each([
    ["=[]"],
    ["=[ ]"],
    ["=[/* none */]"],
    ["=[ // none\n]"],
    ["=[1][item > 5]"],
    ["=[1, 2][item > 5]"],
    ["=[1..3]"],
    ["=[1,]"],
    ['=["open]'],
    ["=[1] + [2]"],
    ["=[1]]"],
    ["=agent.reviewers"],
    ["=reviewers"],
    ['="legal"'],
    ["="],
    [""],
    ["legal, risk"],
    [`=[${"1, ".repeat(5_000)}1]`],
  ])("%j is not", (expression) => {
    expect(nonEmptyList(expression)).toBe(false);
  });
});
