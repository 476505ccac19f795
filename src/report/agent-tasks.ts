/**
 * The agent-task table of a promotion decision, shared by `agentflow gate`'s text output and the
 * audit report, so that both name the columns and the missing values the same way.
 */
import type { AgentTaskSummary } from "../bpmn/index.js";

/** Column headings, in order. */
export const AGENT_TASK_COLUMNS: readonly string[] = Object.freeze([
  "agent task",
  "workflow",
  "level",
  "justified",
  "gate needed",
  "gate",
  "source",
  "content hash",
]);

/** One row of cells for a task; `hashLength` shortens the content hash (e.g. for a terminal). */
export function agentTaskCells(
  task: AgentTaskSummary,
  options: { readonly hashLength?: number } = {},
): string[] {
  const hash = task.contentHash ?? "-";
  return [
    task.elementId,
    task.ref ?? (task.source === "camunda" ? "(camunda agent)" : "(invalid ref)"),
    task.level === null ? "?" : String(task.level),
    task.justifiedLevel === null ? "?" : String(task.justifiedLevel),
    task.requirement,
    task.gate,
    task.resolution,
    options.hashLength === undefined ? hash : hash.slice(0, options.hashLength),
  ];
}
