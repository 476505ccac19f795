/**
 * The plugin's rule names: one per gate rule (the kebab-case of its code), and the two rules
 * that have no code of their own — `policy`, which reports the findings of policy packs and
 * plugins, and `waived`, which shows the findings waivers cover.
 */

/**
 * The gate rules' names, in run order: the kebab-case of each gate rule's code. `BPMN_PARSE`
 * has no rule here because bpmnlint parses the XML itself and reports its own import warnings.
 */
export const AGENTFLOW_RULE_NAMES = [
  "sequence-flow-crosses-scope",
  "btv-namespace-mismatch",
  "agent-ref-invalid",
  "agent-autonomy-invalid",
  "agent-ref-conflict",
  "agent-unresolved",
  "agent-lookup-invalid",
  "agent-dependency-unresolved",
  "agent-autonomy-mismatch",
  "agent-workflow-invalid",
  "tool-effect-invalid",
  "camunda-tool-effect-unmapped",
  "camunda-agent-unbounded",
  "agent-gate-unreachable",
  "agent-gate-bypass",
  "agent-gate-optional",
  "agent-self-modifying",
  "tool-effect-needs-gate",
] as const;

/** The name of one of the gate rules. */
export type AgentflowRuleName = (typeof AGENTFLOW_RULE_NAMES)[number];

/**
 * The rules that report findings of no gate rule: `policy` (policy packs' and plugins' rules,
 * `<pack>/<id>`) and `waived` (findings a waiver covers). Neither is in `recommended`: both need
 * the packs or waivers in their options.
 */
export const POLICY_RULE_NAMES = ["policy", "waived"] as const;

/** The name of `policy` or `waived`. */
export type PolicyRuleName = (typeof POLICY_RULE_NAMES)[number];

/** Every rule of the plugin: the gate rules, then `policy` and `waived`. */
export const PLUGIN_RULE_NAMES: readonly (AgentflowRuleName | PolicyRuleName)[] = Object.freeze([
  ...AGENTFLOW_RULE_NAMES,
  ...POLICY_RULE_NAMES,
]);

/** The name of any rule of the plugin. */
export type PluginRuleName = AgentflowRuleName | PolicyRuleName;

/**
 * The agentflow code of a gate rule's name (`agent-gate-bypass` → `AGENT_GATE_BYPASS`).
 *
 * @example
 * ```ts
 * import { ruleCode } from "agentflow/bpmnlint";
 *
 * ruleCode("agent-gate-bypass"); // → "AGENT_GATE_BYPASS"
 * ```
 */
export function ruleCode(name: AgentflowRuleName): string {
  return name.toUpperCase().replaceAll("-", "_");
}

/** The codes the gate rules report; a waiver of any other rule belongs to `policy`. */
export const GATE_RULE_CODES: ReadonlySet<string> = new Set(AGENTFLOW_RULE_NAMES.map(ruleCode));
