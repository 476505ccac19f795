/**
 * What changed between an approved statement and the one the same inputs give now: each input
 * added, removed or changed, the version and rule set that judged, and each decision down to a
 * task's field or a dependency. One reason per difference, in a stable order. The inputs' order
 * (`predicate.inputs.paths`) and the approver's claim are not compared: naming the same files in
 * another order, or approving at another time, changes nothing that was reviewed.
 */
import {
  DEPENDENCY_FIELDS,
  dependenciesByKey,
  fieldValue,
  sameValue,
  TASK_FIELDS,
} from "./internal.js";
import type { ApprovalReason } from "./reason-data.js";
import { approvalReason, sortReasons } from "./reasons.js";
import type { ApprovalStatement, ProcessApproval, Subject, TaskApproval } from "./types.js";

const kindOf = (subject: Subject) => subject.annotations.agentflowKind;

/** The refs the decisions resolve to the subject `name`, each once, sorted. */
function refsTo(statement: ApprovalStatement, name: string): string[] {
  const refs = new Set<string>();
  for (const process of statement.predicate.processes) {
    for (const task of process.agentTasks) {
      if (task.workflow === name && task.ref !== null) refs.add(task.ref);
      for (const d of task.dependencies) if (d.name === name) refs.add(d.ref);
    }
  }
  return [...refs].sort();
}

function subjectChanges(
  approved: ApprovalStatement,
  current: ApprovalStatement,
  present: ReadonlyMap<string, string>,
): ApprovalReason[] {
  const out: ApprovalReason[] = [];
  const now = new Map(current.subject.map((s) => [s.name, s]));
  const then = new Set(approved.subject.map((s) => s.name));
  for (const was of approved.subject) {
    const is = now.get(was.name);
    if (is === undefined) {
      const data = { name: was.name, kind: kindOf(was), sha256: was.digest.sha256 };
      const there = present.get(was.name);
      out.push(
        there === undefined
          ? approvalReason("SUBJECT_REMOVED", data)
          : approvalReason("SUBJECT_UNUSED", { ...data, current: there }),
      );
      continue;
    }
    if (is.digest.sha256 !== was.digest.sha256) {
      out.push(
        approvalReason("SUBJECT_CHANGED", {
          name: was.name,
          field: "sha256",
          approved: was.digest.sha256,
          current: is.digest.sha256,
        }),
      );
    }
    if (kindOf(is) !== kindOf(was)) {
      out.push(
        approvalReason("SUBJECT_CHANGED", {
          name: was.name,
          field: "kind",
          approved: kindOf(was),
          current: kindOf(is),
        }),
      );
    }
  }
  for (const is of current.subject) {
    if (then.has(is.name)) continue;
    out.push(
      approvalReason("SUBJECT_ADDED", {
        name: is.name,
        kind: kindOf(is),
        sha256: is.digest.sha256,
        refs: refsTo(current, is.name),
      }),
    );
  }
  return out;
}

function taskChanges(process: string, was: TaskApproval, is: TaskApproval): ApprovalReason[] {
  const out: ApprovalReason[] = [];
  const elementId = was.elementId;
  for (const field of TASK_FIELDS) {
    if (!sameValue(was[field], is[field])) {
      out.push(
        approvalReason("DECISION_CHANGED", {
          process,
          change: "task-field",
          elementId,
          field,
          approved: was[field],
          current: is[field],
        }),
      );
    }
  }
  const before = dependenciesByKey(was);
  const after = dependenciesByKey(is);
  for (const [dependency, entries] of before) {
    const now = after.get(dependency);
    if (now === undefined) {
      out.push(
        approvalReason("DECISION_CHANGED", {
          process,
          change: "dependency-removed",
          elementId,
          dependency,
        }),
      );
      continue;
    }
    for (const field of DEPENDENCY_FIELDS) {
      const approvedValue = fieldValue(entries, field);
      const currentValue = fieldValue(now, field);
      if (!sameValue(approvedValue, currentValue)) {
        out.push(
          approvalReason("DECISION_CHANGED", {
            process,
            change: "dependency-field",
            elementId,
            dependency,
            field,
            approved: approvedValue,
            current: currentValue,
          }),
        );
      }
    }
  }
  for (const dependency of after.keys()) {
    if (!before.has(dependency)) {
      out.push(
        approvalReason("DECISION_CHANGED", {
          process,
          change: "dependency-added",
          elementId,
          dependency,
        }),
      );
    }
  }
  return out;
}

function processChanges(was: ProcessApproval, is: ProcessApproval): ApprovalReason[] {
  const process = was.name;
  const out: ApprovalReason[] = [];
  for (const field of ["allowed", "processIds"] as const) {
    if (!sameValue(was[field], is[field])) {
      out.push(
        approvalReason("DECISION_CHANGED", {
          process,
          change: "process-field",
          field,
          approved: was[field],
          current: is[field],
        }),
      );
    }
  }
  const now = new Map(is.agentTasks.map((t) => [t.elementId, t]));
  const then = new Set(was.agentTasks.map((t) => t.elementId));
  for (const task of was.agentTasks) {
    const current = now.get(task.elementId);
    if (current === undefined) {
      out.push(
        approvalReason("DECISION_CHANGED", {
          process,
          change: "task-removed",
          elementId: task.elementId,
        }),
      );
    } else {
      out.push(...taskChanges(process, task, current));
    }
  }
  for (const task of is.agentTasks) {
    if (!then.has(task.elementId)) {
      out.push(
        approvalReason("DECISION_CHANGED", {
          process,
          change: "task-added",
          elementId: task.elementId,
        }),
      );
    }
  }
  return out;
}

/** Decisions added or removed for a process file that is still (or already) an input of both. */
function decisionChanges(
  approved: ApprovalStatement,
  current: ApprovalStatement,
): ApprovalReason[] {
  const out: ApprovalReason[] = [];
  const before = new Set(approved.subject.map((s) => s.name));
  const after = new Set(current.subject.map((s) => s.name));
  const inBoth = (name: string) => before.has(name) && after.has(name);
  const now = new Map(current.predicate.processes.map((p) => [p.name, p]));
  const then = new Set(approved.predicate.processes.map((p) => p.name));
  for (const was of approved.predicate.processes) {
    const is = now.get(was.name);
    if (is !== undefined) out.push(...processChanges(was, is));
    else if (inBoth(was.name)) {
      out.push(
        approvalReason("DECISION_CHANGED", { process: was.name, change: "process-removed" }),
      );
    }
  }
  for (const is of current.predicate.processes) {
    if (!then.has(is.name) && inBoth(is.name)) {
      out.push(approvalReason("DECISION_CHANGED", { process: is.name, change: "process-added" }));
    }
  }
  return out;
}

/**
 * Every difference between the approved statement and the current one, one reason each, sorted
 * by subject then code. Empty when the approval still describes the inputs and decisions.
 * `present` tells an approved subject `current` leaves out from one that is gone: the files still
 * there, by name, with the hex sha256 of their bytes now; such a subject is no longer an input
 * (`SUBJECT_UNUSED`), not removed (`SUBJECT_REMOVED`).
 *
 * @example
 * ```ts
 * import { compareStatements, createStatement } from "agentflow/approval";
 * import type { StatementInput } from "agentflow/approval";
 * import { AGENTFLOW_VERSION } from "agentflow/model";
 *
 * const input: StatementInput = {
 *   files: [{ name: "processes/loan.bpmn", kind: "process", bytes: "<definitions/>\n" }],
 *   processes: [{ name: "processes/loan.bpmn", processIds: ["Loan"], allowed: true, agentTasks: [] }],
 *   inputs: { paths: ["processes/loan.bpmn"], registry: [], config: null },
 *   ruleSet: { digest: "sha256:4bfaa9f8a7cb", preset: "recommended" },
 *   version: AGENTFLOW_VERSION,
 *   approver: { role: "credit-officer", time: "2026-01-31T09:30:00Z" },
 * };
 * const approved = createStatement(input);
 * const redrawn = createStatement({
 *   ...input,
 *   files: [{ name: "processes/loan.bpmn", kind: "process", bytes: "<definitions />\n" }],
 *   approver: { role: "credit-officer", time: "2026-03-01T08:00:00Z" },
 * });
 * const reasons = compareStatements(approved, redrawn);
 * reasons.map((r) => r.code); // → ["SUBJECT_CHANGED"]
 * reasons[0]?.message.startsWith("processes/loan.bpmn: sha256 differs from the approved "); // → true
 * compareStatements(approved, createStatement({ ...input, approver: redrawn.predicate.approver })); // → []
 * ```
 */
export function compareStatements(
  approved: ApprovalStatement,
  current: ApprovalStatement,
  present: ReadonlyMap<string, string> = new Map(),
): ApprovalReason[] {
  const out: ApprovalReason[] = [];
  const was = approved.predicate;
  const is = current.predicate;
  if (was.agentflow.version !== is.agentflow.version) {
    out.push(
      approvalReason("VERSION_CHANGED", {
        approved: was.agentflow.version,
        running: is.agentflow.version,
      }),
    );
  }
  for (const field of ["digest", "preset"] as const) {
    if (was.ruleSet[field] !== is.ruleSet[field]) {
      out.push(
        approvalReason("RULESET_CHANGED", {
          field,
          approved: was.ruleSet[field],
          current: is.ruleSet[field],
        }),
      );
    }
  }
  out.push(...subjectChanges(approved, current, present), ...decisionChanges(approved, current));
  return sortReasons(out);
}
