/**
 * The joins that close a parallel split (docs/bpmn.md, "What cancels a gate"): a parallel or
 * inclusive gateway with several incoming flows (not a complex gateway, which may fire before all
 * have come) that waits for every branch of the split. It does when each branch has an incoming
 * flow of its own: one whose source that branch alone reaches, short of the joins that close the
 * split. A join every branch reaches is not enough: a branch that splits again can fill every
 * incoming flow by itself, and the join fires without the others; nor is reaching it again on a
 * later round of a loop, past the join that closed the split. An inclusive join waits only for
 * the tokens that can still reach it, so it closes a split only when, besides, every node the
 * branches reach short of it can still reach it.
 *
 * The branches are walked together, a round at a time, holding at every join: a held join is not
 * walked past, and it holds what has reached it. At the end of a round, each join whose flows of
 * their own changed is judged: one that no longer waits for every branch is released, all at
 * once, and its branches walk on past it. Releasing only grows what reaches a flow, so a join
 * judged twice is judged on more; the walk ends when a round releases nothing, and the joins
 * still held are the closing ones. Nothing past them is walked, so a process of parallel blocks
 * one after another costs each block its own size, not the rest of the process. Each join counts
 * its flows of their own per branch as the walk goes (a source gains one when one branch reaches
 * it, loses it when a second does), so judging a join costs its branches, not its flows.
 */
import { reverseAdjacency } from "../model/index.js";
import type { LevelGraph, Split } from "./level-graph.js";

const NONE = 0;
const HELD = 1;
const RELEASED = 2;
/** Splits with more branches than a mask holds are read as closed by no join (stricter). */
const MAX_BRANCHES = 31;

/** Finds the closing joins of one split after another, sharing its scratch space. */
export interface JoinFinder {
  /** The closing-join test of `split`, valid until the next call. */
  readonly find: (split: Split) => (node: number) => boolean;
  /** Steps taken so far, for the caller's budget. */
  readonly work: () => number;
}

/** The branch of a mask that holds exactly one, else -1. */
function onlyBranch(m: number): number {
  return m !== 0 && (m & (m - 1)) === 0 ? 31 - Math.clz32(m) : -1;
}

/** A finder over `level`; `attachedTo` tells a host's own boundary events (see {@link Split}). */
export function joinFinder(level: LevelGraph, attachedTo: Int32Array): JoinFinder {
  const count = level.join.length;
  const { offsets, targets } = level.next;
  /** Per node, the branches that reach it (a bit each), short of the held joins. */
  const mask = new Int32Array(count);
  const state = new Uint8Array(count);
  /** Per held join: 1 while it waits to be judged at the end of the round. */
  const judged = new Uint8Array(count);
  /** Per join, the slot of its counts in {@link own}. */
  const slot = new Int32Array(count).fill(-1);
  let joins = 0;
  for (let v = 0; v < count; v++) if (level.join[v] === 1) slot[v] = joins++;
  /** Per join and branch: how many of its incoming flows that branch alone reaches. */
  const own = new Int32Array(joins * MAX_BRANCHES);
  const touched: number[] = [];
  let work = 0;
  let back: ReturnType<typeof reverseAdjacency> | undefined;
  /** Per node: the stamp of the last walk back from an inclusive join that reached it. */
  const leads = new Int32Array(count);
  let stamp = 0;
  /**
   * Whether every node a branch reached (short of the held joins) can still reach inclusive join
   * `j`. An inclusive join waits only for tokens that can still come: a branch whose token can
   * turn away from it (to an end, or round another way) lets it fire while that branch still
   * runs, as a parallel join never would.
   */
  const nothingTurnsAway = (j: number): boolean => {
    back ??= reverseAdjacency(level.next);
    stamp++;
    leads[j] = stamp;
    const todo = [j];
    for (let v = todo.pop(); v !== undefined; v = todo.pop()) {
      const last = back.offsets[v + 1] ?? 0;
      work += 1 + last - (back.offsets[v] ?? 0);
      for (let e = back.offsets[v] ?? 0; e < last; e++) {
        const u = back.targets[e] ?? 0;
        if (leads[u] === stamp || (mask[u] ?? 0) === 0) continue;
        leads[u] = stamp;
        todo.push(u);
      }
    }
    work += touched.length;
    return touched.every((v) => (mask[v] ?? 0) === 0 || leads[v] === stamp);
  };
  const find = (split: Split): ((node: number) => boolean) => {
    for (const v of touched) {
      mask[v] = 0;
      state[v] = NONE;
      judged[v] = 0;
      const s = slot[v] ?? -1;
      if (s >= 0) own.fill(0, s * MAX_BRANCHES, (s + 1) * MAX_BRANCHES);
    }
    touched.length = 0;
    const k = split.branches.length;
    // A branch that may start again is never all come: no join waits for it.
    if (k > MAX_BRANCHES || split.repeats) return () => false;
    let queue: number[] = [];
    const toJudge: number[] = [];
    const judgeLater = (j: number): void => {
      if (judged[j] === 1) return;
      judged[j] = 1;
      toJudge.push(j);
    };
    /** Whether held join `j` waits for every branch: each has a flow of its own into it. */
    const waitsForEach = (j: number): boolean => {
      const base = (slot[j] ?? 0) * MAX_BRANCHES;
      work += k;
      for (let b = 0; b < k; b++) if ((own[base + b] ?? 0) === 0) return false;
      return true;
    };
    /** `v`'s reach went from `before` to `after`: the joins it flows into recount their own. */
    const recount = (v: number, before: number, after: number): void => {
      const lost = onlyBranch(before);
      const gained = onlyBranch(after);
      if (lost === gained) return;
      const last = offsets[v + 1] ?? 0;
      work += last - (offsets[v] ?? 0);
      for (let e = offsets[v] ?? 0; e < last; e++) {
        const t = targets[e] ?? 0;
        const s = slot[t] ?? -1;
        if (s < 0) continue;
        if (mask[t] === 0 && state[t] === NONE) touched.push(t);
        if (lost >= 0) own[s * MAX_BRANCHES + lost] = (own[s * MAX_BRANCHES + lost] ?? 0) - 1;
        if (gained >= 0) own[s * MAX_BRANCHES + gained] = (own[s * MAX_BRANCHES + gained] ?? 0) + 1;
        if (state[t] === HELD) judgeLater(t);
      }
    };
    const expand = (v: number, b: number): void => {
      const last = offsets[v + 1] ?? 0;
      work += last - (offsets[v] ?? 0);
      for (let e = offsets[v] ?? 0; e < last; e++) {
        const t = targets[e] ?? 0;
        // The host's own branch is the host and what follows it, not its boundary events.
        if (b === 0 && v === split.host && level.nonInterrupting[t] === 1 && attachedTo[t] === v)
          continue;
        queue.push(t * 32 + b);
      }
    };
    split.branches.forEach((heads, b) => {
      for (const h of heads) queue.push(h * 32 + b);
    });
    /** The inclusive joins held: what a round newly reaches may turn away from any of them. */
    const inclusiveHeld: number[] = [];
    while (queue.length > 0) {
      // An array's iterator sees what is pushed while it runs: the loop is the queue.
      for (const item of queue) {
        const v = Math.floor(item / 32);
        const b = item % 32;
        const bit = 1 << b;
        const m = mask[v] ?? 0;
        if ((m & bit) !== 0) continue;
        if (m === 0) touched.push(v);
        mask[v] = m | bit;
        work++;
        recount(v, m, m | bit);
        if (level.join[v] === 1 && state[v] !== RELEASED) {
          if (state[v] === NONE && level.inclusive[v] === 1) inclusiveHeld.push(v);
          state[v] = HELD;
          judgeLater(v);
          continue;
        }
        expand(v, b);
      }
      queue = [];
      for (const j of inclusiveHeld) if (state[j] === HELD) judgeLater(j);
      // Judged all on the counts of this round, then released together.
      const released = toJudge.filter(
        (j) => !waitsForEach(j) || (level.inclusive[j] === 1 && !nothingTurnsAway(j)),
      );
      for (const j of toJudge) judged[j] = 0;
      toJudge.length = 0;
      for (const j of released) {
        state[j] = RELEASED;
        for (let b = 0; b < k; b++) if (((mask[j] ?? 0) & (1 << b)) !== 0) expand(j, b);
      }
    }
    return (node) => state[node] === HELD;
  };
  return { find, work: () => work };
}
