/**
 * The wording of every deviation and unverified reason, in one place: findings carry ids and
 * data, and every output (text, JSON, SARIF, the report) says them with these sentences.
 */
import type {
  Deviation,
  DeviationClass,
  FindingData,
  Unverified,
  UnverifiedReason,
} from "./deviation.js";

const str = (data: FindingData, key: string): string => {
  const value = data[key];
  return value === undefined || value === null ? "" : String(value);
};

/** What a decision left undecided by a step whose output was not read says about that step. */
function unreadNote(d: FindingData): string {
  if (d.unread === undefined) return "";
  const place = d.unreadAt === undefined ? "" : ` at ${str(d, "unreadAt")}`;
  const how =
    d.unreadWhy === undefined ? "was not recorded" : `was not read (${str(d, "unreadWhy")})`;
  return `; the output of "${str(d, "unread")}"${place} ${how}, and what an earlier step wrote there is not taken for it`;
}

const DEVIATIONS: Readonly<Record<DeviationClass, (d: FindingData) => string>> = {
  NODE_UNKNOWN: (d) =>
    `the run executes "${str(d, "node")}", which the ${str(d, "in")} does not have`,
  TOOL_UNKNOWN: (d) =>
    `the run calls tool "${str(d, "tool")}", which no tool node of the workflow uses`,
  TRANSITION_UNKNOWN: (d) =>
    d.delegate === undefined
      ? `the run goes from ${str(d, "from")} to ${str(d, "to")}, a transition the graph does not have (it goes to ${str(d, "expected")})`
      : `${str(d, "from")} delegated to agent ${str(d, "to")} (run ${str(d, "delegate")}), and no delegate edge of the workflow permits it${d.anyNode === true ? "" : " from there"} (the delegates it permits${d.anyNode === true ? "" : " there"}: ${str(d, "expected")})`,
  ROUTE_CONTRADICTS: (d) =>
    `decision "${str(d, "decision")}" took ${str(d, "recorded")} but its condition on the recorded output chooses ${str(d, "expected")}${d.condition === undefined ? "" : ` (${str(d, "condition")})`}`,
  RETRY_EXCEEDED: (d) =>
    `${str(d, "what")} "${str(d, "node")}" retried ${str(d, "count")} times; the workflow allows ${str(d, "max")}`,
  BUDGET_EXCEEDED: (d) =>
    `the run used ${str(d, "used")} against ${str(d, "limit")} ${str(d, "max")}`,
  TOOL_INPUT_INVALID: (d) =>
    `tool "${str(d, "node")}" was called with arguments its contract ${str(d, "contract")} refuses: ${str(d, "problem")}`,
  GATE_NOT_PASSED: (d) =>
    `tool "${str(d, "node")}" (${str(d, "effect")}, authorization ${str(d, "authorization")}) ran in process instance ${str(d, "instance")}, which did not pass a gate of task "${str(d, "task")}" (${str(d, "gates")})`,
  GATE_MISSING: (d) =>
    `process instance ${str(d, "instance")} ended without passing a gate required after agent task "${str(d, "task")}" (${str(d, "gates")})`,
  IDENTITY_MISMATCH: (d) =>
    `"${str(d, "node")}" ran with ${str(d, "field")} ${str(d, "recorded")}; approved: ${str(d, "approved")}`,
  VERSION_UNAPPROVED: (d) =>
    d.element === undefined
      ? `the run is of ${str(d, "kind")} ${str(d, "name")}, which was never approved${d.approved === undefined ? "" : ` (approved: ${str(d, "approved")})`}`
      : `the instance is of a version of process ${str(d, "name")} that was never approved: its element ${str(d, "element")} ran as ${str(d, "recorded")}, approved as ${str(d, "approved")}`,
};

const REASONS: Readonly<Record<UnverifiedReason, (d: FindingData) => string>> = {
  WORKFLOW_UNNAMED: (d) =>
    `the run names no workflow and ${str(d, "count")} are approved: name one with --workflow`,
  WORKFLOW_AMBIGUOUS: (d) =>
    `the run fits ${str(d, "count")} approved agents (${str(d, "candidates")}) and its records do not tell which one it ran${d.hint === undefined ? "" : ` (${str(d, "hint")})`}, so it is checked against none`,
  EVENT_UNMAPPED: (d) => `a record of the run could not be read: ${str(d, "reason")}`,
  ROUTE_UNDECIDABLE: (d) =>
    `decision "${str(d, "decision")}" could not be evaluated on the recorded output: ${str(d, "reason")}${unreadNote(d)}`,
  PROMPT_UNKNOWN: (d) =>
    d.modelled === true
      ? `"${str(d, "node")}" recorded a system prompt whose digest differs from the prompt as modelled, which may be an expression evaluated at run time, so it cannot be compared`
      : `"${str(d, "node")}" recorded a prompt digest, but the text of ${str(d, "promptRef")} was not given, so it cannot be compared`,
  GATE_UNOBSERVED: (d) => `tool "${str(d, "node")}" needs a gate, and ${str(d, "why")}`,
  CONTRACT_UNRESOLVED: (d) =>
    `tool "${str(d, "node")}" uses ${str(d, "tool")}, whose contract was not resolved, so its call cannot be checked`,
  ARGUMENTS_UNRECORDED: (d) =>
    `tool "${str(d, "node")}" was called with arguments the run did not record, so its contract ${str(d, "contract")} cannot be checked`,
  MODEL_UNRECORDED: (d) =>
    `"${str(d, "node")}" called a model the run did not record, so whether it is the approved ${str(d, "approved")} cannot be checked`,
  MODEL_UNSTATED: (d) =>
    `"${str(d, "node")}" called ${str(d, "recorded")}, and the approved workflow does not say which models it may call (it stands for a step whose content the imported document does not show, on ${str(d, "tool")}), so whether that model was approved cannot be checked`,
  USAGE_UNRECORDED: (d) =>
    d.partial === true
      ? `"${str(d, "node")}" recorded only part of the tokens it used (input or output, and no total), so whether the run is within ${str(d, "limit")} cannot be told`
      : `"${str(d, "node")}" called a model and the run did not record ${d.quantity === "cost" ? "what it cost" : "the tokens it used"}, so whether the run is within ${str(d, "limit")} cannot be told`,
  STEPS_OVERLAP: (d) =>
    `"${str(d, "node")}" began ${str(d, "overlapMs")} ms before "${str(d, "previous")}", the step it follows on the path, had ended, so it cannot have used that step's output: whether the run followed the graph cannot be told`,
  COST_UNLIMITED: (d) =>
    `the run spent ${str(d, "used")} ${str(d, "currency")}, and the budget limits cost in ${str(d, "limited")} but has no budget.maxCost${str(d, "currency")}, so whether it is within budget cannot be told`,
  RUN_UNFINISHED: (d) =>
    d.instance === undefined
      ? "the records end before the run does"
      : `the records of process instance ${str(d, "instance")} end before it does, after agent task "${str(d, "task")}" began and before it passed a gate the task requires (${str(d, "gates")})`,
  START_UNRECORDED: (d) =>
    d.seen === true
      ? `the records of process instance ${str(d, "instance")} show agent task "${str(d, "task")}" ran but not when it began (no activation record before its ${str(d, "first")}), and no gate the task requires (${str(d, "gates")}) completed after that, so whether one was passed after it began cannot be seen`
      : `the records of process instance ${str(d, "instance")} begin after it did (no activation of the process itself) and show neither agent task "${str(d, "task")}" nor a gate it requires (${str(d, "gates")}), so whether the task ran before them and passed a gate cannot be seen`,
};

/**
 * The sentence for a deviation.
 *
 * @example
 * ```ts
 * import { deviationMessage } from "agentflow/conform";
 *
 * deviationMessage({ class: "TOOL_UNKNOWN", data: { tool: "shell" } });
 * // → 'the run calls tool "shell", which no tool node of the workflow uses'
 * ```
 */
export function deviationMessage(deviation: Pick<Deviation, "class" | "data">): string {
  return DEVIATIONS[deviation.class](deviation.data);
}

/**
 * The sentence for an unverified reason.
 *
 * @example
 * ```ts
 * import { unverifiedMessage } from "agentflow/conform";
 *
 * unverifiedMessage({ reason: "RUN_UNFINISHED", data: {} }); // → "the records end before the run does"
 * ```
 */
export function unverifiedMessage(unverified: Pick<Unverified, "reason" | "data">): string {
  return REASONS[unverified.reason](unverified.data);
}
