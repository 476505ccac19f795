/**
 * The shipped RuleTester on a custom process rule: cases run through `checkProcess` with the
 * rule alone, findings are matched by element, messageId and location, and the synchronous
 * evaluation of the parsed definitions must agree.
 */
import { describe, expect, it } from "vitest";
import type { BpmnRuleContext } from "../../src/bpmn/index.js";
import { rule as bpmnParse } from "../../src/bpmn/rules/BPMN_PARSE.js";
import { defineRule } from "../../src/rules/index.js";
import type { ProcessInvalidCase, RuleTests } from "../../src/testing/index.js";
import { RuleTester } from "../../src/testing/index.js";
import {
  agent,
  agentWorkflow,
  chain,
  endEvent,
  nodePath,
  processXml,
  startEvent,
  task,
} from "../bpmn/builders.js";
import { registryLookup } from "../bpmn/rule-tester.js";
import { failedCases, failureOf, levelRule, registered } from "./rules.js";

const lookup = registryLookup([
  agentWorkflow("agnt-two@1.0.0", 2),
  agentWorkflow("agnt-four@1.0.0", 4, { justified: 2 }),
]);
const gate = { resolveWorkflow: lookup, resolveTool: lookup };
/** S → A → E, with the agent task A given. */
const around = (agentXml: string) =>
  processXml(startEvent("S"), agentXml, endEvent("E"), chain("S", "A", "E"));
const four = around(agent("A", { ref: "agnt-four@1.0.0", level: "4" }));
const unknownLevel = around(agent("A", { ref: "agnt-elsewhere@1.0.0" }));

const holds: RuleTests = {
  valid: [
    {
      name: "level 2, under the default cap",
      xml: around(agent("A", { ref: "agnt-two@1.0.0" })),
      gate,
    },
    { name: "level 4 under a cap of 4", xml: four, gate, options: { max: 4 } },
    { name: "no agent task", xml: around(task("A")) },
  ],
  invalid: [
    {
      name: "level 4 over the default cap",
      xml: four,
      gate,
      errors: [
        {
          code: "LEVEL_CAP",
          messageId: "default",
          elementId: "A",
          target: { kind: "bpmn-element", elementId: "A", path: nodePath(1) },
          path: nodePath(1),
          data: { level: 4, max: 3 },
          location: { line: 5, column: 23 },
        },
      ],
    },
    {
      name: "an unresolved workflow: unknown level",
      xml: unknownLevel,
      gate,
      errors: [
        {
          messageId: "unknown",
          elementId: "A",
          message: 'agent task "A" runs at an unknown level',
        },
      ],
    },
  ],
};

describe("RuleTester, process rule", () => {
  it("passes a table that holds, one it per case", async () => {
    const tests = registered(levelRule, holds);
    expect(tests.map((t) => t.name)).toEqual([
      "valid: level 2, under the default cap",
      "valid: level 4 under a cap of 4",
      "valid: no agent task",
      "invalid: level 4 over the default cap",
      "invalid: an unresolved workflow: unknown level",
    ]);
    for (const test of tests) await test.body();
    expect(await failureOf(levelRule, holds)).toBeUndefined();
  });

  it("takes gate options from the tester, and async resolvers", async () => {
    const tester = new RuleTester({
      gate: { resolveWorkflow: (ref) => Promise.resolve(lookup(ref)) },
    });
    const table: RuleTests = {
      valid: [],
      invalid: [{ name: "level 4", xml: four, errors: [{ elementId: "A", data: { level: 4 } }] }],
    };
    expect(await failureOf(levelRule, table, tester)).toBeUndefined();
    expect(() => new RuleTester({ gate: { rules: {} } as never })).toThrow(
      "new RuleTester(defaults): `gate` sets 'rules': the tester runs the rule alone, at the case's severity and options",
    );
  });

  /** The one failure message of a table with one invalid case. */
  async function failing(c: ProcessInvalidCase, rule = levelRule): Promise<string> {
    const messages = await failedCases(rule, { valid: [], invalid: [c] });
    expect(messages).toHaveLength(1);
    return messages[0] ?? "";
  }

  it("fails on another element, location or messageId", async () => {
    const base = { name: "c", xml: four, gate };
    expect(await failing({ ...base, errors: [{ elementId: "B" }] })).toMatch(
      /^invalid: c: error 1: Expected values to be strictly deep-equal:[\s\S]*elementId: 'A'/,
    );
    expect(await failing({ ...base, errors: [{ location: { line: 4, column: 23 } }] })).toMatch(
      /line: 5/,
    );
    expect(await failing({ ...base, errors: [{ messageId: "unknown" }] })).toBe(
      `invalid: c: error 1: expected messageId 'unknown' but the finding's is 'default' ("agent task "A" runs at level 4, above 3")`,
    );
  });

  it("fails when the synchronous evaluation finds something else", async () => {
    let runs = 0;
    const flaky = defineRule<BpmnRuleContext>({
      meta: { ...levelRule.meta, code: "FLAKY" },
      check: (context) => {
        runs += 1;
        if (runs % 2 === 1)
          context.report({ elementId: "", path: "", data: { elementId: "x", level: 1, max: 0 } });
      },
    });
    expect(
      await failing({ name: "c", xml: four, gate, errors: [{ elementId: "" }] }, flaky),
    ).toMatch(
      /^invalid: c: evaluateGatesSync on the parsed definitions gives other findings of FLAKY than checkProcess/,
    );
  });

  it("fails when the rule throws: RULE_CRASHED", async () => {
    const broken = defineRule<BpmnRuleContext>({
      meta: { ...levelRule.meta, code: "BROKEN" },
      check: () => {
        throw new Error("no analysis");
      },
    });
    const [message] = await failedCases(broken, {
      valid: [{ name: "c", xml: four, gate }],
      invalid: [],
    });
    expect(message).toBe(
      "valid: c: RULE_CRASHED: rule BROKEN failed on this process (no analysis); its check did not run",
    );
  });

  it("refuses gate options that set the rules", async () => {
    const c = { name: "c", xml: four, gate: { ruleSet: [] } } as never;
    expect(await failedCases(levelRule, { valid: [c], invalid: [] })).toEqual([
      "valid: c: invalid valid case: `gate` sets 'ruleSet': the tester runs the rule alone, at the case's severity and options",
    ]);
  });

  it("tells the messageId of findings made outside the check (BPMN_PARSE from the reader)", async () => {
    const xml = processXml(
      startEvent("S"),
      task("T", { attrs: { priority: "high" } }),
      endEvent("E"),
      chain("S", "T", "E"),
    );
    const expecting = (messageId: string): RuleTests => ({
      valid: [],
      invalid: [{ name: "c", xml, errors: [{ messageId, elementId: "T", severity: "warning" }] }],
    });
    expect(await failureOf(bpmnParse, expecting("unknown-attribute"))).toBeUndefined();
    expect(await failedCases(bpmnParse, expecting("dropped"))).toEqual([
      `invalid: c: error 1: expected messageId 'dropped' but the finding's is 'unknown-attribute' ("attribute <priority> is not part of the BPMN model (kept as is)")`,
    ]);
  });
});
