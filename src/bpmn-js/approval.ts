/**
 * The `approval` option of the modeller (docs/approval.md, docs/modeler.md): which agent tasks of
 * the drawn process are no longer what was approved. The approval's entry for the diagram is found
 * by its `bpmn:process` ids (the modeller cannot know the file's path), and each task of the
 * current decision is compared with its approved decision, file names apart. Pure: the service
 * draws what these functions say.
 */
import type { ApprovalStatement, ProcessApproval, TaskChange } from "../approval/index.js";
import {
  ApprovalFormatError,
  changedTasks,
  PAYLOAD_TYPE,
  readApproval,
  statementProblems,
  taskApproval,
} from "../approval/index.js";
import type { GateDecision } from "../bpmn/index.js";
import { asModdle, isType, stringAttr } from "./btv-read.js";

/** What the approval says of the diagram after an evaluation (on `agentflow.changed`). */
export interface ApprovalChanges {
  /** The name of the approval's process entry matched; `null` when none matched. */
  readonly process: string | null;
  /** Agent tasks of the diagram not as approved: `added` (not in the approval) or `changed`. */
  readonly changed: readonly TaskChange[];
  /** Tasks the approval lists that the diagram no longer has. */
  readonly removed: readonly TaskChange[];
}

/** What the module draws on one agent task: its text and its title (what changed). */
export interface ApprovalMark {
  readonly elementId: string;
  readonly change: "added" | "changed";
  readonly text: string;
  readonly title: string;
}

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

/** The mark of each task on the canvas that is not as approved. */
export function approvalMarks(changes: ApprovalChanges): ApprovalMark[] {
  return changes.changed.map((c): ApprovalMark => {
    if (c.change === "changed") {
      return {
        elementId: c.elementId,
        change: "changed",
        text: "changed since approval",
        title: `changed since approval: ${c.fields.join(", ")}`,
      };
    }
    return {
      elementId: c.elementId,
      change: "added",
      text: "not in the approval",
      title:
        changes.process === null
          ? "not in the approval: it holds no decision for this process's ids"
          : `not in the approval: ${changes.process} holds no decision for this task`,
    };
  });
}

/** The ids of the definitions' `bpmn:process` elements: how the approval's entry is found. */
export function processIdsOf(definitions: unknown): string[] {
  const roots = asModdle(definitions)?.rootElements;
  if (!Array.isArray(roots)) return [];
  return roots.flatMap((root: unknown) => {
    const id = isType(root, "bpmn:Process") ? stringAttr(asModdle(root), "id") : undefined;
    return id === undefined ? [] : [id];
  });
}

/**
 * The service's approval: the statement of the `approval` option, why it cannot be used (until
 * said), and what it said of the last decision. Nothing here throws: a malformed approval or a
 * comparison that fails is an error to fire, and then nothing is marked.
 */
export class ApprovalState {
  #statement: ApprovalStatement | undefined;
  #error: unknown;
  #changes: ApprovalChanges | undefined;

  /** Reads the option (`undefined`: no approval). */
  constructor(value: unknown) {
    this.set(value);
  }

  /** Replaces the approval; the old comparison is dropped. */
  set(value: unknown): void {
    this.#statement = undefined;
    this.#error = undefined;
    this.#changes = undefined;
    if (value === undefined) return;
    try {
      this.#statement = approvedStatement(value);
    } catch (error) {
      this.#error = error;
    }
  }

  /** The errors not yet said, at most one, and none again once taken. */
  takeErrors(): unknown[] {
    const error: unknown = this.#error;
    this.#error = undefined;
    return error === undefined ? [] : [error];
  }

  /** Compares `decision` with the approval; resolves to the errors to say. */
  update(definitions: unknown, decision: Pick<GateDecision, "agentTasks">): unknown[] {
    const errors = this.takeErrors();
    this.#changes = undefined;
    if (this.#statement === undefined) return errors;
    try {
      this.#changes = approvalChanges(this.#statement, processIdsOf(definitions), decision);
    } catch (error) {
      errors.push(error);
    }
    return errors;
  }

  /** Forgets the last comparison (the diagram was cleared). */
  forget(): void {
    this.#changes = undefined;
  }

  /** What the approval said of the last decision; `undefined` when it could say nothing. */
  get changes(): ApprovalChanges | undefined {
    return this.#changes;
  }
}
