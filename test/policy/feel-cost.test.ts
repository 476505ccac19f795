/**
 * The work a `when` may do (red team: a list a context entry holds iterated twice, quantifiers
 * nested over facts, and thirty doublings by `concatenate` hung the process or made V8 abort it):
 * bounded at compile time on facts of one item, and on each subject's facts before it runs.
 */
import { describe, expect, it } from "vitest";
import { checkWhen } from "../../src/policy/feel-check.js";
import { factsSize, MAX_WHEN_STEPS, stepsAt } from "../../src/policy/feel-cost.js";
import { agentTask, onePack, processView, runProcess, tool } from "./helpers.js";

const problemsOf = (when: string): string[] =>
  checkWhen(when, "agentTask").problems.map((p) => p.message);

/** The bound at L = `length`, T = `total` of an agent-task `when` the check accepts. */
function stepsOf(when: string, length: number, total = length): number {
  const check = checkWhen(when, "agentTask");
  expect(check.problems).toEqual([]);
  return stepsAt(check.cost, { length, total });
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
      "this 'when' may take 400,040,113 steps on facts of one value each; a rule's 'when' may take at most 10,000,000 (feelin cannot be stopped once it runs)",
    ],
    [
      "a list doubled in each of thirty entries",
      doubled(30),
      "this 'when' may take 19,327,352,710 steps on facts of one value each; a rule's 'when' may take at most 10,000,000 (feelin cannot be stopped once it runs)",
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
    ['(level in [3..5]) and some m in models satisfies not(m in ["gpt-4o"])', 1, 2],
    // FEEL spells this built-in in keywords, not a name: it was unbounded.
    ['years and months duration(date("2020-01-01"), today()) > duration("P1Y")', 0, 1],
  ])("bounds %s by a polynomial of degree %i in the facts' length", (when, degree, lead) => {
    const check = checkWhen(when, "agentTask");
    expect(check.problems).toEqual([]);
    // Rows are powers of L (the longest list), columns of T (all the facts hold).
    const steps = check.cost.steps;
    expect(steps.length - 1).toBe(degree);
    expect(steps.at(-1)?.[0]).toBeGreaterThanOrEqual(lead);
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

describe("what a when may cost, for what the red team found", () => {
  it.each([
    [
      "a filter does not hide a name bound outside it",
      "{g: for a in 1..300, b in 1..300 return a, r: count(tools[every x in g, y in g satisfies x > 0])}.r > 0",
    ],
    [
      "a context entry keyed by a string binds its name",
      '{"tools": for a in 1..300, b in 1..300 return a, r: count(for x in tools, y in tools return 1)}.r > 0',
    ],
    [
      "concatenate keeps a context argument's fields",
      "count(for x in concatenate({a: for i in 1..300, j in 1..300 return i}), y in flatten(x.a), z in flatten(x.a) return 1) > 0",
    ],
  ])("refuses what hung on any facts: %s", (_, when) => {
    expect(problemsOf(when)).toEqual([
      expect.stringMatching(
        /^this 'when' may take [\d,]+ steps on facts of one value each; a rule's 'when' may take at most 10,000,000/,
      ),
    ]);
  });

  const tools = (n: number) => Array.from({ length: n }, (_, i) => tool(`t${String(i)}`, "read"));
  const named = (name: string) => ({ id: "A", name, type: "bpmn:ServiceTask" });
  /** The message id and reason of an agent-task rule over one task. */
  const judged = (when: string, task: ReturnType<typeof agentTask>) =>
    runProcess(onePack({ for: "agentTask", when }), processView([task])).map((f) => [
      f.messageId,
      typeof f.data.reason === "string" ? f.data.reason.replace(/[\d,]+ steps/, "N steps") : "",
    ]);
  const tooMuch = (length: string, total: string) =>
    `'when' may take N steps on these facts (up to ${length} items in a list, ${total} values and characters in all), past the 10,000,000 a rule may take, so it was not run`;

  it("leaves undecided what ran out of time or memory on large facts", () => {
    // `$'` inserts the rest of the input per match: V8 ran out of heap.
    const long = agentTask("A", { tools: tools(200), element: named("x".repeat(10_000)) });
    expect(
      judged(`count(for t in tools return replace(element.name, ".", "$'")) > 0`, long),
    ).toEqual([["undecided", tooMuch("200", "18,403")]]);
    // Once, a 10,000-character result per character: read as feelin reads the literal, also
    // when the replacement is written with an escape.
    const one = agentTask("A", { tools: tools(1), element: named("x".repeat(10_000)) });
    for (const replacement of ["$'", String.raw`\u0024'`]) {
      expect(judged(`replace(element.name, ".", "${replacement}") = ""`, one)).toEqual([
        ["undecided", tooMuch("3", "10,022")],
      ]);
    }
    // Each item compared in depth with those before it: 9 s at 5,000 tools.
    expect(
      judged("count(distinct values(tools)) > 0", agentTask("A", { tools: tools(5000) })),
    ).toEqual([["undecided", tooMuch("5,000", "222,782")]]);
  });

  it("decides plausible rules on facts the old bound refused", () => {
    const lanes = Array.from({ length: 150 }, (_, i) =>
      agentTask(`T${String(i)}`, {
        lane: { id: `L${String(i % 5)}`, name: `lane-${String(i % 5)}` },
      }),
    );
    const sod =
      "some a in agentTasks, b in agentTasks satisfies a.element.id != b.element.id and a.lane != null and a.lane.name = b.lane.name";
    const found = runProcess(onePack({ for: "process", when: sod }), processView(lanes));
    expect(found.map((f) => f.messageId)).toEqual(["default"]);
    const long = Array.from({ length: 20 }, (_, i) =>
      agentTask(`T${String(i)}`, { element: named("n".repeat(250)) }),
    );
    const refs = 'some a in agentTasks satisfies count(split(a.ref, "@")) != 2';
    expect(runProcess(onePack({ for: "process", when: refs }), processView(long))).toEqual([]);
  });
});

describe("what a when may cost on a subject's facts", () => {
  it("L is the longest list or the most keys; T every value and character", () => {
    const facts = { tools: [1, 2, 3], lane: { id: "x", name: "y" }, name: "a long name" };
    // Values: the object, the list and its 3 numbers, the lane and its 2 strings, the name (9);
    // characters: 1 + 1 + 11.
    expect(factsSize(facts)).toEqual({ length: 3, total: 22 });
    expect(factsSize({ maxCost: { USD: 1, EUR: 2, GBP: 3, CHF: 4 } }).length).toBe(4);
    expect(factsSize(null)).toEqual({ length: 0, total: 1 });
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
      "'when' may take 108,090,309 steps on these facts (up to 300 items in a list, 12,682 values and characters in all), past the 10,000,000 a rule may take, so it was not run",
    );
  });
});
