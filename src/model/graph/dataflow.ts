/**
 * Forward dataflow over the flow graph's condensation: one pass in topological order answers a
 * question for every node at once ("which fields do upstream nodes declare?").
 */
import { nodeCount } from "./adjacency.js";
import type { FlowGraph } from "./view.js";

/**
 * For every node `i`, the join of `own(j)` over all nodes `j` with a path of at least one step
 * to `i`: every node upstream of `i`, every other member of `i`'s component, and `i` itself only
 * when `i` is cyclic (the same set as {@link upstreamOf}). A node with no such `j` gets `empty`.
 *
 * Components are processed in topological order; each one's outflow (its inflow joined with its
 * members' `own`) is computed once and joined into its successor components, so the whole pass
 * costs O(V+E) calls of `join` plus V calls of `own`, e.g. "fields declared by upstream nodes".
 *
 * `join` must be associative, commutative and idempotent with `empty` as identity (a
 * semilattice: set union, max, logical or), because a value can arrive along several paths.
 * `join` must not mutate its arguments: results are shared between nodes.
 *
 * @example
 * ```ts
 * import { flowGraph, forwardDataflow, getTemplate } from "agentflow/model";
 *
 * const wf = getTemplate("document-review"); // llm-extract → dec-validate → llm-classify
 * if (wf === undefined) throw new Error("no such template");
 * const graph = flowGraph(wf);
 * // for every node, the llm nodes that run before it: one pass, whatever the number of nodes
 * const llms = graph.nodes.map((node) => (node.type === "llm" ? [node.id] : []));
 * const none: string[] = [];
 * const union = (a: string[], b: string[]) => [...new Set([...a, ...b])];
 * forwardDataflow(graph, (i) => llms[i] ?? none, union, none); // → [[], ["llm-extract"], ["llm-extract"]]
 * ```
 */
export function forwardDataflow<T>(
  graph: FlowGraph,
  own: (nodeIndex: number) => T,
  join: (a: T, b: T) => T,
  empty: T,
): T[] {
  const n = graph.nodes.length;
  const components = nodeCount(graph.sccMembers);
  // A loop into an array of the final length: Array.from with a callback costs several times more.
  const ownValues = new Array<T>(n);
  for (let i = 0; i < n; i++) ownValues[i] = own(i);
  const outflow: T[] = new Array<T>(components).fill(empty);
  const result: T[] = new Array<T>(n).fill(empty);
  // stamp[d] === c + 1 means component d was already joined into component c's inflow.
  const stamp = new Int32Array(components);
  // Index loops over the CSR arrays: a for-of over 100,000 components, run once per call, and a
  // view per component and per node allocated more than the pass itself computed.
  const order = graph.sccTopoOrder;
  const { offsets: memberAt, targets: members } = graph.sccMembers;
  const { offsets: predAt, targets: preds } = graph.predecessors;
  // eslint-disable-next-line @typescript-eslint/prefer-for-of -- see above
  for (let r = 0; r < order.length; r++) {
    const c = order[r] ?? 0;
    const first = memberAt[c] ?? 0;
    const last = memberAt[c + 1] ?? 0;
    let inflow = empty;
    for (let k = first; k < last; k++) {
      const m = members[k] ?? 0;
      for (let e = predAt[m] ?? 0, end = predAt[m + 1] ?? 0; e < end; e++) {
        const d = graph.sccOf[preds[e] ?? 0] ?? c;
        if (d === c || stamp[d] === c + 1) continue;
        stamp[d] = c + 1;
        inflow = join(inflow, outflow[d] as T);
      }
    }
    let within = empty;
    for (let k = first; k < last; k++) within = join(within, ownValues[members[k] ?? 0] as T);
    const out = join(inflow, within);
    outflow[c] = out;
    // A cyclic node sees every member of its component, itself included; an acyclic one is a
    // component of its own and sees only its inflow.
    for (let k = first; k < last; k++) {
      const m = members[k] ?? 0;
      result[m] = graph.cyclic[m] === 1 ? out : inflow;
    }
  }
  return result;
}
