/**
 * Validation (SPEC 3): the rule engine, the rules, presets and resolution.
 *
 * @packageDocumentation
 */
export type {
  PresetName,
  Report,
  Resolution,
  Resolvers,
  Rule,
  RuleContext,
  RuleMeta,
  RuleSetting,
  RuleSettings,
} from "./types.js";
export type { Validator, ValidatorConfig } from "./engine.js";
export type { PolicyInput } from "./policies.js";
export { createValidator } from "./create-validator.js";
export { isPromotable, RULE_CRASHED } from "./engine.js";
export type { DecisionCondition, DelegateVerdict, Facts } from "./types.js";
export { PRESET_NAMES, presetSettings } from "./presets.js";
export type { ResolvedRefs } from "./types.js";
export { MAX_DELEGATES } from "./resolve.js";
export type { RuleGroup } from "./rules/index.js";
export { RULE_GROUPS, RULES } from "./rules/index.js";
export { validateToolContract } from "./tool-contract.js";
