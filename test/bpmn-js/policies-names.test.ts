/**
 * The modeller's `policies` refuse two packs of one name, as `agentflow check` does: either's
 * waivers would waive the other's rules. `configProblems` says so, and the engine refuses to
 * evaluate (`preparedOptions`), so no verdict is drawn with one pack waiving the other.
 */
import { describe, expect, it } from "vitest";
import { configProblems } from "../../src/bpmn-js/index.js";
import { compiledEntry } from "../../src/bpmn-js/pack-compile.js";
import { preparedOptions } from "../../src/bpmn-js/policy-checks.js";

const rule = {
  id: "level-3-needs-review",
  severity: "error",
  for: "agentTask",
  when: "level >= 3",
};
const COMPLIANCE = { kind: "PolicyPack", name: "bank", version: "7.0", rules: [rule] };
const TEAM = {
  ...COMPLIANCE,
  version: "0.1",
  rules: [{ ...rule, severity: "warning" }],
  waivers: [
    {
      rule: "level-3-needs-review",
      process: "LoanOrigination",
      reason: "the team accepts its own warning",
      grantedBy: "team-lead@bank.example",
      expires: "2099-12-31",
    },
  ],
};
const CLASH =
  "agentflow.policies: policy pack agentflow.policies[1] is named 'bank', as policy pack agentflow.policies[0] is; the name prefixes its rules' codes, which waivers name, so it must be unique: one pack's waivers would waive the other's rules";

describe("agentflow.policies with packs of one name", () => {
  it.each([
    ["two named bank", [COMPLIANCE, TEAM], [CLASH]],
    ["names of their own", [COMPLIANCE, { ...TEAM, name: "team", waivers: [] }], []],
  ])("%s", (_name, policies, expected) => {
    expect(configProblems({ policies })).toEqual(expected);
  });

  it("the engine evaluates nothing with them", () => {
    expect(() => preparedOptions({ policies: [COMPLIANCE, TEAM] }, compiledEntry)).toThrow(
      new TypeError(CLASH),
    );
  });
});
