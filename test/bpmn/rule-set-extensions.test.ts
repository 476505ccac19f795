/**
 * A rule set lists a changed plugin or pack rule against its own default severity (there is no
 * preset for it), once, and names each plugin and pack in its digest.
 */
import { describe, expect, it } from "vitest";
import type { BpmnRuleContext } from "../../src/bpmn/index.js";
import { describeRuleSet, evaluateGatesSync, readProcess } from "../../src/bpmn/index.js";
import { defineRule } from "../../src/rules/index.js";

const quiet = defineRule<BpmnRuleContext>({
  meta: {
    code: "QUIET",
    scope: "process",
    defaultSeverity: "error",
    description: "Reports nothing",
    docs: "test",
    messages: { default: "never" },
  },
  check() {
    // Only its setting matters here.
  },
});
const acme = { meta: { name: "acme", version: "1.0.0" }, rules: { QUIET: quiet } };
const XML = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="D" targetNamespace="https://example.com">
  <bpmn:process id="P"><bpmn:startEvent id="S" /></bpmn:process>
</bpmn:definitions>`;

describe("a rule set with a plugin", () => {
  it("lists a changed plugin rule against its default, and pins the plugin", async () => {
    const { definitions } = await readProcess(XML);
    if (definitions === undefined) throw new Error("unreadable");
    const decision = evaluateGatesSync(definitions, {
      plugins: { acme },
      rules: { "acme/QUIET": "warning" },
    });
    expect(decision.ruleSet.changed).toEqual([
      { code: "acme/QUIET", preset: "error", setting: "warning" },
    ]);
    expect(decision.ruleSet.extensions?.map((e) => [e.kind, e.name, e.version])).toEqual([
      ["plugin", "acme", "1.0.0"],
    ]);
    const without = evaluateGatesSync(definitions, { plugins: { acme } });
    expect(without.ruleSet.changed).toEqual([]);
    expect(without.ruleSet.digest).not.toBe(decision.ruleSet.digest);
  });

  it("lists a setting given in both scopes once", () => {
    const set = describeRuleSet({
      preset: "recommended",
      workflowRules: { "bank/models": "warning" },
      bpmnRules: { "bank/models": "warning" },
      camundaAgents: "gate-required",
      extensionDefaults: { "bank/models": "error" },
    });
    expect(set.changed).toEqual([{ code: "bank/models", preset: "error", setting: "warning" }]);
  });
});
