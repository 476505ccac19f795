import type { Rule } from "../types.js";
import { rule as CONDITION_SYNTAX } from "./CONDITION_SYNTAX.js";
import { rule as CONDITION_NOT_SIMULABLE } from "./CONDITION_NOT_SIMULABLE.js";
import { rule as CONDITION_JS_OPERATOR } from "./CONDITION_JS_OPERATOR.js";
import { rule as CONDITION_UNKNOWN_FIELD } from "./CONDITION_UNKNOWN_FIELD.js";

/** Conditions: FEEL that parses, can be simulated, and reads fields that exist. */
export const CONDITION_RULES: readonly Rule[] = [
  CONDITION_SYNTAX,
  CONDITION_NOT_SIMULABLE,
  CONDITION_JS_OPERATOR,
  CONDITION_UNKNOWN_FIELD,
];
