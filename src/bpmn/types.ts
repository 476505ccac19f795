/**
 * The shapes shared by the BPMN rules, the gate evaluation and the bpmnlint plugin (SPEC 7).
 */
import type { Severity, SourceLocation } from "../model/index.js";
import type { ReportBase, RuleMeta } from "../rules/index.js";

/** What a BPMN rule is, for people and for the docs index: the kit's meta. */
export type BpmnRuleMeta = RuleMeta;

/** One finding of a BPMN rule: ids and data; the wording comes from the rule's meta. */
export interface BpmnReport extends ReportBase {
  /** The element concerned; `""` for the document as a whole. */
  readonly elementId: string;
  /** JSON Pointer into the moddle tree from `bpmn:Definitions` (`""` when unknown). */
  readonly path: string;
  /** Only for rules whose findings differ in severity by kind (BPMN_PARSE). */
  readonly severity?: Severity;
  /** A position already known (parse errors); others are looked up by element id. */
  readonly location?: SourceLocation | undefined;
}

/** What kind of reading problem a {@link ParseIssue} is; decides its severity. */
export type ParseIssueKind =
  | "dropped"
  | "unresolved-reference"
  | "unknown-attribute"
  | "encoding"
  | "undeclared-prefix"
  | "unknown-root"
  | "unreadable"
  | "too-large"
  | "other";

/** One problem met while reading BPMN XML. */
export interface ParseIssue {
  readonly kind: ParseIssueKind;
  /** The element, attribute or encoding named by the problem. */
  readonly subject: string;
  /** Moddle's nested reason, the unresolved property, or the undeclared prefix. */
  readonly reason: string;
  readonly elementId?: string;
  readonly location: SourceLocation | undefined;
}

/** Where a gate stands for one agent task: on every path, on some, or on none. */
export type GateStatus = "reached" | "bypassed" | "missing";

/** How an agent task was recognised. */
export type AgentTaskSource = "btv" | "camunda";

/**
 * Where the agent task's workflow came from: the registry, the embedded snapshot, nowhere, or
 * `derived` from a Camunda AI agent's reading (docs/bpmn.md).
 */
export type WorkflowResolution = "registry" | "snapshot" | "unresolved" | "derived";

/** How Camunda 8 agents (whose autonomy level is unknown) are governed. */
export type UnknownLevelPolicy = "gate-required" | "gate-optional" | "ignore";

/** Every {@link UnknownLevelPolicy}, in the order help texts list them. */
export const UNKNOWN_LEVEL_POLICIES: readonly UnknownLevelPolicy[] = Object.freeze([
  "gate-required",
  "gate-optional",
  "ignore",
]);

/**
 * Why `value` is no {@link UnknownLevelPolicy}, in the words the CLI and the bpmnlint plugin
 * share (`option` names the setting as the user wrote it), or `undefined` when it is one.
 *
 * @example
 * ```ts
 * import { unknownPolicyProblem } from "agentflow/bpmn";
 *
 * unknownPolicyProblem("--camunda-agents", "never");
 * // → "unknown --camunda-agents 'never' (expected gate-required, gate-optional, ignore)"
 * unknownPolicyProblem("camundaAgents", "ignore"); // → undefined
 * ```
 */
export function unknownPolicyProblem(option: string, value: unknown): string | undefined {
  if ((UNKNOWN_LEVEL_POLICIES as readonly unknown[]).includes(value)) return undefined;
  const shown = typeof value === "string" ? value : JSON.stringify(value);
  return `unknown ${option} '${shown}' (expected ${UNKNOWN_LEVEL_POLICIES.join(", ")})`;
}
