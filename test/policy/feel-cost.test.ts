/**
 * The work a `when` may do (red team: a list a context entry holds iterated twice, quantifiers
 * nested over facts, and thirty doublings by `concatenate` hung the process or made V8 abort it):
 * bounded at compile time on facts of one item, and on each subject's facts before it runs.
 */
import { describe, expect, it } from "vitest";
import { checkWhen } from "../../src/policy/feel-check.js";
import { factsLength, MAX_WHEN_STEPS, stepsAt } from "../../src/policy/feel-cost.js";
import { agentTask, onePack, processView, runProcess, tool } from "./helpers.js";

const problemsOf = (when: string): string[] =>
  checkWhen(when, "agentTask").problems.map((p) => p.message);

/** The bound at L = `length` of an agent-task `when` the check accepts. */
function stepsOf(when: string, length: number): number {
  const check = checkWhen(when, "agentTask");
  expect(check.problems).toEqual([]);
  return stepsAt(check.cost, length);
}

const doubled = (times: number): string => {
  const entries = ["a0: [1]"];
  for (let i = 1; i <= times; i += 1) entries.push(`a${i}: concatenate(a${i - 1}, a${i - 1})`);
  return `count({${entries.join(", ")}}.a${times}) > 0`;
};

describe("what a when may cost, decided when the pack compiles", () => {
  it("the limit is 10,000,000 steps", () => {
    expect(MAX_WHEN_STEPS).toBe(10_000_000);
  });

  it.each([
    [
      "a list a context entry holds, iterated twice",
      "count({g: for a in 1..100, b in 1..100 return 1, r: for x in g, y in g return 1}.r) > 0",
      "this 'when' may take 600,040,113 steps on facts of one item each; a rule's 'when' may take at most 10,000,000 (feelin cannot be stopped once it runs)",
    ],
    [
      "a list doubled in each of thirty entries",
      doubled(30),
      "this 'when' may take 6,442,451,076 steps on facts of one item each; a rule's 'when' may take at most 10,000,000 (feelin cannot be stopped once it runs)",
    ],
    [
      "a function defined to be called at once",
      "(function(x) x > 3)(level)",
      "a 'when' may define a function only as sort's ordering (sort(tools, function(a, b) a.id < b.id)): what any other would cost cannot be bounded before it runs",
    ],
    [
      "a function held in a context",
      "{f: function(x) x > 3}.f(level)",
      "a 'when' may define a function only as sort's ordering (sort(tools, function(a, b) a.id < b.id)): what any other would cost cannot be bounded before it runs",
    ],
  ])("refuses %s", (_, when, message) => {
    expect(problemsOf(when)).toEqual([message]);
  });

  it.each([
    ['some t in tools satisfies t.effect = "external-commitment"', 1, 4],
    ["count(for a in tools, b in tools return 1) > 0", 2, 1],
    ["count(sort(tools, function(a, b) a.id < b.id)) > 1", 1, 64],
    ['count(tools[effect in ["read", "write-reversible"]]) >= 2', 1, 1],
    ['level in [3..5] and some m in models satisfies not(m in ["gpt-4o"])', 1, 2],
  ])("bounds %s by a polynomial of degree %i in the facts' length", (when, degree, lead) => {
    const check = checkWhen(when, "agentTask");
    expect(check.problems).toEqual([]);
    const steps = check.cost.steps;
    expect(steps.length - 1).toBe(degree);
    expect(steps.at(-1)).toBeGreaterThanOrEqual(lead);
  });

  it("counts the doubling it can see: a sixth doubling copies at least 64 items more", () => {
    const five = stepsOf(doubled(5), 1);
    expect(five).toBeGreaterThan(32);
    expect(stepsOf(doubled(6), 1) - five).toBeGreaterThanOrEqual(64);
  });

  it("types sort's ordering's parameters as the sorted list's items", () => {
    expect(problemsOf("count(sort(tools, function(a, b) a.idd < b.id)) > 1")).toEqual([
      "unknown field 'a.idd' (fields of a tool: ref, id, version, effect, authorization)",
    ]);
  });
});

describe("what a when may cost on a subject's facts", () => {
  it("L is the longest list or the most keys, strings only when asked", () => {
    const facts = { tools: [1, 2, 3], lane: { id: "x", name: "y" }, name: "a long name" };
    expect(factsLength(facts, false)).toBe(3);
    expect(factsLength(facts, true)).toBe(11);
    expect(factsLength({ maxCost: { USD: 1, EUR: 2, GBP: 3, CHF: 4 } }, false)).toBe(4);
    expect(factsLength(null, true)).toBe(0);
  });

  it("turning a fact's string into a list makes L count strings", () => {
    expect(checkWhen('count(split(element.name, " ")) > 1', "agentTask").cost.stringLists).toBe(
      true,
    );
    expect(checkWhen("string length(element.name) > 1", "agentTask").cost.stringLists).toBe(false);
  });

  it("leaves a subject undecided, and selected, when its facts make the bound too large", () => {
    const when = "count(for a in tools, b in tools, c in tools return 1) > 0";
    const many = Array.from({ length: 300 }, (_, i) => tool(`t${String(i)}`, "read"));
    const few = agentTask("Few", { tools: many.slice(0, 3) });
    const lots = agentTask("Lots", { tools: many });
    const findings = runProcess(onePack({ for: "agentTask", when }), processView([few, lots]));
    expect(findings.map((f) => [f.messageId, f.data.element])).toEqual([
      ["default", { id: "Few", name: "Task Few", type: "bpmn:ServiceTask" }],
      ["undecided", { id: "Lots", name: "Task Lots", type: "bpmn:ServiceTask" }],
    ]);
    // The reason docs/policies.md quotes.
    expect(findings[1]?.data.reason).toBe(
      "'when' may take 162,090,309 steps on these facts (up to 300 items in a list), past the 10,000,000 a rule may take, so it was not run",
    );
  });
});
