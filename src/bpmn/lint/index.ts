/**
 * agentflow's gate rules as a bpmnlint plugin (SPEC 7), for linting BPMN live in bpmn-js and
 * with the bpmnlint CLI: rule factories, the `recommended` configuration, and entries for
 * bpmnlint's `StaticResolver`. See `docs/bpmnlint.md` for the `.bpmnlintrc` to use.
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
} from "./types.js";
export type { AgentflowLintOptions, AgentflowRuleName, AgentflowRules } from "./rules.js";
export { AGENTFLOW_RULE_NAMES, createRules, ruleCode } from "./rules.js";
export { configs, PLUGIN_PACKAGE, rules, staticResolverCache } from "./config.js";
