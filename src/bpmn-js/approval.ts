/**
 * The `approval` option of the modeller (docs/approval.md, docs/modeler.md): which agent tasks of
 * the drawn process are no longer what was approved. The approval's entry for the diagram is found
 * by its `bpmn:process` ids (the modeller cannot know the file's path), and each task of the
 * current decision is compared with its approved decision, file names apart. Pure: the service
 * draws what these functions say. Reading and comparing run in the lazily loaded engine
 * (`engine.ts`); what the view draws is in `approval-marks.ts`.
 */
import type { ApprovalStatement, ProcessApproval } from "../approval/index.js";
import {
  ApprovalFormatError,
  changedTasks,
  PAYLOAD_TYPE,
  readApproval,
  statementProblems,
  taskApproval,
} from "../approval/index.js";
import type { GateDecision } from "../bpmn/index.js";
import type { ApprovalChanges } from "./approval-marks.js";

export type { ApprovalChanges, ApprovalMark } from "./approval-marks.js";
export { approvalMarks, processIdsOf } from "./approval-marks.js";

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The approved statement of the `approval` option: a DSSE envelope as `agentflow approve` writes
 * it (its JSON text or parsed), or the statement itself. Anything else throws an
 * `ApprovalFormatError` saying what is wrong. The signatures are not checked: a modeller marks
 * what changed, and `agentflow verify` is what trusts an approval.
 */
export function approvedStatement(value: unknown): ApprovalStatement {
  if (typeof value === "string" || (isRecord(value) && "payloadType" in value)) {
    const { envelope, statement } = readApproval(value);
    if (envelope.payloadType !== PAYLOAD_TYPE) {
      throw new ApprovalFormatError(
        `agentflow.approval: the envelope's payloadType is '${envelope.payloadType}', not '${PAYLOAD_TYPE}'`,
      );
    }
    return statement;
  }
  if (!isRecord(value)) {
    throw new ApprovalFormatError(
      "agentflow.approval must be the approval's JSON (a DSSE envelope or its statement)",
    );
  }
  const problems = statementProblems(value);
  if (problems.length > 0) {
    throw new ApprovalFormatError(
      `agentflow.approval: not an approval statement:\n${problems.map((p) => p.message).join("\n")}`,
    );
  }
  return value as unknown as ApprovalStatement;
}

/**
 * The approval's entry for a diagram whose `bpmn:process` ids are `processIds`: the one entry
 * sharing them all, else the one entry sharing any. Two candidates are no match: a task would be
 * compared with a decision made for another file.
 */
export function approvedProcess(
  statement: ApprovalStatement,
  processIds: readonly string[],
): ProcessApproval | undefined {
  const ids = new Set(processIds);
  const sharing = statement.predicate.processes.filter((p) =>
    p.processIds.some((id) => ids.has(id)),
  );
  const same = sharing.filter(
    (p) => p.processIds.length === ids.size && p.processIds.every((id) => ids.has(id)),
  );
  if (same.length === 1) return same[0];
  return same.length === 0 && sharing.length === 1 ? sharing[0] : undefined;
}

/**
 * The decision's agent tasks against the approval: which changed, which are new, which the
 * approval lists that are gone.
 */
export function approvalChanges(
  statement: ApprovalStatement,
  processIds: readonly string[],
  decision: Pick<GateDecision, "agentTasks">,
): ApprovalChanges {
  const entry = approvedProcess(statement, processIds);
  // The modeller knows no file paths: names are left out, and changedTasks ignores them.
  const current = decision.agentTasks.map((task) => taskApproval(task, () => null));
  const all = changedTasks(entry, current);
  return {
    process: entry?.name ?? null,
    changed: all.filter((c) => c.change !== "removed"),
    removed: all.filter((c) => c.change === "removed"),
  };
}
