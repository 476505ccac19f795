/**
 * Per-node counters of a run: four numbers a node in one `Int32Array` (visits, executions,
 * failures, retries at `4k` to `4k + 3`) and the last outputs in an array, written in place. A
 * counters object per update was garbage, and the last one per node was kept to the end of the
 * run, 100,000 of them for the garbage collector to trace in a long chain; a persistent table,
 * copied along its path at each update, cost a fifth of a step.
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

/** Counters of every node, indexed by node position, written in place by {@link withNode}. */
export interface NodeTable {
  /** Nodes in the table; counters outside it read as zero and are never written. */
  readonly size: number;
  readonly counts: Int32Array;
  readonly last: (JsonObject | null)[];
}

const ZERO: NodeCounters = Object.freeze({
  visits: 0,
  executions: 0,
  failures: 0,
  retries: 0,
  last: null,
});

/** A table of `n` nodes with zero counters. */
export function emptyTable(n: number): NodeTable {
  // Counts are bounded by moves, at most MAX_STEPS_LIMIT (100,000): 32 bits hold them.
  return {
    size: n,
    counts: new Int32Array(4 * n),
    last: new Array<JsonObject | null>(n).fill(null),
  };
}

/** A copy a second run writes: explore goes on with each route of a branch from a copy. */
export function copiedTable(table: NodeTable): NodeTable {
  return { size: table.size, counts: table.counts.slice(), last: table.last.slice() };
}

/** Node `k`'s counters (zero for an index outside the table). */
export function nodeAt(table: NodeTable, k: number): NodeCounters {
  if (k < 0 || k >= table.size) return ZERO;
  const at = 4 * k;
  const counts = table.counts;
  return {
    visits: counts[at] ?? 0,
    executions: counts[at + 1] ?? 0,
    failures: counts[at + 2] ?? 0,
    retries: counts[at + 3] ?? 0,
    last: table.last[k] ?? null,
  };
}

/**
 * Node `k`'s visits: {@link nodeAt}`(table, k).visits` without the counters object `nodeAt`
 * builds, which the hottest reads (several a step) left as garbage.
 */
export function visitsAt(table: NodeTable, k: number): number {
  return k < 0 || k >= table.size ? 0 : (table.counts[4 * k] ?? 0);
}

/** Node `k`'s executions, as {@link visitsAt} reads visits. */
export function executionsAt(table: NodeTable, k: number): number {
  return k < 0 || k >= table.size ? 0 : (table.counts[4 * k + 1] ?? 0);
}

/** Node `k`'s last output, as {@link visitsAt} reads visits. */
export function lastAt(table: NodeTable, k: number): JsonObject | null {
  return k < 0 || k >= table.size ? null : (table.last[k] ?? null);
}

/** Node `k`'s counters updated in place by `patch`; returns the table. */
export function withNode(table: NodeTable, k: number, patch: Partial<NodeCounters>): NodeTable {
  if (k < 0 || k >= table.size) return table;
  const at = 4 * k;
  const counts = table.counts;
  if (patch.visits !== undefined) counts[at] = patch.visits;
  if (patch.executions !== undefined) counts[at + 1] = patch.executions;
  if (patch.failures !== undefined) counts[at + 2] = patch.failures;
  if (patch.retries !== undefined) counts[at + 3] = patch.retries;
  if (patch.last !== undefined) table.last[k] = patch.last;
  return table;
}
