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

/** Every built-in rule, in run order. */
export const RULES: readonly Rule[] = Object.freeze([
  ...STRUCTURE_RULES,
  ...LOOP_RULES,
  ...CONDITION_RULES,
  ...REFERENCE_RULES,
  ...DELEGATION_RULES,
  ...AUTONOMY_RULES,
]);
