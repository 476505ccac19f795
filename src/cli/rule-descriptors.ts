import type { RuleDescriptor } from "../report/index.js";
import { ruleHelpUri } from "../report/index.js";
import { BPMN_RULES } from "../bpmn/index.js";
import { RULES } from "../validate/index.js";

/** Describes the built-in rules (workflow and BPMN) for SARIF and JUnit. */
export function ruleDescriptors(): RuleDescriptor[] {
  return [...RULES, ...BPMN_RULES].map((r) => ({
    code: r.meta.code,
    description: r.meta.description,
    defaultSeverity: r.meta.defaultSeverity,
    helpUri: ruleHelpUri(r.meta.code),
  }));
}
