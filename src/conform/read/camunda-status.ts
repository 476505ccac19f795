/**
 * A history item's `commitStatus`, which says whether the job that produced the item completed:
 * Camunda 8.10 defines COMMITTED, PENDING (the job is still active) and DISCARDED (it failed and a
 * later activation superseded the item), and always records one. Any other value is not read as
 * one of them — a failed attempt in a spelling the reader does not know would pass as a success.
 */
import { notText } from "./shared.js";

/**
 * A field the record holds in a shape it cannot have (a model as an object, a status as a
 * number): never taken for absent, it is reported as a record not read.
 */
export interface Unread {
  /** The field, as the API names it (`model`, `definition.model`, `toolCalls[0].elementId`). */
  readonly field: string;
  /** What it is instead, e.g. `is an object (key-value list), not text`. */
  readonly why: string;
}

/** The commit statuses Camunda 8.10 defines (`AgentInstanceHistoryCommitStatusEnum`). */
export type CommitStatus = "COMMITTED" | "PENDING" | "DISCARDED";

const COMMIT_STATUSES: ReadonlySet<string> = new Set(["COMMITTED", "PENDING", "DISCARDED"]);

/** The roles whose items are steps, whose status the replay reads. */
const STEP_ROLES: ReadonlySet<string> = new Set(["ASSISTANT", "TOOL_RESULT"]);

/**
 * The item's commit status, or `undefined` with what it holds instead in `unread`. Absent (or
 * `null`) is unread on a step's item only: the API always writes it, and only a step's status is
 * read; other items need none.
 */
export function commitStatusOf(
  value: unknown,
  role: string,
  unread: Unread[],
): CommitStatus | undefined {
  if (value === undefined || value === null) {
    if (STEP_ROLES.has(role)) {
      const why = "is absent, so whether the job that produced the item failed is not known";
      unread.push({ field: "commitStatus", why });
    }
    return undefined;
  }
  const notAText = notText(value);
  if (notAText !== undefined) {
    unread.push({ field: "commitStatus", why: notAText });
    return undefined;
  }
  const text = value as string;
  if (COMMIT_STATUSES.has(text)) return text as CommitStatus;
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  const why = `is "${shown}", which is no commit status Camunda 8.10 defines (COMMITTED, PENDING, DISCARDED)`;
  unread.push({ field: "commitStatus", why });
  return undefined;
}
