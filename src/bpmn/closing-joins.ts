/**
 * The joins that close a parallel split (docs/bpmn.md, "What cancels a gate"): the parallel and
 * inclusive gateways with several incoming flows that every branch of the split reaches (a
 * complex gateway may fire before all have come). Such a join waits for all the branches, so what
 * follows it never runs beside them.
 *
 * The branches are walked together, a round at a time, holding at each join: a join every branch
 * has reached by the end of a round is not walked past, a join some have reached is let through.
 * What lies beyond a join every branch reaches is reached by every branch too, so a join there
 * closes the split as well, however the walk got to it; it is found, only when asked about, by
 * one walk from the joins held for good. Past such a join nothing is walked again, so a process of
 * parallel blocks one after another costs each block its own size, not the rest of the process.
 */
import type { LevelGraph, Split } from "./level-graph.js";

const NONE = 0;
const HELD = 1;
const RELEASED = 2;
const CLOSED = 3;
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
  const mask = new Int32Array(count);
  const state = new Uint8Array(count);
  const below = new Int32Array(count);
  const touched: number[] = [];
  let stamp = 0;
  let work = 0;
  const find = (split: Split): ((node: number) => boolean) => {
    for (const v of touched) {
      mask[v] = 0;
      state[v] = NONE;
    }
    touched.length = 0;
    const k = split.branches.length;
    if (k > MAX_BRANCHES) return () => false;
    const full = 2 ** k - 1;
    let queue: number[] = [];
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
    const held: number[] = [];
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
          if (state[v] === NONE) {
            state[v] = HELD;
            held.push(v);
          }
          continue;
        }
        expand(v, b);
      }
      queue = [];
      for (const j of held) {
        if (state[j] !== HELD) continue;
        if (mask[j] === full) {
          state[j] = CLOSED;
          continue;
        }
        state[j] = RELEASED;
        for (let b = 0; b < k; b++) if (((mask[j] ?? 0) & (1 << b)) !== 0) expand(j, b);
      }
      held.length = 0;
    }
    let lookedBelow = false;
    stamp++;
    /** Marks what lies beyond the joins held for good: every branch reaches it. */
    const lookBelow = (): void => {
      lookedBelow = true;
      const pending = touched.filter((v) => state[v] === CLOSED);
      for (const v of pending) below[v] = stamp;
      for (const v of pending) {
        for (let e = offsets[v] ?? 0; e < (offsets[v + 1] ?? 0); e++) {
          const t = targets[e] ?? 0;
          work++;
          if (below[t] === stamp) continue;
          below[t] = stamp;
          pending.push(t);
        }
      }
    };
    return (node) => {
      if (level.join[node] !== 1) return false;
      if (mask[node] === full) return true;
      if (!lookedBelow) lookBelow();
      return below[node] === stamp;
    };
  };
  return { find, work: () => work };
}
