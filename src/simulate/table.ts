/**
 * Per-node counters as a persistent two-level vector. The context is never mutated, so each step
 * copies what it changes; with chunks of 64, a step on a 1,000-node workflow copies 16 chunk
 * pointers and one chunk instead of several 1,000-element arrays, which kept the garbage
 * collector busier than the run itself.
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

/** Counters of every node, indexed by node position (a persistent vector of 64-node chunks). */
export type NodeTable = readonly (readonly NodeCounters[])[];

const SHIFT = 6;
const MASK = (1 << SHIFT) - 1;

const ZERO: NodeCounters = Object.freeze({
  visits: 0,
  executions: 0,
  failures: 0,
  retries: 0,
  last: null,
});

/** A table of `n` nodes with zero counters. */
export function emptyTable(n: number): NodeTable {
  const chunks: NodeCounters[][] = [];
  for (let start = 0; start < n; start += MASK + 1) {
    chunks.push(new Array<NodeCounters>(Math.min(MASK + 1, n - start)).fill(ZERO));
  }
  return chunks;
}

/** Node `k`'s counters (zero for an index outside the table). */
export function nodeAt(table: NodeTable, k: number): NodeCounters {
  return table[k >> SHIFT]?.[k & MASK] ?? ZERO;
}

/** A table equal to `table` except that node `k`'s counters are updated by `patch`. */
export function withNode(table: NodeTable, k: number, patch: Partial<NodeCounters>): NodeTable {
  const chunk = table[k >> SHIFT];
  if (chunk === undefined) return table;
  const copy = chunk.slice();
  copy[k & MASK] = { ...nodeAt(table, k), ...patch };
  const root = table.slice();
  root[k >> SHIFT] = copy;
  return root;
}
