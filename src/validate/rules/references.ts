import type { Rule } from "../types.js";
import { rule as PROMPT_REF_INVALID } from "./PROMPT_REF_INVALID.js";
import { rule as PROMPT_REF_ABBREVIATED } from "./PROMPT_REF_ABBREVIATED.js";
import { rule as PROMPT_UNRESOLVED } from "./PROMPT_UNRESOLVED.js";
import { rule as TOOL_REF_INVALID } from "./TOOL_REF_INVALID.js";
import { rule as TOOL_REF_ABBREVIATED } from "./TOOL_REF_ABBREVIATED.js";
import { rule as TOOL_UNRESOLVED } from "./TOOL_UNRESOLVED.js";
import { rule as TOOL_PARAMS_MISMATCH } from "./TOOL_PARAMS_MISMATCH.js";
import { rule as TOOL_EFFECT_UNGATED } from "./TOOL_EFFECT_UNGATED.js";
import { rule as TOOL_FORBIDDEN } from "./TOOL_FORBIDDEN.js";
import { rule as TEMPLATE_UNRESOLVABLE } from "./TEMPLATE_UNRESOLVABLE.js";

/** References and contracts: prompts and tools are exact, resolvable and safely bound. */
export const REFERENCE_RULES: readonly Rule[] = [
  PROMPT_REF_INVALID,
  PROMPT_REF_ABBREVIATED,
  PROMPT_UNRESOLVED,
  TOOL_REF_INVALID,
  TOOL_REF_ABBREVIATED,
  TOOL_UNRESOLVED,
  TOOL_PARAMS_MISMATCH,
  TOOL_EFFECT_UNGATED,
  TOOL_FORBIDDEN,
  TEMPLATE_UNRESOLVABLE,
];
