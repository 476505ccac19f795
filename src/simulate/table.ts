/**
 * Per-node counters as a persistent trie of 64-way chunks. The context is never mutated, so each
 * step copies what it changes: one chunk per level, three chunks of 64 for 100,000 nodes, where a
 * flat array of chunk pointers cost a 1,563-pointer copy per update — 25 KB of garbage a step,
 * which kept the garbage collector busier than the run itself.
 *
 * A run that no one else can observe mid-way (the interpreter's: it hands out only the final
 * context) owns its table instead: a flat array written in place, so an update costs one slot
 * whatever the workflow's size. The trie's copies grew with its height and were a fifth of a
 * step; XState's snapshots, which callers may keep, still get the persistent form.
 */
import type { JsonObject } from "./types.js";

/** What the run tracks per node. */
export interface NodeCounters {
  readonly visits: number;
  /** Execution attempts over the whole run (fixtures' `fails` counts these). */
  readonly executions: number;
  readonly failures: number;
  /** Loop-backs (decisions). */
  readonly retries: number;
  /** The node's last output (`null` before its first); param templates read it. */
  readonly last: JsonObject | null;
}

/** 64 node counters (a leaf) or 64 chunks of the level below. */
export type TableChunk = readonly NodeCounters[] | readonly TableChunk[];

/** Counters of every node, indexed by node position (a persistent trie of 64-way chunks). */
export interface NodeTable {
  /** Levels of chunks above the leaves: 0 for up to 64 nodes, 1 up to 4,096, 2 up to 262,144. */
  readonly height: number;
  /** Nodes in the table; counters outside it read as zero and are never written. */
  readonly size: number;
  readonly root: TableChunk;
  /**
   * Set on a table that one run owns (`ownedTable`): the counters by node index, written in
   * place by `withNode`; `root` is then unused.
   */
  readonly owned?: OwnedCounters;
}

/**
 * The counters of a table one run owns, four numbers a node in one array (visits, executions,
 * failures, retries at `4k` to `4k + 3`) and the last outputs in another: an update writes in
 * place, where a counters object per update was garbage and the last one per node was kept to
 * the end of the run, 100,000 of them for the garbage collector to trace in a long chain.
 */
export interface OwnedCounters {
  readonly counts: Int32Array;
  readonly last: (JsonObject | null)[];
}

const SHIFT = 6;
const WIDTH = 1 << SHIFT;
const MASK = WIDTH - 1;

const ZERO: NodeCounters = Object.freeze({
  visits: 0,
  executions: 0,
  failures: 0,
  retries: 0,
  last: null,
});

/** The all-zero chunk of each height, shared by every empty table (tables are never mutated). */
const ZEROS: TableChunk[] = [Object.freeze(new Array<NodeCounters>(WIDTH).fill(ZERO))];

function zeros(height: number): TableChunk {
  for (let h = ZEROS.length; h <= height; h++) {
    const below = ZEROS[h - 1] ?? [];
    ZEROS.push(Object.freeze(new Array<TableChunk>(WIDTH).fill(below)));
  }
  return ZEROS[height] ?? [];
}

/** A table of `n` nodes with zero counters; O(height), whatever `n`. */
export function emptyTable(n: number): NodeTable {
  let height = 0;
  while (WIDTH ** (height + 1) < n) height++;
  return { height, size: n, root: zeros(height) };
}

function child(chunk: TableChunk, k: number, level: number): TableChunk {
  return (chunk as readonly TableChunk[])[(k >> (SHIFT * level)) & MASK] ?? ZEROS[0] ?? [];
}

/**
 * An empty table of `n` nodes that the caller owns alone: {@link withNode} updates it in place and
 * returns it. Only for a run whose intermediate contexts nobody keeps.
 */
export function ownedTable(n: number): NodeTable {
  // Counts are bounded by moves, at most MAX_STEPS_LIMIT (100,000): 32 bits hold them.
  const owned: OwnedCounters = {
    counts: new Int32Array(4 * n),
    last: new Array<JsonObject | null>(n).fill(null),
  };
  return { height: 0, size: n, root: ZEROS[0] ?? [], owned };
}

/**
 * A copy of an owned table ({@link ownedTable}) that a second run owns: explore continues each
 * route of a branch from a copy of the run that reached it. A table that no run owns is returned
 * as it is (it is never written).
 */
export function copiedTable(table: NodeTable): NodeTable {
  const owned = table.owned;
  if (owned === undefined) return table;
  return { ...table, owned: { counts: owned.counts.slice(), last: owned.last.slice() } };
}

/** Node `k`'s counters (zero for an index outside the table). */
export function nodeAt(table: NodeTable, k: number): NodeCounters {
  if (k < 0 || k >= table.size) return ZERO;
  const owned = table.owned;
  if (owned !== undefined) {
    const at = 4 * k;
    const counts = owned.counts;
    return {
      visits: counts[at] ?? 0,
      executions: counts[at + 1] ?? 0,
      failures: counts[at + 2] ?? 0,
      retries: counts[at + 3] ?? 0,
      last: owned.last[k] ?? null,
    };
  }
  let chunk = table.root;
  for (let level = table.height; level > 0; level--) chunk = child(chunk, k, level);
  return (chunk as readonly NodeCounters[])[k & MASK] ?? ZERO;
}

/**
 * Node `k`'s visits: {@link nodeAt}`(table, k).visits` without the counters object an owned
 * table builds for `nodeAt`, which the hottest reads (several a step) left as garbage.
 */
export function visitsAt(table: NodeTable, k: number): number {
  const owned = table.owned;
  if (owned === undefined || k < 0 || k >= table.size) return nodeAt(table, k).visits;
  return owned.counts[4 * k] ?? 0;
}

/** Node `k`'s executions, as {@link visitsAt} reads visits. */
export function executionsAt(table: NodeTable, k: number): number {
  const owned = table.owned;
  if (owned === undefined || k < 0 || k >= table.size) return nodeAt(table, k).executions;
  return owned.counts[4 * k + 1] ?? 0;
}

/** Node `k`'s last output, as {@link visitsAt} reads visits. */
export function lastAt(table: NodeTable, k: number): JsonObject | null {
  const owned = table.owned;
  if (owned === undefined || k < 0 || k >= table.size) return nodeAt(table, k).last;
  return owned.last[k] ?? null;
}

/** `old` with `patch` applied. */
function updated(old: NodeCounters, patch: Partial<NodeCounters>): NodeCounters {
  // A literal of every field: a spread of the old counters and the patch took the slow path.
  return {
    visits: patch.visits ?? old.visits,
    executions: patch.executions ?? old.executions,
    failures: patch.failures ?? old.failures,
    retries: patch.retries ?? old.retries,
    last: patch.last === undefined ? old.last : patch.last,
  };
}

/**
 * A table equal to `table` except that node `k`'s counters are updated by `patch`; an owned table
 * is updated in place and returned.
 */
export function withNode(table: NodeTable, k: number, patch: Partial<NodeCounters>): NodeTable {
  if (k < 0 || k >= table.size) return table;
  const owned = table.owned;
  if (owned !== undefined) {
    const at = 4 * k;
    const counts = owned.counts;
    if (patch.visits !== undefined) counts[at] = patch.visits;
    if (patch.executions !== undefined) counts[at + 1] = patch.executions;
    if (patch.failures !== undefined) counts[at + 2] = patch.failures;
    if (patch.retries !== undefined) counts[at + 3] = patch.retries;
    if (patch.last !== undefined) owned.last[k] = patch.last;
    return table;
  }
  const path: TableChunk[] = [];
  let chunk = table.root;
  for (let level = table.height; level > 0; level--) {
    path.push(chunk);
    chunk = child(chunk, k, level);
  }
  const leaf = (chunk as readonly NodeCounters[]).slice();
  leaf[k & MASK] = updated(leaf[k & MASK] ?? ZERO, patch);
  let copy: TableChunk = leaf;
  for (let level = 1; level <= table.height; level++) {
    const parent = (path[table.height - level] as readonly TableChunk[]).slice();
    parent[(k >> (SHIFT * level)) & MASK] = copy;
    copy = parent;
  }
  return { height: table.height, size: table.size, root: copy };
}
