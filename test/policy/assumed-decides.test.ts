/**
 * A finding states an assumption about unknown facts only when the assumption decided it: a
 * `when` that holds whatever the unknowns are (every value, and null as they are) was decided by
 * the known facts, and its finding is a plain one.
 */
import { describe, expect, it } from "vitest";
import type { AgentTaskFacts } from "../../src/policy/index.js";
import { checkWhen } from "../../src/policy/feel-check.js";
import { TryBudget } from "../../src/policy/feel.js";
import { judge } from "../../src/policy/judge.js";
import { agentTask, onePack, processView, runProcess, tool } from "./helpers.js";

const IRREVERSIBLE = 'some t in tools satisfies t.effect = "write-irreversible"';

describe("an assumption is stated only when it decided the finding", () => {
  const cases: {
    name: string;
    when: string;
    task: Partial<AgentTaskFacts>;
    expected: [string, unknown, unknown];
  }[] = [
    {
      name: "a known write-irreversible tool decides, beside one of unknown effect",
      when: IRREVERSIBLE,
      task: { tools: [tool("refund", "write-irreversible"), tool("legacy", null)] },
      expected: ["default", undefined, undefined],
    },
    {
      name: "a known level decides an 'or', whatever the unknown effect",
      when: 'level >= 2 or some t in tools satisfies t.effect = "external-commitment"',
      task: { level: 3, tools: [tool("legacy", null)] },
      expected: ["default", undefined, undefined],
    },
    {
      name: "an unknown effect alone: the assumption decided",
      when: IRREVERSIBLE,
      task: { tools: [tool("legacy", null)] },
      expected: ["assumed", { effect: "write-irreversible" }, 'effect = "write-irreversible"'],
    },
    {
      name: "true of every level but not of the unknown as it is: stated",
      when: "level >= 0",
      task: { level: null },
      expected: ["assumed", { level: 0 }, "level = 0"],
    },
    {
      name: "a rule that asks whether a fact is unknown keeps its null",
      when: "some t in tools satisfies t.effect = null",
      task: { tools: [tool("refund", "read"), tool("legacy", null)] },
      expected: ["assumed", { effect: null }, "effect = null"],
    },
  ];

  it("says what was assumed where it mattered, and nothing where it did not", () => {
    const got = cases.map((c) => {
      const findings = runProcess(
        onePack({ for: "agentTask", when: c.when }),
        processView([agentTask("A", c.task)]),
      );
      return [c.name, findings.map((f) => [f.messageId, f.data.assumed, f.data.assumption])];
    });
    expect(got).toEqual(cases.map((c) => [c.name, [c.expected]]));
  });

  it("tries others only from the first half of the bound, and states it when they run out", () => {
    const when = IRREVERSIBLE;
    const rule = {
      pack: "t",
      id: "r",
      subject: "agentTask" as const,
      when: { text: when, reads: checkWhen(when, "agentTask") },
    };
    const facts = agentTask("Spare", {
      tools: [tool("refund", "write-irreversible"), tool("legacy", null)],
    });
    // The first try is free; of a bound of 2, one spare try is taken, and 6 were needed.
    const budget = new TryBudget(2);
    const verdict = judge(rule, facts, undefined, budget);
    expect([verdict?.messageId, verdict?.data.assumed]).toEqual(["assumed", { effect: "read" }]);
    expect([budget.take(), budget.take()]).toEqual([true, false]);
  });
});
