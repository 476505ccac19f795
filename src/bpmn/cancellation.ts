/**
 * What may cancel a node while it runs (BPMN 2.0.2, 13.5.6 and 10.5.6; docs/bpmn.md, "What
 * cancels a gate"): the events `cancellers.ts` lists — a terminate, an uncaught error, an error
 * or escalation an interrupting catcher takes — end a scope and every token in it. Each cancels
 * a node of that scope running at the same time, on another branch: a gate pending there never
 * completes, and the path goes on from the event without it.
 *
 * Two nodes may run at the same time when, in their lowest common scope, they lie on different
 * branches of one parallel split (`level-graph.ts`). A branch is what its heads reach along the
 * scope's flow, up to a join that closes the split: a parallel, inclusive or complex gateway with
 * several incoming flows that every branch of the split reaches, and that therefore waits for
 * them all. A sub-process counts as running while anything in it runs. Each split's branches are
 * walked twice (to find the closing joins, then the branches); on a well-formed process that is
 * linear in its size. A budget proportional to the size bounds the work whatever the shape: past
 * it, every node of a scope may be cancelled by each terminate or uncaught error there, and the
 * catchers of caught errors and escalations fire any time — which can only add bypasses.
 */
import { reverseAdjacency } from "../model/index.js";
import type { Caught } from "./catchers.js";
import type { Cancellers } from "./cancellers.js";
import { findCancellers } from "./cancellers.js";
import { joinFinder } from "./closing-joins.js";
import type { LevelGraph, Split } from "./level-graph.js";
import type { ProcessIndex } from "./process-index.js";
import { NodeFlag } from "./process-index.js";

/** Node `source[k]` may be cancelled, while it runs, by the event `witness[k]`. */
export interface Cancellations {
  readonly source: readonly number[];
  readonly witness: readonly number[];
  /**
   * False when the budget ran out before the caught errors and escalations were placed: the
   * caller must then let their catchers fire whenever something in their scope runs.
   */
  readonly complete: boolean;
}

/** Nodes that never wait: a token passes them at once, so nothing finds one running. */
const INSTANT =
  NodeFlag.startEvent | NodeFlag.endEvent | NodeFlag.boundaryEvent | NodeFlag.throwEvent;
const BUDGET_FLOOR = 4_000_000;

/** Marks every node from which `sources` are reachable along `level.next`. */
function reaching(level: LevelGraph, sources: Iterable<number>, count: number): Uint8Array {
  const marked = new Uint8Array(count);
  const back = reverseAdjacency(level.next);
  const queue: number[] = [];
  for (const s of sources) {
    marked[s] = 1;
    queue.push(s);
  }
  // An array's iterator sees what is pushed while it runs: the loop is the queue.
  for (const v of queue) {
    for (let e = back.offsets[v] ?? 0; e < (back.offsets[v + 1] ?? 0); e++) {
      const p = back.targets[e] ?? 0;
      if (marked[p] === 1) continue;
      marked[p] = 1;
      queue.push(p);
    }
  }
  return marked;
}

/**
 * Finds every node that an event ending its scope may cancel while it runs. The scopes' flows
 * (`levels`) are built only when there is such an event: most processes have none.
 */
export function findCancellations(
  index: ProcessIndex,
  levels: () => LevelGraph,
  uncaught: readonly number[],
  catchers: (node: number) => Caught,
): Cancellations {
  const { flags, attachedTo } = index;
  const count = flags.length;
  const budget = BUDGET_FLOOR + 32 * (count + index.flowSources.length);
  const table = findCancellers(index, uncaught, catchers, budget);
  const source: number[] = [];
  const witness: number[] = [];
  if (table.of.size === 0) return { source, witness, complete: table.complete };
  const level = levels();
  const { offsets, targets } = level.next;
  // Only splits a branch of which can reach a canceller can put one beside another node.
  const canReach = reaching(level, table.of.keys(), count);
  const seen = new Set<number>();
  const expose = (v: number, kind: number, by: number): void => {
    if (((flags[v] ?? 0) & INSTANT) !== 0 || index.events.compensation[v] === 1) return;
    const key = v * table.kinds + kind;
    if (seen.has(key)) return;
    seen.add(key);
    source.push(v);
    witness.push(by);
  };
  const queue = new Int32Array(count);
  const mark = new Int32Array(count);
  const joins = joinFinder(level, attachedTo);
  let walked = 0;
  let stamp = 0;
  /**
   * Visits what `heads` reach short of the joins that close the split; `host`'s own
   * non-interrupting boundary events are not followed.
   */
  const walk = (
    heads: readonly number[],
    host: number,
    closing: (v: number) => boolean,
    visit: (v: number) => void,
  ): void => {
    stamp++;
    let end = 0;
    for (const h of heads) {
      if (mark[h] === stamp || closing(h)) continue;
      mark[h] = stamp;
      queue[end++] = h;
    }
    for (let head = 0; head < end; head++) {
      const v = queue[head] ?? 0;
      visit(v);
      const last = offsets[v + 1] ?? 0;
      walked += 1 + last - (offsets[v] ?? 0);
      for (let e = offsets[v] ?? 0; e < last; e++) {
        const t = targets[e] ?? 0;
        if (mark[t] === stamp || closing(t)) continue;
        if (v === host && level.nonInterrupting[t] === 1 && attachedTo[t] === host) continue;
        mark[t] = stamp;
        queue[end++] = t;
      }
    }
  };
  const runSplit = (split: Split): void => {
    const closing = joins.find(split);
    const hostOf = (b: number): number => (b === 0 ? split.host : -1);
    const regions: number[][] = [];
    // Per branch, the first event of each kind it meets.
    const found: Map<number, number>[] = [];
    split.branches.forEach((heads, b) => {
      const region: number[] = [];
      const first = new Map<number, number>();
      walk(heads, hostOf(b), closing, (v) => {
        region.push(v);
        for (const c of table.of.get(v) ?? []) if (!first.has(c.kind)) first.set(c.kind, c.by);
      });
      regions.push(region);
      found.push(first);
    });
    const kinds = new Set(found.flatMap((f) => [...f.keys()]));
    for (const kind of kinds) {
      // The first two branches holding an event of this kind: each exposes every other branch.
      const holders = found.flatMap((f, b) => (f.has(kind) ? [b] : [])).slice(0, 2);
      regions.forEach((region, b) => {
        const other = holders.find((h) => h !== b);
        const by = other === undefined ? undefined : found[other]?.get(kind);
        if (by === undefined) return;
        walked += region.length;
        for (const v of region) expose(v, kind, by);
      });
    }
  };
  for (const split of level.splits) {
    if (!split.branches.some((heads) => heads.some((h) => canReach[h] === 1))) continue;
    runSplit(split);
    if (table.work + walked + joins.work() > budget) {
      everyNode(index, table, expose);
      return { source, witness, complete: false };
    }
  }
  return { source, witness, complete: table.complete };
}

/** Past the budget: every node of a scope may be cancelled by its first terminate and error. */
function everyNode(
  index: ProcessIndex,
  table: Cancellers,
  expose: (v: number, kind: number, by: number) => void,
): void {
  const count = index.flags.length;
  // Terminates (kind 0) and uncaught errors (kind 1): per scope, the first child holding one.
  for (const kind of [0, 1]) {
    const first = new Int32Array(index.containers.length).fill(-1);
    for (const [node, list] of table.of) {
      const c = index.container[node] ?? 0;
      const entry = list.find((e) => e.kind === kind);
      if (entry !== undefined && (first[c] ?? -1) < 0) first[c] = entry.by;
    }
    for (let i = 0; i < count; i++) {
      const by = first[index.container[i] ?? 0] ?? -1;
      if (by >= 0) expose(i, kind, by);
    }
  }
}
