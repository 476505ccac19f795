import type { Rule } from "../types.js";
import { rule as BUDGET_MISSING } from "./BUDGET_MISSING.js";
import { rule as AUTONOMY_INCOHERENT } from "./AUTONOMY_INCOHERENT.js";
import { rule as AUTONOMY_SELF_MODIFYING } from "./AUTONOMY_SELF_MODIFYING.js";

/** Budget and autonomy: the declared level matches what the graph justifies. */
export const AUTONOMY_RULES: readonly Rule[] = [
  BUDGET_MISSING,
  AUTONOMY_INCOHERENT,
  AUTONOMY_SELF_MODIFYING,
];
