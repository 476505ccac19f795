/**
 * The rule registry: explicit lists, no globbing, in run order — structure first, then loops
 * and stops, conditions, references, delegation, budget and autonomy. Diagnostics come out in
 * this order (then document order within a rule).
 */
import type { Rule } from "../types.js";
import { AUTONOMY_RULES } from "./autonomy.js";
import { CONDITION_RULES } from "./conditions.js";
import { DELEGATION_RULES } from "./delegation.js";
import { LOOP_RULES } from "./loops.js";
import { REFERENCE_RULES } from "./references.js";
import { STRUCTURE_RULES } from "./structure.js";

/** A group of rules, as the rule index (`docs/rules/README.md`) lists them. */
export interface RuleGroup {
  readonly title: string;
  readonly rules: readonly Rule[];
}

/** The built-in rules by group, in run order. */
export const RULE_GROUPS: readonly RuleGroup[] = Object.freeze([
  { title: "Structure", rules: STRUCTURE_RULES },
  { title: "Loops and stops", rules: LOOP_RULES },
  { title: "Conditions", rules: CONDITION_RULES },
  { title: "References and contracts", rules: REFERENCE_RULES },
  { title: "Delegation", rules: DELEGATION_RULES },
  { title: "Budget and autonomy", rules: AUTONOMY_RULES },
]);

/** Every built-in rule, in run order. */
export const RULES: readonly Rule[] = Object.freeze(RULE_GROUPS.flatMap((group) => group.rules));
