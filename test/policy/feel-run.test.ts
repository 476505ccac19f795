/**
 * What a `when` does while it runs that the static check could not know (red team): an ordering
 * of two values of different types — feelin orders them by JavaScript's rules (`1 < "5"` is
 * true) — leaves the subject undecided, never passed; and trying the values of unknown facts is
 * bounded across the subjects of one document (800 tasks of 648 tries each ran for 279 s), past
 * which a subject is undecided, never passed.
 */
import { evaluate } from "feelin";
import { describe, expect, it } from "vitest";
import { MAX_TRIES, TryBudget } from "../../src/policy/feel.js";
import { checkWhen } from "../../src/policy/feel-check.js";
import { judge } from "../../src/policy/judge.js";
import { agentTask, onePack, processView, runProcess, tool } from "./helpers.js";

/** `[messageId, reason]` of what an agent-task rule with `when` finds on `task`. */
function verdict(when: string, task = agentTask("T")): [string, unknown][] {
  return runProcess(onePack({ for: "agentTask", when }), processView([task])).map((f) => [
    f.messageId,
    f.data.reason,
  ]);
}

describe("orderings of values of different types, at run time", () => {
  it.each([
    ['get value(element, "id") > 3', "it orders a string against a number"],
    ['(if level > 1 then "5" else 5) < 9', "it orders a string against a number"],
    ['count(tools) + 1 in < "9"', "it orders a number against a string"],
    ['get value(budget, "maxSteps") between "1" and "9"', "it orders a number against a string"],
    ['date(get value(element, "id")) > 3', undefined],
  ])("%s is undecided (feelin gave true or false)", (when, words) => {
    expect(checkWhen(when, "agentTask").problems).toEqual([]);
    const [found] = verdict(when, agentTask("2027-01-01"));
    expect(found?.[0]).toBe("undecided");
    if (words !== undefined) expect(found?.[1]).toBe(`${words}, which FEEL cannot compare`);
  });

  it.each([
    ['get value(element, "id") > "A"', "default"],
    ["(if level > 1 then 5 else 1) > 3", "default"],
    ['get value(budget, "maxSteps") < 3', undefined],
  ])("%s, of one type, is decided as before", (when, messageId) => {
    expect(verdict(when)[0]?.[0]).toBe(messageId);
  });

  it("leaves feelin as it was outside a rule's evaluation", () => {
    verdict('get value(element, "id") > 3');
    expect(evaluate('1 < "5"', {}).value).toBe(true);
  });
});

describe("trying unknown values is bounded across a document's subjects", () => {
  // No value makes it true, and each task's facts differ (no result is kept from another's).
  const NEVER = {
    for: "agentTask",
    when: 'element.id = "never" and level = 9 - 9 and some t in tools satisfies t.effect = "x" + "y"',
  };
  const unknownTask = (id: string) => agentTask(id, { level: null, tools: [tool("t", null)] });
  const judged = {
    pack: "t",
    id: "r",
    subject: "agentTask" as const,
    when: { text: NEVER.when, reads: checkWhen(NEVER.when, "agentTask") },
  };

  it("tries every value within the bound: 6 levels × 6 effects, then null in each, all false", () => {
    const budget = new TryBudget(100);
    expect(judge(judged, unknownTask("A"), undefined, budget)).toBeUndefined();
  });

  it("past the bound, a subject whose values were not all tried is undecided, never passed", () => {
    const budget = new TryBudget(60);
    // The first task tries its 49 combinations (7 × 7: each kind's values and null; 1 free, 48
    // from the budget); the second 1 + 12.
    // (Tasks of their own: a result kept from an earlier test would cost no try.)
    expect(judge(judged, unknownTask("B1"), undefined, budget)).toBeUndefined();
    const second = judge(judged, unknownTask("B2"), undefined, budget);
    expect(second?.messageId).toBe("undecided");
    expect(second?.data.reason).toBe(
      "its unknown level, effect take 49 combinations of values, and only 13 could be tried: a rule may try at most 60 on one document (feelin cannot be stopped once it runs), so the subject is taken as the strictest case",
    );
    expect(judge(judged, unknownTask("B3"), undefined, budget)?.data.reason).toMatch(
      /only 1 could be tried/,
    );
  });

  it("a subject decided by its first try costs nothing of the bound", () => {
    const budget = new TryBudget(0);
    const when = "level >= 0";
    const judged = {
      pack: "t",
      id: "r",
      subject: "agentTask" as const,
      when: { text: when, reads: checkWhen(when, "agentTask") },
    };
    expect(judge(judged, unknownTask("A"), undefined, budget)?.messageId).toBe("assumed");
  });

  it("each rule's check on a document has its own bound of MAX_TRIES", () => {
    expect(MAX_TRIES).toBe(10_000);
    const tasks = Array.from({ length: 3 }, (_, i) => unknownTask(`T${String(i)}`));
    // Three tasks of 49 tries each are well within it: nothing is undecided.
    expect(runProcess(onePack(NEVER), processView(tasks))).toEqual([]);
  });
});
