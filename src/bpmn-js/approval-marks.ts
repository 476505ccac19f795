/**
 * What the view draws of an approval's comparison, apart from the reading and the comparison
 * themselves (`approval.ts`, in the lazily loaded engine): the marks, and the diagram's process
 * ids the comparison starts from. Pure, and light: the module's entry chunk carries it.
 */
import type { TaskChange } from "../approval/index.js";
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
