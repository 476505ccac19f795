/**
 * What each rule checks, worded as the check rather than the fault, for the "checks" column of
 * the report's rule tables: beside "✔ passed", a rule's description ("a path reaches
 * an end without passing a gate") read as if the fault were there. The descriptions stay as the
 * rules' own, for the CI formats and the docs, which name faults.
 */

/** Per rule code, the check it makes. */
export const RULE_CHECKS: Readonly<Record<string, string>> = {
  BPMN_PARSE: "bpmn-moddle reads the whole document (nothing would be lost on rewrite)",
  SEQUENCE_FLOW_CROSSES_SCOPE:
    "Every sequence flow stays in its process and does not cross a sub-process's border",
  BTV_NAMESPACE_MISMATCH:
    "btv declarations use the btv namespace, defined names, and sit on the flow nodes they declare",
  AGENT_REF_INVALID: "Every agent task has an agentWorkflowRef that is a valid id@version ref",
  AGENT_AUTONOMY_INVALID: "Every agent task's autonomyLevel is an integer 0..5",
  AGENT_REF_CONFLICT:
    "Each agent workflow, and each tool or delegate it uses, has one document in the registry",
  AGENT_UNRESOLVED: "The workflow registry knows every agent task's ref",
  AGENT_LOOKUP_INVALID:
    "The registry answers every workflow, tool and delegate lookup with that document, valid",
  AGENT_DEPENDENCY_UNRESOLVED:
    "Every tool contract and delegate workflow an agent uses can be resolved",
  AGENT_AUTONOMY_MISMATCH: "Every agent task's autonomyLevel is its workflow's declared level",
  AGENT_WORKFLOW_INVALID: "Every agent task's resolved workflow validates without errors",
  TOOL_EFFECT_INVALID: "Every btv:toolEffect is one of the six tool effects",
  CAMUNDA_TOOL_EFFECT_UNMAPPED:
    "Every tool of a Camunda AI agent has a known effect (btv:toolEffect, mapping or default)",
  CAMUNDA_AGENT_UNBOUNDED: "Every Camunda AI agent with tools states a maximum of model calls",
  AGENT_GATE_UNREACHABLE: "Every agent task whose level requires a gate reaches one downstream",
  AGENT_GATE_BYPASS:
    "Every path from an agent task that requires a gate passes a gate before it ends",
  AGENT_GATE_OPTIONAL: "Every level-4 agent task has a gate downstream",
  AGENT_SELF_MODIFYING:
    "No agent task runs at level 5, where no gate in the process contains the agent",
  TOOL_EFFECT_NEEDS_GATE:
    "After an agent calls a tool whose effect needs a gate (or is unknown), every path passes a gate",
  DUPLICATE_NODE_ID: "Node ids are unique",
  NODE_ID_RESERVED: 'No node id is a route keyword ("end")',
  NODE_ID_INVISIBLE_CHARACTER:
    "Node ids hold only visible characters (no control, bidi or zero-width character)",
  EMPTY_INPUT_SCHEMA: "inputSchema declares at least one field",
  EMPTY_OUTPUT_SCHEMA: "outputSchema declares at least one field",
  SCHEMA_TYPE_INVALID: "Every field type parses, is known, not recursive, and a valid schema",
  EDGE_ENDPOINT_MISSING: "Every edge's from and to are node ids",
  DECISION_ROUTE_MISSING: 'Every decision route\'s next is a node id or "end"',
  NO_ENTRY_NODE: "The workflow has a node to run first",
  NODE_UNREACHABLE: "The entry reaches every node",
  NO_PATH_TO_END: "From every reachable node an exit can be reached (no trap)",
  RETRY_WITHOUT_MAX: "Every loop passes a decision route with maxRetries",
  CYCLE_WITHOUT_STOP: "Every loop has a decision with a structured condition and a route out",
  DECISION_IMPLICIT_METRIC: "Decisions do not route on a self-reported metric such as confidence",
  LLM_NOT_STRUCTURED: "An llm that feeds a decision on structured output has structuredOutput",
  DECISION_UNSTRUCTURED: "Decisions route on structured fields, not a natural-language judgement",
  CONDITION_SYNTAX: "Every FEEL condition parses",
  CONDITION_NOT_SIMULABLE: "Every condition is in the simulable subset of FEEL (S-FEEL)",
  CONDITION_JS_OPERATOR: "Conditions are written in FEEL, not JavaScript operators",
  CONDITION_UNKNOWN_FIELD: "Every output field a condition reads is declared by an upstream node",
  PROMPT_REF_INVALID: "Every promptRef is a valid <id>@version reference",
  PROMPT_REF_ABBREVIATED: "Every promptRef has a full x.y.z version",
  PROMPT_UNRESOLVED: "The prompt resolver knows every prompt",
  TOOL_REF_INVALID: "Every usesTool is a valid tool:<name>@version reference",
  TOOL_REF_ABBREVIATED: "Every usesTool has a full x.y.z version",
  TOOL_UNRESOLVED: "The tool resolver knows every tool contract",
  TOOL_PARAMS_MISMATCH: "Tool params match the contract's input shape",
  TOOL_EFFECT_UNGATED: "Every irreversible or committing tool's contract requires a gate",
  TOOL_FORBIDDEN: "No tool called is one whose contract forbids agents to call it",
  TEMPLATE_UNRESOLVABLE: "Every tool param template names a node that runs before it",
  DELEGATE_REF_INVALID: "Every delegate edge's to is a valid id@version agent reference",
  DELEGATE_REF_ABBREVIATED: "Every delegate edge's to has a full x.y.z version",
  DELEGATE_UNRESOLVED:
    "Every delegate agent resolves, so its contract, autonomy and cycles are checked",
  DELEGATE_CONTRACT_MISMATCH:
    "The delegating node's declared output (else the outputSchema) covers the delegate's inputs",
  DELEGATE_CYCLE: "Delegation never leads back to a workflow already on the chain",
  AUTONOMY_CHAIN: "No resolved delegate declares a higher autonomyLevel than this workflow",
  DELEGATE_INVALID: "Every resolved delegate, direct or transitive, passes its own workflow rules",
  BUDGET_MISSING: "Autonomy 2 or higher has a budget",
  AUTONOMY_INCOHERENT: "The declared autonomyLevel is at least what the graph justifies",
  AUTONOMY_SELF_MODIFYING: "The workflow is below level 5, where no structural gate exists",
};

/**
 * The check a rule makes, for a rule table; a rule this table does not know (a plugin's) is
 * shown as "Looks for: " and its description, which names the fault it looks for.
 */
export function ruleCheck(code: string, description: string): string {
  return Object.hasOwn(RULE_CHECKS, code)
    ? (RULE_CHECKS[code] ?? description)
    : `Looks for: ${description}`;
}
