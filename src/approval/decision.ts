/**
 * A gate decision as an approval records it: only what decides a promotion (levels, gate,
 * resolution, content hashes, what each lookup resolved to), named by subjects rather than by
 * paths of this machine, and in one order whatever order the gate found things in.
 */
import type { AgentTaskSummary, Dependency } from "../bpmn/index.js";
import { byCodeUnits } from "./internal.js";
import type { DependencyApproval, ProcessApproval, TaskApproval } from "./types.js";

/**
 * The subject a ref was read from, or `null` when no file backs it (a failed lookup, a snapshot,
 * a tool read from a Camunda agent).
 */
export type SubjectNameOf = (ref: string, kind: "workflow" | "tool" | "delegate") => string | null;

function dependencyApproval(dependency: Dependency, nameOf: SubjectNameOf): DependencyApproval {
  const failed = dependency.contentHash === undefined || dependency.failure !== undefined;
  return {
    kind: dependency.kind,
    ref: dependency.ref,
    name: failed ? null : nameOf(dependency.ref, dependency.kind),
    contentHash: dependency.contentHash ?? null,
    failure: dependency.failure?.reason ?? null,
  };
}

const compareNullable = (a: string | null, b: string | null): number =>
  a === b ? 0 : a === null ? -1 : b === null ? 1 : byCodeUnits(a, b);

function compareDependencies(a: DependencyApproval, b: DependencyApproval): number {
  return (
    byCodeUnits(a.kind, b.kind) ||
    byCodeUnits(a.ref, b.ref) ||
    compareNullable(a.name, b.name) ||
    compareNullable(a.contentHash, b.contentHash) ||
    compareNullable(a.failure, b.failure)
  );
}

/**
 * One agent task's decision: the declared level (the task's own, else its workflow's), the
 * justified one, and the stricter of the two the gate was judged on; its dependencies once each
 * (a tool called from three nodes is one dependency), sorted by kind, ref, then what they
 * resolved to.
 *
 * @example
 * ```ts
 * import { taskApproval } from "agentflow/approval";
 *
 * const files: Record<string, string> = {
 *   "agent:loan-review@1.0.0": "registry/workflows/loan-review.yaml",
 *   "tool:pay@1.0.0": "registry/tools/pay.json",
 * };
 * const hash = `sha256:${"a".repeat(64)}`;
 * const task = taskApproval(
 *   {
 *     elementId: "Review",
 *     source: "btv",
 *     ref: "agent:loan-review@1.0.0",
 *     level: 2,
 *     justifiedLevel: 3,
 *     resolution: "registry",
 *     contentHash: hash,
 *     requirement: "required",
 *     gate: "reached",
 *     dependencies: [
 *       { kind: "tool", ref: "tool:pay@1.0.0", nodeId: "pay", contentHash: hash },
 *       { kind: "tool", ref: "tool:pay@1.0.0", nodeId: "refund", contentHash: hash },
 *     ],
 *   },
 *   (ref) => files[ref] ?? null,
 * );
 * task.effectiveLevel; // → 3
 * task.workflow; // → "registry/workflows/loan-review.yaml"
 * task.dependencies;
 * // → [{ kind: "tool", ref: "tool:pay@1.0.0", name: "registry/tools/pay.json", contentHash: hash, failure: null }]
 * ```
 */
export function taskApproval(task: AgentTaskSummary, nameOf: SubjectNameOf): TaskApproval {
  const levels = [task.level, task.justifiedLevel].filter((l): l is number => l !== null);
  const dependencies = task.dependencies
    .map((d) => dependencyApproval(d, nameOf))
    .sort(compareDependencies)
    .filter((d, i, all) => i === 0 || compareDependencies(all[i - 1] ?? d, d) !== 0);
  return {
    elementId: task.elementId,
    source: task.source,
    ref: task.ref,
    declaredLevel: task.level,
    justifiedLevel: task.justifiedLevel,
    effectiveLevel: levels.length === 0 ? null : Math.max(...levels),
    gate: task.gate,
    resolution: task.resolution,
    workflow:
      task.ref !== null && task.resolution === "registry" ? nameOf(task.ref, "workflow") : null,
    contentHash: task.contentHash,
    dependencies,
  };
}

/**
 * One process's decision, its agent tasks sorted by element id and its process ids sorted.
 *
 * @example
 * ```ts
 * import { processApproval } from "agentflow/approval";
 *
 * const task = (elementId: string) => ({
 *   elementId,
 *   source: "camunda" as const,
 *   ref: null,
 *   level: null,
 *   justifiedLevel: null,
 *   resolution: "derived" as const,
 *   contentHash: null,
 *   requirement: "required" as const,
 *   gate: "reached" as const,
 *   dependencies: [],
 * });
 * const process = processApproval(
 *   "processes/loan.bpmn",
 *   ["Loan"],
 *   { allowed: true, agentTasks: [task("Score"), task("Draft")] },
 *   () => null,
 * );
 * process.agentTasks.map((t) => t.elementId); // → ["Draft", "Score"]
 * process.agentTasks[0]?.effectiveLevel; // → null
 * ```
 */
export function processApproval(
  name: string,
  processIds: readonly string[],
  decision: { readonly allowed: boolean; readonly agentTasks: readonly AgentTaskSummary[] },
  nameOf: SubjectNameOf,
): ProcessApproval {
  return {
    name,
    processIds: [...new Set(processIds)].sort(byCodeUnits),
    allowed: decision.allowed,
    agentTasks: decision.agentTasks
      .map((task) => taskApproval(task, nameOf))
      .sort((a, b) => byCodeUnits(a.elementId, b.elementId)),
  };
}
