/**
 * The codes of agentflow's built-in rules as plain data, in run order. The bpmn-js module checks
 * its `rules` and `workflowValidation.rules` options against them when the modeller is built; the
 * rule registries (`BPMN_RULES`, `RULES`) would bring every rule's check, and what the checks
 * import, into the page before the diagram shows. `test/bpmn-js/config.test.ts` holds each list
 * equal to its registry: a rule added to a registry is added here too.
 */

/** The codes of `BPMN_RULES` (agentflow/bpmn), in its order. */
export const BPMN_RULE_CODES: readonly string[] = Object.freeze([
  "BPMN_PARSE",
  "SEQUENCE_FLOW_CROSSES_SCOPE",
  "BTV_NAMESPACE_MISMATCH",
  "AGENT_REF_INVALID",
  "AGENT_AUTONOMY_INVALID",
  "AGENT_REF_CONFLICT",
  "AGENT_UNRESOLVED",
  "AGENT_LOOKUP_INVALID",
  "AGENT_DEPENDENCY_UNRESOLVED",
  "AGENT_AUTONOMY_MISMATCH",
  "AGENT_WORKFLOW_INVALID",
  "TOOL_EFFECT_INVALID",
  "CAMUNDA_TOOL_EFFECT_UNMAPPED",
  "CAMUNDA_AGENT_UNBOUNDED",
  "AGENT_GATE_UNREACHABLE",
  "AGENT_GATE_BYPASS",
  "AGENT_GATE_OPTIONAL",
  "AGENT_SELF_MODIFYING",
  "TOOL_EFFECT_NEEDS_GATE",
]);

/** The codes of the built-in workflow rules (`RULES` of agentflow/validate), in its order. */
export const WORKFLOW_RULE_CODES: readonly string[] = Object.freeze([
  "DUPLICATE_NODE_ID",
  "NODE_ID_RESERVED",
  "NODE_ID_INVISIBLE_CHARACTER",
  "EMPTY_INPUT_SCHEMA",
  "EMPTY_OUTPUT_SCHEMA",
  "SCHEMA_TYPE_INVALID",
  "EDGE_ENDPOINT_MISSING",
  "DECISION_ROUTE_MISSING",
  "NO_ENTRY_NODE",
  "NODE_UNREACHABLE",
  "NO_PATH_TO_END",
  "RETRY_WITHOUT_MAX",
  "CYCLE_WITHOUT_STOP",
  "DECISION_IMPLICIT_METRIC",
  "LLM_NOT_STRUCTURED",
  "DECISION_UNSTRUCTURED",
  "CONDITION_SYNTAX",
  "CONDITION_NOT_SIMULABLE",
  "CONDITION_JS_OPERATOR",
  "CONDITION_UNKNOWN_FIELD",
  "PROMPT_REF_INVALID",
  "PROMPT_REF_ABBREVIATED",
  "PROMPT_UNRESOLVED",
  "TOOL_REF_INVALID",
  "TOOL_REF_ABBREVIATED",
  "TOOL_UNRESOLVED",
  "TOOL_PARAMS_MISMATCH",
  "TOOL_EFFECT_UNGATED",
  "TOOL_FORBIDDEN",
  "TEMPLATE_UNRESOLVABLE",
  "DELEGATE_REF_INVALID",
  "DELEGATE_REF_ABBREVIATED",
  "DELEGATE_UNRESOLVED",
  "DELEGATE_CONTRACT_MISMATCH",
  "DELEGATE_CYCLE",
  "AUTONOMY_CHAIN",
  "DELEGATE_INVALID",
  "BUDGET_MISSING",
  "AUTONOMY_INCOHERENT",
  "AUTONOMY_SELF_MODIFYING",
]);
