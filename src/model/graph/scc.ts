/**
 * Strongly connected components of the flow graph (Tarjan), iterative so that a long chain of
 * nodes cannot overflow the call stack (browsers and Node have stacks of ~10k frames).
 */

import type { Adjacency } from "./adjacency.js";
import { nodeCount } from "./adjacency.js";
import { scratchScope } from "./scratch.js";

/** The components of a directed graph. */
export interface SccResult {
  /**
   * Component id per node. Ids are Tarjan's emission order, which is a reverse topological order
   * of the condensation: every edge between two components goes from a higher id to a lower one.
   */
  readonly sccOf: Int32Array;
  /**
   * Members of each component, ascending (document order), as a CSR adjacency: component `c`'s
   * members are `neighbours(sccMembers, c)`. One array per component was a measurable share of
   * the garbage at 100,000 nodes, where most components have one member.
   */
  readonly sccMembers: Adjacency;
  /** Component ids in topological order, sources first. */
  readonly sccTopoOrder: readonly number[];
}

/**
 * Tarjan's algorithm with an explicit call stack. Each frame is a node plus the position of the
 * next successor to visit, so resuming a frame after a "recursive" visit is just reading the
 * pointer again. Roots are taken in index order and successors in list order, which makes the
 * result deterministic for a given document. O(V+E) time, O(V) extra space (scratch arrays).
 *
 * @example
 * ```ts
 * import { adjacencyFromLists, tarjanScc } from "agentflow/model";
 *
 * // 0 → 1 → 2 → 1 (a loop between 1 and 2), 2 → 3
 * const { sccOf, sccTopoOrder } = tarjanScc(adjacencyFromLists([[1], [2], [1, 3], []]));
 * sccOf[1] === sccOf[2]; // → true
 * sccOf[0] === sccOf[1]; // → false
 * // sources first: {0}, then {1, 2}, then {3}
 * sccTopoOrder.map((c) => sccOf.indexOf(c)); // → [0, 1, 3]
 * ```
 */
export function tarjanScc(successors: Adjacency): SccResult {
  const n = nodeCount(successors);
  const { offsets, targets } = successors;
  const sccOf = new Int32Array(n).fill(-1);
  // The temporaries are scratch arrays (see scratch.ts); only the results are allocated.
  const components = scratchScope((take) => {
    // Discovery index + 1 (0 = unvisited), and the smallest one reachable (low-link), also + 1.
    const order = take(n);
    const low = take(n);
    const stack = take(n);
    const frameNode = take(n);
    const frameNext = take(n);
    let sp = 0;
    let fp = 0;
    let counter = 0;
    let count = 0;
    const enter = (v: number): void => {
      counter++;
      order[v] = counter;
      low[v] = counter;
      stack[sp++] = v;
      frameNode[fp] = v;
      frameNext[fp] = 0;
      fp++;
    };
    for (let root = 0; root < n; root++) {
      if (order[root] !== 0) continue;
      enter(root);
      while (fp > 0) {
        const v = at(frameNode, fp - 1);
        const e = at(frameNext, fp - 1);
        const k = at(offsets, v) + e;
        if (k < at(offsets, v + 1)) {
          frameNext[fp - 1] = e + 1;
          const w = at(targets, k);
          if (at(order, w) === 0) enter(w);
          // A visited node is on the stack exactly until its component is assigned.
          else if (sccOf[w] === -1) low[v] = Math.min(at(low, v), at(order, w));
          continue;
        }
        fp--;
        if (at(low, v) === at(order, v)) {
          // v is the root of a component: everything above it on the stack belongs to it.
          let w: number;
          do {
            w = at(stack, --sp);
            sccOf[w] = count;
          } while (w !== v);
          count++;
        }
        if (fp > 0) {
          const u = at(frameNode, fp - 1);
          low[u] = Math.min(at(low, u), at(low, v));
        }
      }
    }
    return count;
  });

  // Counting sort by component; a pass in index order keeps members sorted without a sort.
  const memberOffsets = new Int32Array(components + 1);
  for (let i = 0; i < n; i++)
    memberOffsets[at(sccOf, i) + 1] = at(memberOffsets, at(sccOf, i) + 1) + 1;
  for (let c = 0; c < components; c++)
    memberOffsets[c + 1] = at(memberOffsets, c + 1) + at(memberOffsets, c);
  const members = new Int32Array(n);
  scratchScope((take) => {
    const fill = take(components);
    fill.set(memberOffsets.subarray(0, components));
    for (let i = 0; i < n; i++) {
      const c = at(sccOf, i);
      members[at(fill, c)] = i;
      fill[c] = at(fill, c) + 1;
    }
  });
  const sccMembers: Adjacency = { offsets: memberOffsets, targets: members };
  return { sccOf, sccMembers, sccTopoOrder: descending(components) };
}

/** The last {@link descending} array: graphs of one size, validated again and again, share it. */
let lastDescending: readonly number[] = Object.freeze([]);

/**
 * `[count - 1, …, 1, 0]`, frozen (it is shared). At 100,000 components a fresh array per graph
 * was a 400 KB object for the garbage collector to promote when a collection caught it alive.
 */
function descending(count: number): readonly number[] {
  if (lastDescending.length !== count) {
    const order = new Array<number>(count);
    for (let k = 0; k < count; k++) order[k] = count - 1 - k;
    lastDescending = Object.freeze(order);
  }
  return lastDescending;
}

/** Typed-array read without `undefined` in the type; indices here are always in range. */
function at(array: Int32Array, i: number): number {
  return array[i] ?? 0;
}
