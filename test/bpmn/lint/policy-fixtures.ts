/**
 * What the policy tests of the bpmnlint plugin share: a bank's pack (as data and as YAML), a
 * waiver, a linter resolving from the example registry, and the findings of `checkProcess` and
 * of a lint in one comparable shape.
 */
import type { ProcessCheck } from "../../../src/bpmn/index.js";
import { createRules, staticResolverCache } from "../../../src/bpmn/lint/index.js";
import { registry } from "../../bpmn-js/loan.js";
import { expect } from "vitest";
import type { LintResults } from "./linter.js";
import { staticLinter } from "./linter.js";

/** Four eyes on commitments: two approver roles on every path from an agent that commits. */
const FOUR_EYES = {
  id: "four-eyes",
  severity: "error",
  for: "agentTask",
  when: 'some t in tools satisfies t.effect = "external-commitment"',
  require: { gates: { distinctRoles: 2 } },
};
/** A warning on agents at level 3 or above, in the pack's own words. */
const LEVEL_CAP = {
  id: "level-cap",
  severity: "warning",
  for: "agentTask",
  when: "level >= 3",
  message: "{{element.name}} runs at level {{level}}",
};
/** An info on a process with more than one agent task. */
const TWO_AGENTS = {
  id: "two-agents",
  severity: "info",
  for: "process",
  when: "count(agentTasks) > 1",
};

/** A bank's pack, as a browser bundles it: plain data. */
export const PACK = {
  kind: "PolicyPack",
  name: "bank",
  version: "1.0.0",
  rules: [FOUR_EYES, LEVEL_CAP, TWO_AGENTS],
};

/** The same pack as its owners write it. */
export const PACK_YAML = `kind: PolicyPack
name: bank
version: 1.0.0
rules:
  - id: four-eyes
    severity: error
    for: agentTask
    when: some t in tools satisfies t.effect = "external-commitment"
    require:
      gates: { distinctRoles: 2 }
  - id: level-cap
    severity: warning
    for: agentTask
    when: level >= 3
    message: "{{element.name}} runs at level {{level}}"
  - id: two-agents
    severity: info
    for: process
    when: count(agentTasks) > 1
`;

/** The day waivers are judged on in these tests. */
export const TODAY = "2027-01-15";
/** A waiver of the offer task's unreachable gate, until 2027-03-31. */
export const WAIVER = {
  rule: "AGENT_GATE_UNREACHABLE",
  process: "LoanOrigination",
  element: "DraftAndSendOffer",
  reason: "pilot: the offer is reviewed by hand until the gate ships",
  grantedBy: "cro@bank.example",
  expires: "2027-03-31",
};

/** A linter whose rules resolve from the example registry, as a bpmn-js host builds one. */
export function linter(): ReturnType<typeof staticLinter> {
  return staticLinter(staticResolverCache(createRules(registry)));
}

/** `code@element: message` of every finding `checkProcess` gives whose code passes `keep`. */
export function gateFindings(check: ProcessCheck, keep: (code: string) => boolean): string[] {
  return [...check.blocking, ...check.warnings]
    .filter((d) => keep(d.code))
    .map((d) => {
      const id = d.target.kind === "bpmn-element" ? d.target.elementId : "";
      return `${id}: ${d.code}: ${d.message}`;
    });
}

/** `element: message` of one rule's reports, at `category`. */
export function reportsOf(results: LintResults, rule: string, category = "error"): string[] {
  return (results[`agentflow/${rule}`] ?? []).map((r) => {
    expect(r.category).toBe(category);
    return `${r.id ?? ""}: ${r.message}`;
  });
}

/** Whether a code is one of the bank pack's. */
export const isPackCode = (code: string) => code.startsWith("bank/");
