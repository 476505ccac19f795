/**
 * The joins that close a parallel split (docs/bpmn.md, "What cancels a gate"): a parallel or
 * inclusive gateway with several incoming flows (not a complex gateway, which may fire before all
 * have come) that waits for every branch of the split. It does when each branch has an incoming
 * flow of its own: one whose source only that branch reaches, short of the joins that close the
 * split. A join every branch reaches is not enough: a branch that splits again can fill every
 * incoming flow by itself, and the join fires without the others; nor is reaching it again on a
 * later round of a loop, past the join that closed the split.
 *
 * The branches are walked together, a round at a time, holding at every join: a held join is not
 * walked past, and it holds what has reached it. At the end of a round, each join whose incoming
 * flows changed is judged: one that no longer waits for every branch is released, all at once,
 * and its branches walk on past it. Releasing only grows what reaches a flow, so a join judged
 * twice is judged on more; the walk ends when a round releases nothing, and the joins still held
 * are the closing ones. Nothing past them is walked, so a process of parallel blocks one after
 * another costs each block its own size, not the rest of the process.
 */
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

/** A finder over `level`; `attachedTo` tells a host's own boundary events (see {@link Split}). */
export function joinFinder(level: LevelGraph, attachedTo: Int32Array): JoinFinder {
  const count = level.join.length;
  const { offsets, targets } = level.next;
  const flowsIn = level.flowsIn;
  /** Per node, the branches that reach it (a bit each), short of the held joins. */
  const mask = new Int32Array(count);
  const state = new Uint8Array(count);
  /** Per held join: 1 while it waits to be judged at the end of the round. */
  const judged = new Uint8Array(count);
  const touched: number[] = [];
  let work = 0;
  /**
   * Whether join `j` waits for every branch (`full`): each has an incoming flow whose source that
   * branch alone reaches.
   */
  const waitsForEach = (j: number, full: number): boolean => {
    let own = 0;
    const last = flowsIn.offsets[j + 1] ?? 0;
    work += last - (flowsIn.offsets[j] ?? 0);
    for (let e = flowsIn.offsets[j] ?? 0; e < last; e++) {
      const m = mask[flowsIn.targets[e] ?? 0] ?? 0;
      if (m !== 0 && (m & (m - 1)) === 0) own |= m;
    }
    return own === full;
  };
  const find = (split: Split): ((node: number) => boolean) => {
    for (const v of touched) {
      mask[v] = 0;
      state[v] = NONE;
      judged[v] = 0;
    }
    touched.length = 0;
    const k = split.branches.length;
    if (k > MAX_BRANCHES) return () => false;
    const full = 2 ** k - 1;
    let queue: number[] = [];
    const toJudge: number[] = [];
    const judgeLater = (j: number): void => {
      if (judged[j] === 1) return;
      judged[j] = 1;
      toJudge.push(j);
    };
    const expand = (v: number, b: number): void => {
      const last = offsets[v + 1] ?? 0;
      work += last - (offsets[v] ?? 0);
      for (let e = offsets[v] ?? 0; e < last; e++) {
        const t = targets[e] ?? 0;
        // The host's own branch is the host and what follows it, not its boundary events.
        if (b === 0 && v === split.host && level.nonInterrupting[t] === 1 && attachedTo[t] === v)
          continue;
        // A held join after `v` waits on `v`'s flow, which `b` now reaches: judge it again.
        if (state[t] === HELD) judgeLater(t);
        queue.push(t * 32 + b);
      }
    };
    /** Flags the held joins right after held join `v`, whose flow from `v` a branch now reaches. */
    const judgeAfter = (v: number): void => {
      const last = offsets[v + 1] ?? 0;
      work += last - (offsets[v] ?? 0);
      for (let e = offsets[v] ?? 0; e < last; e++) {
        const t = targets[e] ?? 0;
        if (state[t] === HELD) judgeLater(t);
      }
    };
    split.branches.forEach((heads, b) => {
      for (const h of heads) queue.push(h * 32 + b);
    });
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
        if (level.join[v] === 1 && state[v] !== RELEASED) {
          state[v] = HELD;
          judgeLater(v);
          judgeAfter(v);
          continue;
        }
        expand(v, b);
      }
      queue = [];
      // Judged all on the masks of this round, then released together.
      const released = toJudge.filter((j) => !waitsForEach(j, full));
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
