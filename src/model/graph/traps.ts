/**
 * Loops judged cycle by cycle rather than component by component: the nodes from which a run can
 * be kept from every exit, and the cycles among a subset of nodes. A strongly connected component
 * with one member that can leave still holds cycles that never pass that member; the loop rules
 * ask these two functions instead. Both are iterative and O(V+E).
 */
import type { Adjacency } from "./adjacency.js";
import { nodeCount } from "./adjacency.js";
import { tarjanScc } from "./scc.js";
import type { Take } from "./scratch.js";
import { scratchScope } from "./scratch.js";

/** Shared by every call that finds no cycle. */
const NO_CYCLES: Adjacency = Object.freeze({
  offsets: new Int32Array(1),
  targets: new Int32Array(0),
});

/**
 * Marks with 1 every node from which the run can go on forever without reaching an exit, when a
 * node marked in `steers` takes a way out whenever one of its successors offers one, and every
 * other node may take any of its successors. A node escapes when it is marked in `exits`, has no
 * successor (the run stops there), steers to a successor that escapes, or does not steer and
 * every successor escapes; every other node is trapped.
 *
 * A steering node is a choice made on data that may go either way; the others (an edge, a
 * judgement in prose) promise nothing, so a way out must not depend on them. The set of trapped
 * nodes is empty exactly when every cycle can be left: a trapped region always holds a cycle
 * whose steering nodes have all their successors inside it. The escaping nodes are an attractor,
 * grown backwards from the exits with a counter per node: O(V+E), no recursion.
 *
 * @param take - where the result and the temporaries come from; the result is valid as long as
 *   the caller's scratch scope.
 *
 * @example
 * ```ts
 * // 0 → 1 → 0, 1 → 2; node 2 is an exit
 * const successors = adjacencyFromLists([[1], [0, 2], []]);
 * const predecessors = reverseAdjacency(successors);
 * const exits = Uint8Array.from([0, 0, 1]);
 * const trapped = (steers: Uint8Array) =>
 *   scratchScope((take) => [...trappedNodes(take, successors, predecessors, exits, steers)]);
 * trapped(Uint8Array.from([0, 0, 0])); // → [1, 1, 0]
 * // node 1 chooses, and can choose node 2
 * trapped(Uint8Array.from([0, 1, 0])); // → [0, 0, 0]
 * ```
 */
export function trappedNodes(
  take: Take,
  successors: Adjacency,
  predecessors: Adjacency,
  exits: ArrayLike<number>,
  steers: ArrayLike<number>,
): Int32Array {
  const n = nodeCount(successors);
  const trapped = take(n);
  scratchScope((inner) => {
    // Per node, how many successors have not escaped yet (0 once the node has escaped).
    const waiting = inner(n);
    const queue = inner(n);
    let tail = 0;
    for (let v = 0; v < n; v++) {
      const degree = (successors.offsets[v + 1] ?? 0) - (successors.offsets[v] ?? 0);
      if (exits[v] === 1 || degree === 0) queue[tail++] = v;
      else {
        waiting[v] = degree;
        trapped[v] = 1;
      }
    }
    const { offsets, targets } = predecessors;
    for (let head = 0; head < tail; head++) {
      const w = queue[head] ?? 0;
      for (let k = offsets[w] ?? 0; k < (offsets[w + 1] ?? 0); k++) {
        const p = targets[k] ?? 0;
        if (trapped[p] !== 1) continue;
        const left = steers[p] === 1 ? 0 : (waiting[p] ?? 0) - 1;
        waiting[p] = left;
        if (left > 0) continue;
        trapped[p] = 0;
        queue[tail++] = p;
      }
    }
  });
  return trapped;
}

/**
 * The cycles among the nodes marked 1 in `keep`: the strongly connected components of the
 * subgraph they induce that have several members, or one member with an edge to itself. As an
 * adjacency: component `c`'s members, ascending, are `neighbours(result, c)`; components come in
 * the order of their first members. The subgraph is renumbered to the kept nodes, so a few kept
 * nodes in a large graph cost their own edges and one pass over the graph. Reuses
 * {@link tarjanScc}; O(V+E), iterative.
 *
 * @example
 * ```ts
 * // 0 → 1 → 0 → 2 → 3 → 2, 4 → 4
 * const successors = adjacencyFromLists([[1, 2], [0], [3], [2], [4]]);
 * adjacencyToLists(cyclesAmong(successors, [1, 1, 1, 1, 1])); // → [[0, 1], [2, 3], [4]]
 * adjacencyToLists(cyclesAmong(successors, [1, 1, 1, 0, 0])); // → [[0, 1]]
 * ```
 */
export function cyclesAmong(successors: Adjacency, keep: ArrayLike<number>): Adjacency {
  const n = nodeCount(successors);
  return scratchScope((take) => {
    // Kept node → its index in the subgraph + 1 (0: not kept), and back.
    const local = take(n);
    const original = take(n);
    let count = 0;
    for (let v = 0; v < n; v++) {
      if (keep[v] !== 1) continue;
      original[count] = v;
      local[v] = ++count;
    }
    if (count === 0) return NO_CYCLES;
    const { offsets, targets } = successors;
    const subOffsets = take(count + 1);
    for (let u = 0; u < count; u++) {
      const v = original[u] ?? 0;
      let inside = 0;
      for (let k = offsets[v] ?? 0; k < (offsets[v + 1] ?? 0); k++) {
        if (local[targets[k] ?? 0] !== 0) inside++;
      }
      subOffsets[u + 1] = (subOffsets[u] ?? 0) + inside;
    }
    const subTargets = take(subOffsets[count] ?? 0);
    const selfLoop = take(count);
    for (let u = 0, at = 0; u < count; u++) {
      const v = original[u] ?? 0;
      for (let k = offsets[v] ?? 0; k < (offsets[v + 1] ?? 0); k++) {
        const w = (local[targets[k] ?? 0] ?? 0) - 1;
        if (w < 0) continue;
        subTargets[at++] = w;
        if (w === u) selfLoop[u] = 1;
      }
    }
    const { sccOf, sccMembers } = tarjanScc({ offsets: subOffsets, targets: subTargets });
    const size = (c: number): number =>
      (sccMembers.offsets[c + 1] ?? 0) - (sccMembers.offsets[c] ?? 0);
    // A component's members are ascending, so its first member is the first one met here.
    const cyclic = (u: number): boolean => {
      const c = sccOf[u] ?? 0;
      return (
        sccMembers.targets[sccMembers.offsets[c] ?? 0] === u && (size(c) > 1 || selfLoop[u] === 1)
      );
    };
    let components = 0;
    let members = 0;
    for (let u = 0; u < count; u++) {
      if (!cyclic(u)) continue;
      components++;
      members += size(sccOf[u] ?? 0);
    }
    if (components === 0) return NO_CYCLES;
    const result = { offsets: new Int32Array(components + 1), targets: new Int32Array(members) };
    for (let u = 0, c = 0, at = 0; u < count; u++) {
      if (!cyclic(u)) continue;
      const s = sccOf[u] ?? 0;
      for (let k = sccMembers.offsets[s] ?? 0; k < (sccMembers.offsets[s + 1] ?? 0); k++) {
        result.targets[at++] = original[sccMembers.targets[k] ?? 0] ?? 0;
      }
      result.offsets[++c] = at;
    }
    return result;
  });
}
