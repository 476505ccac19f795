import { describe, expect, it } from "vitest";
import { BPMN_RULES } from "../../../src/bpmn/index.js";
import { RULE_CHECKS, ruleCheck } from "../../../src/report/audit/rule-checks.js";
import { RULES } from "../../../src/validate/index.js";

describe("the checks column of the rule tables", () => {
  const all = [...BPMN_RULES.map((r) => r.meta), ...RULES.map((r) => r.meta)];

  it("words every rule agentflow has as its check, not as its description of the fault", () => {
    for (const meta of all) {
      expect(Object.hasOwn(RULE_CHECKS, meta.code), meta.code).toBe(true);
      expect(ruleCheck(meta.code, meta.description), meta.code).not.toBe(meta.description);
    }
    expect(Object.keys(RULE_CHECKS).sort()).toEqual(all.map((m) => m.code).sort());
  });

  it("says what the bypass rule checks, and shows a plugin's rule as what it looks for", () => {
    expect(ruleCheck("AGENT_GATE_BYPASS", "x")).toBe(
      "Every path from an agent task that requires a gate passes a gate before it ends",
    );
    expect(ruleCheck("PLUGIN_RULE", "A task has no name")).toBe("Looks for: A task has no name");
    expect(ruleCheck("__proto__", "odd")).toBe("Looks for: odd");
  });
});
