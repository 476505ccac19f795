/**
 * agentflow's gate rules as a bpmnlint plugin (SPEC 7), for linting BPMN live in bpmn-js and
 * with the bpmnlint CLI: rule factories (one per gate rule, `policy` for policy packs, `waived`
 * for what waivers cover), the `recommended` configuration, and entries for bpmnlint's
 * `StaticResolver`. See `docs/bpmnlint.md` for the `.bpmnlintrc` to use.
 *
 * @packageDocumentation
 */
export type {
  AgentflowRuleConfig,
  BpmnlintCategory,
  BpmnlintConfig,
  BpmnlintPath,
  BpmnlintReporter,
  BpmnlintRule,
  BpmnlintRuleFactory,
  PolicyPackEntry,
} from "./types.js";
export type {
  AgentflowLintOptions,
  AgentflowRuleName,
  AgentflowRules,
  PluginRuleName,
  PolicyRuleName,
} from "./rules.js";
export {
  AGENTFLOW_RULE_NAMES,
  createRules,
  PLUGIN_RULE_NAMES,
  POLICY_RULE_NAMES,
  ruleCode,
} from "./rules.js";
export { configs, PLUGIN_PACKAGE, rules, staticResolverCache } from "./config.js";
