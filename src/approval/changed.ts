/**
 * Which agent tasks of a process differ from their approved decisions, for the modeller's
 * "changed since approval" marks. The modeller has the diagram, not the repository, so subject
 * names (file paths) are left out: a task is changed when what was decided for it is.
 */
import {
  DEPENDENCY_FIELDS,
  dependenciesByKey,
  fieldValue,
  sameValue,
  TASK_FIELDS,
} from "./internal.js";
import { byCodeUnits } from "./internal.js";
import type { ProcessApproval, TaskApproval } from "./types.js";

/** How one agent task differs from its approval. */
export interface TaskChange {
  readonly elementId: string;
  readonly change: "added" | "removed" | "changed";
  /** The fields that differ (`dependencies` for any dependency); empty when added or removed. */
  readonly fields: readonly string[];
}

const FIELDS = TASK_FIELDS.filter((field) => field !== "workflow");

/** Whether two tasks' dependencies differ in anything but the subjects they were read from. */
function dependenciesDiffer(was: TaskApproval, is: TaskApproval): boolean {
  const before = dependenciesByKey(was);
  const after = dependenciesByKey(is);
  if (before.size !== after.size) return true;
  for (const [key, entries] of before) {
    const now = after.get(key);
    if (now === undefined) return true;
    for (const field of DEPENDENCY_FIELDS) {
      if (field !== "name" && !sameValue(fieldValue(entries, field), fieldValue(now, field))) {
        return true;
      }
    }
    if (entries.length !== now.length) return true;
  }
  return false;
}

/**
 * The agent tasks added, removed or changed since `approved` (every current task is added when
 * there is no approved decision for the process), sorted by element id.
 *
 * @example
 * ```ts
 * import { changedTasks } from "agentflow/approval";
 * import type { TaskApproval } from "agentflow/approval";
 *
 * const review: TaskApproval = {
 *   elementId: "Review",
 *   source: "btv",
 *   ref: "agent:loan-review@1.0.0",
 *   declaredLevel: 2,
 *   justifiedLevel: 2,
 *   effectiveLevel: 2,
 *   gate: "reached",
 *   resolution: "registry",
 *   workflow: "registry/workflows/loan-review.yaml",
 *   contentHash: `sha256:${"a".repeat(64)}`,
 *   dependencies: [],
 * };
 * const approved = { name: "loan.bpmn", processIds: ["Loan"], allowed: true, agentTasks: [review] };
 * const moved = { ...review, workflow: "workflows/loan-review.yaml" };
 * changedTasks(approved, [moved]); // → []
 * changedTasks(approved, [{ ...review, gate: "bypassed", effectiveLevel: 3 }]);
 * // → [{ elementId: "Review", change: "changed", fields: ["effectiveLevel", "gate"] }]
 * changedTasks(undefined, [review]); // → [{ elementId: "Review", change: "added", fields: [] }]
 * ```
 */
export function changedTasks(
  approved: ProcessApproval | undefined,
  current: readonly TaskApproval[],
): readonly TaskChange[] {
  const out: TaskChange[] = [];
  const then = new Map((approved?.agentTasks ?? []).map((t) => [t.elementId, t]));
  const now = new Set(current.map((t) => t.elementId));
  for (const task of current) {
    const was = then.get(task.elementId);
    if (was === undefined) {
      out.push({ elementId: task.elementId, change: "added", fields: [] });
      continue;
    }
    const fields: string[] = FIELDS.filter((field) => !sameValue(was[field], task[field]));
    if (dependenciesDiffer(was, task)) fields.push("dependencies");
    if (fields.length > 0) out.push({ elementId: task.elementId, change: "changed", fields });
  }
  for (const elementId of then.keys()) {
    if (!now.has(elementId)) out.push({ elementId, change: "removed", fields: [] });
  }
  return out.sort((a, b) => byCodeUnits(a.elementId, b.elementId));
}
