/**
 * A list or a record compared with one value, refused when the pack compiles (red team:
 * `tools.effect in ["external-commitment", …]` fired for an agent with one tool and passed one
 * with two, since feelin compares a one-item list as its item), and `list contains` whose value
 * can never be an item.
 */
import { evaluate } from "feelin";
import { describe, expect, it } from "vitest";
import type { PolicySubject } from "../../src/policy/facts.js";
import { checkWhen } from "../../src/policy/feel-check.js";
import { formatPolicyProblem, readPolicyPack } from "../../src/policy/index.js";

const problemsOf = (when: string, subject: PolicySubject = "agentTask") =>
  checkWhen(when, subject).problems.map((p) => ({ from: p.from, message: p.message }));

const ONE_ITEM =
  "feelin compares a list with one value as if the list were its only item, so this holds only while the list has one item and never once it has two";
const RECORD = "a record never equals a single value, so this comparison never holds as meant";
const EFFECT = "an effect or null";

describe("a list compared with one value", () => {
  it.each([
    [
      'level >= 3 and tools.effect in ["external-commitment", "write-irreversible"]',
      "agentTask",
      15,
      `'tools.effect' is a list (each item ${EFFECT}), but "external-commitment" is a string: ${ONE_ITEM} (write some t in tools satisfies t.effect in ["external-commitment", "write-irreversible"] to ask whether any item does, 'every' for all)`,
    ],
    [
      'models = "gpt-4o"',
      "agentTask",
      0,
      `'models' is a list (each item a string), but "gpt-4o" is a string: ${ONE_ITEM} (write some m in models satisfies m = "gpt-4o" to ask whether any item does, 'every' for all)`,
    ],
    [
      'tools.effect = "read"',
      "workflow",
      0,
      `'tools.effect' is a list (each item ${EFFECT}), but "read" is a string: ${ONE_ITEM} (write some t in tools satisfies t.effect = "read" to ask whether any item does, 'every' for all)`,
    ],
    [
      "lane != null and lane.name = gates.role",
      "agentTask",
      29,
      `'gates.role' is a list (each item a string or null), but lane.name is a string or null: ${ONE_ITEM} (write some g in gates satisfies lane.name = g.role to ask whether any item does, 'every' for all)`,
    ],
    [
      "agentTasks.level >= 4",
      "process",
      0,
      `'agentTasks.level' is a list (each item a level (0-5) or null), but 4 is a number: ${ONE_ITEM} (write some a in agentTasks satisfies a.level >= 4 to ask whether any item does, 'every' for all)`,
    ],
    [
      'tools[authorization = "gate"].effect != "read"',
      "agentTask",
      0,
      `'tools[authorization = "gate"].effect' is a list (each item ${EFFECT}), but "read" is a string: ${ONE_ITEM} (write some t in tools[authorization = "gate"] satisfies t.effect != "read" to ask whether any item does, 'every' for all)`,
    ],
    [
      'unread in ["budget"]',
      "workflow",
      0,
      `'unread' is a list (each item the name of a fact), but "budget" is a string: ${ONE_ITEM} (write some u in unread satisfies u in ["budget"] to ask whether any item does, 'every' for all)`,
    ],
    [
      'nodes.model in < "z"',
      "workflow",
      0,
      `'nodes.model' is a list (each item a string or null), but "z" is a string: ${ONE_ITEM} (write some n in nodes satisfies n.model in < "z" to ask whether any item does, 'every' for all)`,
    ],
  ] as const)("refuses %s (%s), once, at the list", (when, subject, from, message) => {
    expect(problemsOf(when, subject)).toEqual([{ from, message }]);
  });

  it.each([
    ['lane in ["Sales"]', 0, "'lane' is lane, a record of id, name", "lane.id, lane.name"],
    ['element = "Task_1"', 0, "'element' is element, a record of id, name, type", "element.id"],
    [
      "some t in tools satisfies t = 1",
      26,
      "'t' is a tool, a record of ref, id, version, effect, authorization",
      "t.ref",
    ],
    [
      "budget.maxCost > 5",
      0,
      "'budget.maxCost' is maxCost (amounts by currency code), a record",
      "budget.maxCost.<key>, each key a currency code",
    ],
  ] as const)("refuses a record compared with one value: %s", (when, from, head, fields) => {
    const [problem, ...more] = problemsOf(when);
    expect(more).toEqual([]);
    expect(problem?.from).toBe(from);
    expect(problem?.message.startsWith(head)).toBe(true);
    expect(problem?.message).toContain(`: ${RECORD} (compare one of its fields: ${fields}`);
  });

  it.each([
    ['some t in tools satisfies t.effect in ["external-commitment"]', "agentTask"],
    ['("gpt-4o" in models) and list contains(models, "gpt-4o")', "agentTask"],
    ["models = [] or tools = null or lane = null", "agentTask"],
    ['models in [["gpt-4o"]]', "agentTask"],
    ["count(agentTasks) > 1 and count(agentTasks[level >= 4]) > 2", "process"],
    ['tools[1].effect = "read" and lane.name = "Sales"', "agentTask"],
    [
      'every n in nodes satisfies n.type != "llm" or some m in models satisfies m = "x"',
      "workflow",
    ],
  ] as const)("accepts %s", (when, subject) => {
    expect(problemsOf(when, subject)).toEqual([]);
  });

  it("refuses the red team's pack when it is read, at the list", () => {
    const text = `kind: PolicyPack
name: bank
version: "1"
rules:
  - id: commits-need-level-2
    severity: error
    for: agentTask
    when: level >= 3 and tools.effect in ["external-commitment", "write-irreversible"]
`;
    const reading = readPolicyPack(text, "bank.policy.yaml");
    const lines = "problems" in reading ? reading.problems.map(formatPolicyProblem) : [];
    expect(lines).toEqual([
      `bank.policy.yaml:8:26: rule commits-need-level-2: when: 'tools.effect' is a list (each item ${EFFECT}), but "external-commitment" is a string: ${ONE_ITEM} (write some t in tools satisfies t.effect in ["external-commitment", "write-irreversible"] to ask whether any item does, 'every' for all)`,
    ]);
  });
});

describe("the rewrite a list compared with one value is refused with", () => {
  // Each row: the `when`, its subject, the comparison refused, and the rewrite said for it.
  it.each([
    [
      'some e in agentTasks.tools satisfies e.effect = "read"',
      "process",
      'e.effect = "read"',
      'some t in e satisfies t.effect = "read"',
    ],
    [
      'agentTasks.tools.effect = "read"',
      "process",
      'agentTasks.tools.effect = "read"',
      'some a in agentTasks satisfies some t in a.tools satisfies t.effect = "read"',
    ],
    [
      'some t in agentTasks satisfies t.tools.effect in ["read"]',
      "process",
      't.tools.effect in ["read"]',
      'some x in t.tools satisfies x.effect in ["read"]',
    ],
    [
      'agentTasks[level >= 4].gates.role = "risk"',
      "process",
      'agentTasks[level >= 4].gates.role = "risk"',
      'some a in agentTasks[level >= 4] satisfies some g in a.gates satisfies g.role = "risk"',
    ],
    [
      "(for a in agentTasks return a.level) = 4",
      "process",
      "(for a in agentTasks return a.level) = 4",
      "some l in (for a in agentTasks return a.level) satisfies l = 4",
    ],
    [
      "some m in agentTasks satisfies m.models = m.element.name",
      "process",
      "m.models = m.element.name",
      "some x in m.models satisfies x = m.element.name",
    ],
    [
      'tools[authorization = "gate"].effect != "read"',
      "agentTask",
      'tools[authorization = "gate"].effect != "read"',
      'some t in tools[authorization = "gate"] satisfies t.effect != "read"',
    ],
    [
      "lane != null and lane.name = gates.role",
      "agentTask",
      "lane.name = gates.role",
      "some g in gates satisfies lane.name = g.role",
    ],
  ] as const)(
    "%s (%s): the rewrite compiles in its place",
    (when, subject, comparison, rewrite) => {
      const [problem, ...more] = problemsOf(when, subject);
      expect(more).toEqual([]);
      expect(problem?.message).toContain(`(write ${rewrite} to ask whether any item does`);
      const fixed = when.replace(comparison, rewrite);
      expect(fixed).not.toBe(when);
      expect(problemsOf(fixed, subject)).toEqual([]);
    },
  );

  it("asks of each item what the refused comparison asked of the list's only item", () => {
    const agents = [
      { tools: [{ effect: "write-reversible" }] },
      { tools: [{ effect: "notify" }, { effect: "read" }] },
    ];
    const fixed = 'some a in agentTasks satisfies some t in a.tools satisfies t.effect = "read"';
    expect(evaluate(fixed, { agentTasks: agents }).value).toBe(true);
    expect(evaluate(fixed, { agentTasks: agents.slice(0, 1) }).value).toBe(false);
  });
});

describe("list contains with a value that is never an item", () => {
  it.each([
    [
      'list contains(tools, "tool:x@1.0.0")',
      21,
      'the items of \'tools\' are each a tool, a record of ref, id, version, effect, authorization, and "tool:x@1.0.0" is a string, so it is never in the list (compare a field of each item: some t in tools satisfies t.ref = "tool:x@1.0.0"; fields of a tool: ref, id, version, effect, authorization)',
    ],
    [
      "list contains(models, 4)",
      22,
      "the items of 'models' are each a string, but 4 is a number: FEEL never equates values of different types, so it is never in the list",
    ],
    [
      "list contains(gates.role, lane)",
      26,
      "the items of 'gates.role' are each a string or null, and lane is lane, a record of id, name, so it is never in the list",
    ],
    [
      'list contains(tools.id, "tool:pay@1.0.0")',
      24,
      `the items of 'tools.id' are each a string or null, but never "tool:pay@1.0.0": a tool's id is never an id@version (that is its ref), so it is never in the list (write "pay", or compare 'ref')`,
    ],
  ] as const)("refuses %s", (when, from, message) => {
    expect(problemsOf(when)).toEqual([{ from, message }]);
  });

  it.each([
    'list contains(tools.ref, "tool:x@1.0.0")',
    'list contains(tools.id, "pay")',
    "list contains(gates.role, lane.name) or list contains(models, element.name)",
    'list contains(tools.effect, "read")',
  ])("accepts %s", (when) => {
    expect(problemsOf(when)).toEqual([]);
  });
});
