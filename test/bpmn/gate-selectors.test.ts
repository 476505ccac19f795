/**
 * Approval gates as Camunda users draw them (issue 39, item 4): a user task with candidate groups
 * after a Camunda AI agent is no gate by itself (fail closed), and the finding says how to declare
 * one; the organisation's selectors (by candidate group, template, property or id) make it one
 * without touching the BPMN, with the approver role from the group. The same verdict through
 * `checkProcess`, `evaluateGatesSync`, the bpmnlint plugin's rule options and the bpmn-js config.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { GateSelector } from "../../src/bpmn/index.js";
import { checkProcess, evaluateGatesSync, readProcess } from "../../src/bpmn/index.js";
import type { AgentflowRuleConfig } from "../../src/bpmn/lint/index.js";
import { createRules } from "../../src/bpmn/lint/index.js";
import { configProblems } from "../../src/bpmn-js/config.js";

/** The refund agent of the fixtures, its review a bare Camunda user task (no btv:gate). */
const XML = readFileSync("test/fixtures/camunda/subprocess-v11-refund.bpmn", "utf8").replace(
  '<btv:gate approverRole="supervisor" />',
  "",
);
const MAPPED = {
  "acme:fraud-score:1": "read",
  "io.camunda.connectors.HttpJson.v2": "read",
} as const;

describe("a bare user task after the agent", () => {
  it("is no gate: BLOCKED, and the finding says how to declare one", async () => {
    const decision = await checkProcess(XML, { toolEffects: MAPPED });
    expect(decision.allowed).toBe(false);
    const unreachable = decision.blocking.find((d) => d.code === "AGENT_GATE_UNREACHABLE");
    expect(unreachable?.data).toMatchObject({ elementId: "Agent", userTasks: ["Review"] });
    expect(unreachable?.message).toContain(
      'the user task "Review" after it is no gate unless declared: mark one <btv:gate/>, or select it in agentflow.config.json "gates" (by candidate group, template, property or id)',
    );
    expect(decision.gates).toEqual([]);
  });
});

describe.each<[string, GateSelector, string | null]>([
  ["by candidate group", { candidateGroup: "supervisors" }, "supervisors"],
  // The declared role adds to the group the task names: a supervisor may still approve it.
  [
    "by id, with a role of its own",
    { id: "Review", role: "head of refunds" },
    "head of refunds, supervisors",
  ],
  ["by property", { property: { name: "approval", value: "refund" } }, "supervisors"],
])("a selector %s", (_, selector, role) => {
  const xml = XML.replace(
    '<zeebe:userTask />\n        <zeebe:assignmentDefinition candidateGroups="supervisors" />',
    '<zeebe:userTask />\n        <zeebe:assignmentDefinition candidateGroups="supervisors" />\n        <zeebe:properties><zeebe:property name="approval" value="refund" /></zeebe:properties>',
  );

  it("makes the user task a gate: ALLOWED, with the approver role", async () => {
    expect(xml).toContain('name="approval"');
    const decision = await checkProcess(xml, { toolEffects: MAPPED, gates: [selector] });
    expect(decision.blocking).toEqual([]);
    expect(decision.allowed).toBe(true);
    expect(decision.agentTasks[0]?.gate).toBe("reached");
    expect(decision.gates).toEqual([{ elementId: "Review", role }]);
    const { definitions } = await readProcess(xml);
    if (definitions === undefined) throw new Error("unreadable");
    const sync = evaluateGatesSync(definitions, { toolEffects: MAPPED, gates: [selector] });
    expect(sync.allowed).toBe(true);
    expect(sync.ruleSet.digest).toBe(decision.ruleSet.digest);
  });

  it("is part of the rule set's digest", async () => {
    const without = await checkProcess(xml, { toolEffects: MAPPED });
    const withIt = await checkProcess(xml, { toolEffects: MAPPED, gates: [selector] });
    expect(withIt.ruleSet.digest).not.toBe(without.ruleSet.digest);
    expect(withIt.ruleSet.gates).toEqual([selector]);
  });
});

describe("selectors that do not match, or are wrong", () => {
  it("a group the task does not have leaves it no gate", async () => {
    const decision = await checkProcess(XML, {
      toolEffects: MAPPED,
      gates: [{ candidateGroup: "finance" }],
    });
    // "finance" is the group of ApproveRefund, a tool inside the agent: a gate there is not after it.
    expect(decision.allowed).toBe(false);
    expect(decision.blocking.map((d) => d.code)).toContain("AGENT_GATE_UNREACHABLE");
  });

  it.each(["task", "scriptTask", "serviceTask", "callActivity", "subProcess"])(
    "matches no %s, whatever it carries: only a user task waits for a person",
    async (tag) => {
      const start = XML.indexOf('<bpmn:userTask id="Review"');
      const end = XML.indexOf("</bpmn:userTask>", start) + "</bpmn:userTask>".length;
      const review = XML.slice(start, end)
        .replace("<bpmn:userTask ", `<bpmn:${tag} zeebe:modelerTemplate="com.acme.approval.v1" `)
        .replace("</bpmn:userTask>", `</bpmn:${tag}>`)
        .replace(
          "<zeebe:userTask />",
          '<zeebe:properties><zeebe:property name="approval" value="refund" /></zeebe:properties>',
        );
      const xml = XML.slice(0, start) + review + XML.slice(end);
      for (const selector of [
        { id: "Review" },
        { template: "com.acme.approval.v1" },
        { property: { name: "approval", value: "refund" } },
      ]) {
        const decision = await checkProcess(xml, { toolEffects: MAPPED, gates: [selector] });
        expect(decision.gates).toEqual([]);
        expect(decision.allowed).toBe(false);
        expect(decision.blocking.map((d) => d.code)).toContain("AGENT_GATE_UNREACHABLE");
      }
    },
  );

  it("a selector with no criterion is a TypeError naming it", async () => {
    await expect(checkProcess(XML, { gates: [{ role: "x" }] })).rejects.toThrow(
      "evaluateGates: gates/0 names no criterion (id, candidateGroup, template or property): it would make every element a gate",
    );
  });
});

describe("the bpmnlint plugin and the bpmn-js module take the same selectors", () => {
  it("a rule's options hold the gates; a wrong one is the rule's one-line problem", async () => {
    const { definitions } = await readProcess(XML);
    if (definitions === undefined) throw new Error("unreadable");
    const rules = createRules({ toolEffects: MAPPED });
    const reports = (config: AgentflowRuleConfig): string[] => {
      const out: string[] = [];
      rules["agent-gate-unreachable"](config).check(definitions, {
        report: (id, message) => out.push(`${id}: ${message}`),
      });
      return out;
    };
    expect(reports({})).toHaveLength(1);
    expect(reports({ gates: [{ candidateGroup: "supervisors" }] })).toEqual([]);
    expect(reports({ gates: [{ group: "supervisors" } as unknown as GateSelector] })).toEqual([
      "Definitions_refund_triage: agentflow/agent-gate-unreachable: gates/0: unknown key 'group' (known: id, candidateGroup, template, property, role); the rule did not run",
    ]);
  });

  it("the modeller's options accept gates and name a wrong one", () => {
    expect(configProblems({ gates: [{ candidateGroup: "supervisors" }] })).toEqual([]);
    expect(configProblems({ gates: {} })).toEqual([
      "agentflow.gates must be an array of gate selectors, got object",
    ]);
  });
});
