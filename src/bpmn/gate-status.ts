/**
 * One agent task's gate status, the one rule both the audit report's process picture and the
 * modeller's badges show (docs/bpmn.md, "Gate status of an agent task").
 */
import type { AgentTaskSummary } from "./evaluate.js";

/**
 * Where the gate stands for one agent task: `bypassed` and `missing` are a required gate's
 * problems; `reached` a gate on every path; `unresolved` a task whose workflow could not be read
 * and whose gate is not reached, so what it needs rests on a level nothing has checked;
 * `optional` a level-4 task whose gate is not on every path; `not-needed` a level-5 task (or one
 * the policy ignores) with no gate on every path.
 */
export type AgentGateStatus =
  "reached" | "missing" | "bypassed" | "optional" | "not-needed" | "unresolved";

/** Every {@link AgentGateStatus}, worst first. */
export const AGENT_GATE_STATUSES: readonly AgentGateStatus[] = Object.freeze([
  "bypassed",
  "missing",
  "unresolved",
  "optional",
  "reached",
  "not-needed",
]);

/**
 * The gate status of `task`. A required gate the task does not get comes first: it blocks
 * promotion whatever the workflow says. A gate on every path comes next: that is a fact of the
 * process, true at any level and whether or not the workflow was read. Only then does an
 * unresolved workflow matter, since what is left (optional, not needed) rests on the level.
 *
 * @example
 * ```ts
 * import { agentGateStatus } from "agentflow/bpmn";
 *
 * agentGateStatus({ requirement: "required", gate: "bypassed", resolution: "registry" }); // → "bypassed"
 * agentGateStatus({ requirement: "none", gate: "reached", resolution: "registry" }); // → "reached"
 * agentGateStatus({ requirement: "optional", gate: "missing", resolution: "unresolved" }); // → "unresolved"
 * ```
 */
export function agentGateStatus(
  task: Pick<AgentTaskSummary, "requirement" | "gate" | "resolution">,
): AgentGateStatus {
  if (task.requirement === "required" && task.gate !== "reached") return task.gate;
  if (task.gate === "reached") return "reached";
  if (task.resolution === "unresolved") return "unresolved";
  return task.requirement === "none" ? "not-needed" : "optional";
}
