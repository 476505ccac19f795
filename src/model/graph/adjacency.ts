/**
 * Compressed adjacency (CSR): the neighbours of node `v` are `targets[offsets[v] .. offsets[v+1])`.
 * Two typed arrays instead of one array per node: at 100,000 nodes the per-node arrays cost more
 * in garbage collection than the graph algorithms themselves, and grew super-linearly.
 */
import { scratchScope } from "./scratch.js";

/** Neighbour lists of `offsets.length - 1` nodes, in two flat arrays. */
export interface Adjacency {
  readonly offsets: Int32Array;
  readonly targets: Int32Array;
}

/**
 * The neighbours of `v`, as a view (no copy).
 *
 * @example
 * ```ts
 * import { adjacencyFromLists, neighbours } from "agentflow/model";
 *
 * const graph = adjacencyFromLists([[1, 2], [2], []]);
 * [...neighbours(graph, 0)]; // → [1, 2]
 * neighbours(graph, 2).length; // → 0
 * ```
 */
export function neighbours(adjacency: Adjacency, v: number): Int32Array {
  return adjacency.targets.subarray(adjacency.offsets[v] ?? 0, adjacency.offsets[v + 1] ?? 0);
}

/**
 * The number of nodes the adjacency describes.
 *
 * @example
 * ```ts
 * import { adjacencyFromLists, nodeCount } from "agentflow/model";
 *
 * nodeCount(adjacencyFromLists([[1], [2], []])); // → 3
 * ```
 */
export function nodeCount(adjacency: Adjacency): number {
  return adjacency.offsets.length - 1;
}

/**
 * Builds an adjacency from per-node lists (small graphs, tests, other callers' graphs).
 *
 * @example
 * ```ts
 * import { adjacencyFromLists } from "agentflow/model";
 *
 * const graph = adjacencyFromLists([[1, 2], [2], []]);
 * graph.offsets; // → Int32Array.from([0, 2, 3, 3])
 * graph.targets; // → Int32Array.from([1, 2, 2])
 * ```
 */
export function adjacencyFromLists(lists: readonly (readonly number[])[]): Adjacency {
  const offsets = new Int32Array(lists.length + 1);
  lists.forEach((list, v) => {
    offsets[v + 1] = (offsets[v] ?? 0) + list.length;
  });
  const targets = new Int32Array(offsets[lists.length] ?? 0);
  lists.forEach((list, v) => {
    targets.set(list, offsets[v] ?? 0);
  });
  return { offsets, targets };
}

/**
 * The per-node lists of an adjacency (for tests and small graphs).
 *
 * @example
 * ```ts
 * import { adjacencyFromEdges, adjacencyToLists } from "agentflow/model";
 *
 * adjacencyToLists(adjacencyFromEdges(3, [0, 1, 0], [1, 2, 2])); // → [[1, 2], [2], []]
 * ```
 */
export function adjacencyToLists(adjacency: Adjacency): number[][] {
  const out: number[][] = [];
  for (let v = 0; v < nodeCount(adjacency); v++) out.push([...neighbours(adjacency, v)]);
  return out;
}

/**
 * The reverse adjacency; each node's sources come out ascending (a counting sort).
 *
 * @example
 * ```ts
 * import { adjacencyFromLists, adjacencyToLists, reverseAdjacency } from "agentflow/model";
 *
 * const graph = adjacencyFromLists([[1, 2], [2], []]);
 * adjacencyToLists(reverseAdjacency(graph)); // → [[], [0], [0, 1]]
 * ```
 */
export function reverseAdjacency(adjacency: Adjacency): Adjacency {
  const n = nodeCount(adjacency);
  const { offsets: fwd, targets } = adjacency;
  const offsets = new Int32Array(n + 1);
  for (const t of targets) offsets[t + 1] = (offsets[t + 1] ?? 0) + 1;
  for (let v = 0; v < n; v++) offsets[v + 1] = (offsets[v + 1] ?? 0) + (offsets[v] ?? 0);
  const sources = new Int32Array(targets.length);
  scratchScope((take) => {
    const cursor = take(n);
    cursor.set(offsets.subarray(0, n));
    for (let v = 0; v < n; v++) {
      for (let k = fwd[v] ?? 0; k < (fwd[v + 1] ?? 0); k++) {
        const t = targets[k] ?? 0;
        const at = cursor[t] ?? 0;
        sources[at] = v;
        cursor[t] = at + 1;
      }
    }
  });
  return { offsets, targets: sources };
}

/**
 * Builds an adjacency from parallel edge lists (`from[k] → to[k]`) by counting sort: two passes,
 * no per-node arrays. Neighbours keep the order in which their edges were listed.
 *
 * @example
 * ```ts
 * import { adjacencyFromEdges, adjacencyToLists } from "agentflow/model";
 *
 * // edges 0→2, 0→1, 1→2, listed in parallel arrays
 * const graph = adjacencyFromEdges(3, Int32Array.from([0, 0, 1]), Int32Array.from([2, 1, 2]));
 * adjacencyToLists(graph); // → [[2, 1], [2], []]
 * ```
 */
export function adjacencyFromEdges(
  count: number,
  from: ArrayLike<number>,
  to: ArrayLike<number>,
): Adjacency {
  const offsets = new Int32Array(count + 1);
  // eslint-disable-next-line @typescript-eslint/prefer-for-of -- an ArrayLike is not iterable
  for (let k = 0; k < from.length; k++) {
    const v = from[k] ?? 0;
    offsets[v + 1] = (offsets[v + 1] ?? 0) + 1;
  }
  for (let v = 0; v < count; v++) offsets[v + 1] = (offsets[v + 1] ?? 0) + (offsets[v] ?? 0);
  const fill = offsets.slice(0, count);
  const targets = new Int32Array(from.length);
  for (let k = 0; k < from.length; k++) {
    const v = from[k] ?? 0;
    const at = fill[v] ?? 0;
    targets[at] = to[k] ?? 0;
    fill[v] = at + 1;
  }
  return { offsets, targets };
}

/**
 * Marks (sets to 1) every node reachable from `starts` along `adjacency`, the starts included.
 * Breadth-first with a queue, not recursion, so a 100,000-node chain cannot overflow the stack.
 *
 * @example
 * ```ts
 * const marked = new Uint8Array(4);
 * markFrom(marked, [1], adjacencyFromLists([[1], [2], [], [0]]));
 * marked; // → Uint8Array.from([0, 1, 1, 0])
 * ```
 */
export function markFrom(
  marked: Uint8Array,
  starts: ArrayLike<number>,
  adjacency: Adjacency,
): void {
  scratchScope((take) => {
    const queue = take(marked.length);
    let tail = 0;
    // eslint-disable-next-line @typescript-eslint/prefer-for-of -- an ArrayLike is not iterable
    for (let k = 0; k < starts.length; k++) {
      const s = starts[k] ?? 0;
      if (marked[s] === 1) continue;
      marked[s] = 1;
      queue[tail++] = s;
    }
    const { offsets, targets } = adjacency;
    for (let head = 0; head < tail; head++) {
      const v = queue[head] ?? 0;
      for (let k = offsets[v] ?? 0; k < (offsets[v + 1] ?? 0); k++) {
        const j = targets[k] ?? 0;
        if (marked[j] === 1) continue;
        marked[j] = 1;
        queue[tail++] = j;
      }
    }
  });
}
