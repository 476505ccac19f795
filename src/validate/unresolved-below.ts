/**
 * The delegates a workflow reaches only through other delegates and could not read. A delegate's
 * own validation reports its unresolved delegates (DELEGATE_UNRESOLVED), but those findings are
 * the delegate's, which no output shows: without this, a grand-delegate the registry does not
 * know passed `check` without a word. Found once per validation, walking back from the unread
 * delegates over the resolved ones' delegate edges (breadth first, iterative): O(delegates +
 * delegate edges), each resolved delegate with the nearest unread one below it.
 */
import type { AgentWorkflow } from "../model/index.js";
import { delegateTargets } from "./delegate-targets.js";
import type { Resolution } from "./types.js";

/** Why a delegate was not read: its resolution's status, or `limit` past the bound. */
export type UnreadReason = "unknown" | "no-resolver" | "failed" | "limit";

/** The nearest delegate below one that could not be read. */
export interface UnreadBelow {
  /** Its canonical `id@x.y.z`. */
  readonly ref: string;
  readonly reason: UnreadReason;
  /** How many delegations below the resolved delegate it is (1: one of its own). */
  readonly depth: number;
}

/**
 * For each resolved delegate (by canonical ref) whose delegation chain reaches a delegate that
 * could not be read, the nearest such one.
 */
export function unreadBelow(
  delegates: ReadonlyMap<string, Resolution<AgentWorkflow>>,
): Map<string, UnreadBelow> {
  // Each resolved delegate's own delegates, and who delegates to each ref.
  const callers = new Map<string, string[]>();
  const unread = new Map<string, UnreadReason>();
  for (const [key, resolution] of delegates) {
    if (resolution.status !== "resolved") unread.set(key, resolution.status);
  }
  for (const [key, targets] of delegateTargets(delegates)) {
    for (const target of targets) {
      if (!delegates.has(target)) unread.set(target, "limit");
      const list = callers.get(target) ?? [];
      list.push(key);
      callers.set(target, list);
    }
  }
  const out = new Map<string, UnreadBelow>();
  const queue: string[] = [...unread.keys()];
  const nearest = new Map<string, UnreadBelow>();
  for (const [ref, reason] of unread) nearest.set(ref, { ref, reason, depth: 0 });
  // A for-of over a growing array visits what is pushed during the walk: a FIFO queue.
  for (const at of queue) {
    const below = nearest.get(at);
    if (below === undefined) continue;
    for (const caller of callers.get(at) ?? []) {
      if (nearest.has(caller)) continue;
      const found = { ref: below.ref, reason: below.reason, depth: below.depth + 1 };
      nearest.set(caller, found);
      out.set(caller, found);
      queue.push(caller);
    }
  }
  return out;
}
