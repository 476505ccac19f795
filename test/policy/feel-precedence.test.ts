/**
 * `in` followed by an operator, refused when the pack compiles (red team: `some t in tools
 * satisfies t.effect in ["external-commitment", "write-irreversible"] and t.authorization !=
 * "forbidden"` never fired: feelin reads it as `t.effect in ([…] and …)`, null, which `some`
 * takes as false). FEEL binds `in` tighter than `and`/`or`; feelin's grammar does not, for `in`
 * only. Each rewrite the problem suggests is checked as written: it compiles, and feelin gives
 * it the value FEEL's precedence gives the original.
 */
import { evaluate } from "feelin";
import { describe, expect, it } from "vitest";
import type { PolicySubject } from "../../src/policy/facts.js";
import { checkWhen } from "../../src/policy/feel-check.js";
import { formatPolicyProblem, readPolicyPack } from "../../src/policy/index.js";

const problemsOf = (when: string, subject: PolicySubject) =>
  checkWhen(when, subject).problems.map((p) => ({ from: p.from, message: p.message }));

const READS = "feelin takes all that follows 'in' as its test: this reads";
const NULL =
  " (null when a side is no boolean, as a list or a range is; 'some', 'every' and filters take that null as false)";
const ENDS = "so it never holds as meant (write";

/** Facts on which every `when` below holds as FEEL's precedence reads it. */
const TOOL = { effect: "external-commitment", authorization: "gate" };
const TASK = {
  level: 4,
  camunda: false,
  gateStatus: "missing",
  element: { id: "Offer", name: "Offer" },
  tools: [TOOL],
};
const FACTS: Record<PolicySubject, Record<string, unknown>> = {
  agentTask: TASK,
  process: { agentTasks: [TASK] },
  workflow: {},
  tool: TOOL,
};

describe("an operator after the test of 'in'", () => {
  it.each([
    [
      'some t in tools satisfies t.effect in ["external-commitment", "write-irreversible"] and t.authorization != "forbidden"',
      "agentTask",
      35,
      `t.effect in (["external-commitment", "write-irreversible"] and t.authorization != "forbidden"), comparing 't.effect' with the value of an 'and'${NULL}`,
      '(t.effect in ["external-commitment", "write-irreversible"]) and t.authorization != "forbidden"',
    ],
    [
      "some a in agentTasks satisfies a.level in [3..5] and not(a.camunda)",
      "process",
      39,
      `a.level in ([3..5] and not(a.camunda)), comparing 'a.level' with the value of an 'and'${NULL}`,
      "(a.level in [3..5]) and not(a.camunda)",
    ],
    [
      'count(tools[effect in ["external-commitment", "write-irreversible"] and authorization = "gate"]) > 0',
      "agentTask",
      19,
      `effect in (["external-commitment", "write-irreversible"] and authorization = "gate"), comparing 'effect' with the value of an 'and'${NULL}`,
      '(effect in ["external-commitment", "write-irreversible"]) and authorization = "gate"',
    ],
    [
      "level in < 5 or camunda",
      "agentTask",
      6,
      `level in < (5 or camunda), comparing 'level' with the value of an 'or'${NULL}`,
      "(level in < 5) or camunda",
    ],
    [
      "level in [3..5] = true",
      "agentTask",
      6,
      "level in ([3..5] = true), comparing 'level' with the value of a comparison",
      "(level in [3..5]) = true",
    ],
    [
      "level in [4] instance of boolean",
      "agentTask",
      6,
      "level in ([4] instance of boolean), comparing 'level' with the value of an 'instance of'",
      "(level in [4]) instance of boolean",
    ],
    [
      // Parentheses around the list alone do not end the test.
      'level in ([3..5]) or gateStatus in ["reached"]',
      "agentTask",
      6,
      `level in (([3..5]) or gateStatus in ["reached"]), comparing 'level' with the value of an 'or'${NULL}`,
      '(level in ([3..5])) or gateStatus in ["reached"]',
    ],
    [
      'level in [4] and camunda in [false] and gateStatus in ["missing"]',
      "agentTask",
      6,
      `level in ([4] and camunda in [false] and gateStatus in ["missing"]), comparing 'level' with the value of an 'and'${NULL}`,
      '(level in [4]) and (camunda in [false]) and gateStatus in ["missing"]',
    ],
  ] as const)("refuses %s (%s) once, at 'in'", (when, subject, from, reads, rewrite) => {
    expect(problemsOf(when, subject)).toEqual([
      { from, message: `${READS} ${reads}, ${ENDS} ${rewrite}, as FEEL's precedence reads it)` },
    ]);
    // The rewrite, as written, in place of the comparison (what `reads` shows without its
    // parentheses): it compiles, and holds where the rule meant it to; the original does not.
    const comparison = reads
      .slice(0, reads.indexOf(", comparing"))
      .replace(/ \(|\)$/g, (m) => (m === " (" ? " " : ""));
    const fixed = when.replace(comparison, rewrite);
    expect(fixed).not.toBe(when);
    expect(problemsOf(fixed, subject)).toEqual([]);
    expect(evaluate(fixed, FACTS[subject]).value).toBe(true);
    expect(evaluate(when, FACTS[subject]).value).not.toBe(true);
  });

  it.each([
    ['some t in tools satisfies t.authorization != "forbidden" and t.effect in ["read"]', false],
    ["level in (3, 4) and not(camunda)", true],
    ['level = 4 and gateStatus != "bypassed"', true],
    ["level between 3 and 5 and not(camunda)", true],
    ["element.name instance of string and level < 5 or camunda", true],
    ['(level in ([3..5])) or gateStatus in ["reached"]', true],
  ] as const)("accepts %s, which feelin reads as FEEL does", (when, value) => {
    expect(problemsOf(when, "agentTask")).toEqual([]);
    expect(evaluate(when, TASK).value).toBe(value);
  });

  it("refuses the red team's pack when it is read, at each 'in'", () => {
    const text = `kind: PolicyPack
name: bank
version: "1"
rules:
  - id: ungated-commitments
    severity: error
    for: agentTask
    when: some t in tools satisfies t.effect in ["external-commitment"] and t.authorization != "forbidden"
  - id: autonomous-agents
    severity: error
    for: process
    when: some a in agentTasks satisfies (a.level in [3..5]) and not(a.camunda)
`;
    const reading = readPolicyPack(text, "bank.policy.yaml");
    const lines = "problems" in reading ? reading.problems.map(formatPolicyProblem) : [];
    expect(lines).toEqual([
      `bank.policy.yaml:8:46: rule ungated-commitments: when: ${READS} t.effect in (["external-commitment"] and t.authorization != "forbidden"), comparing 't.effect' with the value of an 'and'${NULL}, ${ENDS} (t.effect in ["external-commitment"]) and t.authorization != "forbidden", as FEEL's precedence reads it)`,
    ]);
  });
});
