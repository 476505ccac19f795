/**
 * The BPMN rule registry: an explicit list in run order (reading, then the declaration, the
 * resolved workflow, and the gates).
 */
import type { BpmnRule } from "../rule.js";
import { rule as AGENT_AUTONOMY_INVALID } from "./AGENT_AUTONOMY_INVALID.js";
import { rule as AGENT_AUTONOMY_MISMATCH } from "./AGENT_AUTONOMY_MISMATCH.js";
import { rule as AGENT_DEPENDENCY_UNRESOLVED } from "./AGENT_DEPENDENCY_UNRESOLVED.js";
import { rule as AGENT_GATE_BYPASS } from "./AGENT_GATE_BYPASS.js";
import { rule as AGENT_GATE_OPTIONAL } from "./AGENT_GATE_OPTIONAL.js";
import { rule as AGENT_GATE_UNREACHABLE } from "./AGENT_GATE_UNREACHABLE.js";
import { rule as AGENT_REF_CONFLICT } from "./AGENT_REF_CONFLICT.js";
import { rule as AGENT_LOOKUP_INVALID } from "./AGENT_LOOKUP_INVALID.js";
import { rule as AGENT_REF_INVALID } from "./AGENT_REF_INVALID.js";
import { rule as AGENT_SELF_MODIFYING } from "./AGENT_SELF_MODIFYING.js";
import { rule as AGENT_UNRESOLVED } from "./AGENT_UNRESOLVED.js";
import { rule as AGENT_WORKFLOW_INVALID } from "./AGENT_WORKFLOW_INVALID.js";
import { rule as BPMN_PARSE } from "./BPMN_PARSE.js";
import { rule as BTV_NAMESPACE_MISMATCH } from "./BTV_NAMESPACE_MISMATCH.js";
import { rule as CAMUNDA_AGENT_UNBOUNDED } from "./CAMUNDA_AGENT_UNBOUNDED.js";
import { rule as CAMUNDA_TOOL_EFFECT_UNMAPPED } from "./CAMUNDA_TOOL_EFFECT_UNMAPPED.js";
import { rule as SEQUENCE_FLOW_CROSSES_SCOPE } from "./SEQUENCE_FLOW_CROSSES_SCOPE.js";
import { rule as TOOL_EFFECT_INVALID } from "./TOOL_EFFECT_INVALID.js";
import { rule as TOOL_EFFECT_NEEDS_GATE } from "./TOOL_EFFECT_NEEDS_GATE.js";

/** Every built-in BPMN rule, in run order. */
export const BPMN_RULES: readonly BpmnRule[] = Object.freeze([
  BPMN_PARSE,
  SEQUENCE_FLOW_CROSSES_SCOPE,
  BTV_NAMESPACE_MISMATCH,
  AGENT_REF_INVALID,
  AGENT_AUTONOMY_INVALID,
  AGENT_REF_CONFLICT,
  AGENT_UNRESOLVED,
  AGENT_LOOKUP_INVALID,
  AGENT_DEPENDENCY_UNRESOLVED,
  AGENT_AUTONOMY_MISMATCH,
  AGENT_WORKFLOW_INVALID,
  TOOL_EFFECT_INVALID,
  CAMUNDA_TOOL_EFFECT_UNMAPPED,
  CAMUNDA_AGENT_UNBOUNDED,
  AGENT_GATE_UNREACHABLE,
  AGENT_GATE_BYPASS,
  AGENT_GATE_OPTIONAL,
  AGENT_SELF_MODIFYING,
  TOOL_EFFECT_NEEDS_GATE,
]);
