/**
 * The rule kit (`agentflow/rules`): how every rule is written — agentflow's own and an
 * organisation's, workflow rules and process rules. Rules are tested with `RuleTester` from
 * `agentflow/testing`; docs/policies.md shows a plugin rule written with the kit.
 *
 * @packageDocumentation
 */
export { defineRule } from "./define.js";
export { DOCS_BASE_URL, ruleHelpUri } from "./help-url.js";
export type { AnyRule, Plugin } from "./plugin.js";
export { RULE_CRASHED } from "./run.js";
export type { RuleSetting, RuleSettings } from "./settings.js";
export type { ReportBase, RuleDefinition, RuleMeta, RuleScope } from "./types.js";
