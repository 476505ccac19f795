/**
 * Small helpers the BPMN rules share for their report data: bounded previews of user text (an
 * attribute may be megabytes long) and paths into an agent task's declaration.
 */
import type { AgentTaskFacts } from "./analysis.js";

const PREVIEW_LENGTH = 80;

/** The text itself when short, else its start and its length, so messages stay readable. */
export function preview(text: string): string {
  if (text.length <= PREVIEW_LENGTH) return text;
  return `${text.slice(0, PREVIEW_LENGTH)}… (${text.length} characters)`;
}

/** The level for messages: the number, or `unknown` for a Camunda agent or an unreadable one. */
export function levelLabel(task: AgentTaskFacts): number | "unknown" {
  return task.level ?? "unknown";
}

/** JSON Pointer of an attribute of the task's declaring extension element. */
export function declarationPath(task: AgentTaskFacts, attribute?: string): string {
  const base = task.node.path + task.declaration.path;
  return attribute === undefined ? base : `${base}/${attribute}`;
}

/** The canonical ref of a task (a derived Camunda agent's own), or its raw text for messages. */
export function refLabel(task: AgentTaskFacts): string {
  if (task.ref?.ok === true) return task.ref.canonical;
  const derived = task.resolution.derived;
  if (derived !== undefined) return derived.workflowRef;
  return preview(task.declaration.ref ?? "");
}
