import type { Rule } from "../types.js";
import { rule as DELEGATE_REF_INVALID } from "./DELEGATE_REF_INVALID.js";
import { rule as DELEGATE_REF_ABBREVIATED } from "./DELEGATE_REF_ABBREVIATED.js";
import { rule as DELEGATE_UNRESOLVED } from "./DELEGATE_UNRESOLVED.js";
import { rule as DELEGATE_CONTRACT_MISMATCH } from "./DELEGATE_CONTRACT_MISMATCH.js";
import { rule as DELEGATE_CYCLE } from "./DELEGATE_CYCLE.js";
import { rule as AUTONOMY_CHAIN } from "./AUTONOMY_CHAIN.js";
import { rule as DELEGATE_INVALID } from "./DELEGATE_INVALID.js";

/**
 * Delegation: delegate agents are exact, resolvable, compatible, acyclic, no more autonomous
 * than their caller, and pass their own rules.
 */
export const DELEGATION_RULES: readonly Rule[] = [
  DELEGATE_REF_INVALID,
  DELEGATE_REF_ABBREVIATED,
  DELEGATE_UNRESOLVED,
  DELEGATE_CONTRACT_MISMATCH,
  DELEGATE_CYCLE,
  AUTONOMY_CHAIN,
  DELEGATE_INVALID,
];
