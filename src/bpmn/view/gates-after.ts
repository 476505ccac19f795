/**
 * Which gates some path from each agent task meets (the fact model's `gates`), for every task at
 * once: one bitset of gates per strongly connected component, filled sinks first over the
 * condensation, so that a task's gates are the union of its successors' components' sets.
 * O((V+E) · G/32) for G gates, against O(T · (V+E)) for a search per task — which made a pack
 * reading `gates` quadratic in processes with many agent tasks.
 */
import { neighbours, tarjanScc } from "../../model/index.js";
import type { PreparedProcess } from "../analysis.js";
import { downstreamOf } from "../gate-reach.js";

/** The gates (flow node indexes, in the walk's order) some path after `vertex` meets. */
export type GatesAfter = (vertex: number) => number[];

/** Builds the sets for the prepared process. */
export function gatesAfter(prepared: PreparedProcess): GatesAfter {
  const { graph } = prepared;
  const gates = prepared.gates.map((g) => g.node);
  const bitOf = new Int32Array(graph.kinds.length).fill(-1);
  gates.forEach((node, i) => (bitOf[node] = i));
  const words = Math.max(1, Math.ceil(gates.length / 32));
  const { sccOf, sccMembers } = tarjanScc(graph.successors);
  const components = sccMembers.offsets.length - 1;
  const bits = new Uint32Array(components * words);
  // Tarjan emits components sinks first: every edge goes to a component with a lower id.
  for (let c = 0; c < components; c++) {
    const own = c * words;
    for (const v of neighbours(sccMembers, c)) {
      const bit = bitOf[v] ?? -1;
      if (bit >= 0) bits[own + (bit >>> 5)] = (bits[own + (bit >>> 5)] ?? 0) | (1 << (bit & 31));
      for (const s of neighbours(graph.successors, v)) {
        const other = (sccOf[s] ?? c) * words;
        if (other === own) continue;
        for (let w = 0; w < words; w++)
          bits[own + w] = (bits[own + w] ?? 0) | (bits[other + w] ?? 0);
      }
    }
  }
  return (vertex) => {
    const union = new Uint32Array(words);
    for (const start of downstreamOf(graph, vertex)) {
      const from = (sccOf[start] ?? 0) * words;
      for (let w = 0; w < words; w++) union[w] = (union[w] ?? 0) | (bits[from + w] ?? 0);
    }
    return gates.filter((_, i) => ((union[i >>> 5] ?? 0) & (1 << (i & 31))) !== 0);
  };
}
