/**
 * Grouping helpers the importers and exports share. Looking up a node's edges by scanning every
 * edge makes an export quadratic on a long chain (100,000 nodes and edges), so the edges are
 * grouped once, in place.
 */
import type { AgentEdge, AgentWorkflow } from "../model/index.js";

/** A flow edge with its index in `wf.edges` (for the warning's pointer). */
export interface IndexedEdge {
  readonly e: AgentEdge;
  readonly j: number;
}

/**
 * Appends `value` to the list of `key`, in place. Copying the list for each value
 * (`map.set(key, [...old, value])`) is quadratic when one key gets 100,000 values.
 */
export function appendTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/**
 * The flow edges (every edge but `delegate`) of `wf`, grouped by their `end` (`"from"` or `"to"`)
 * node id, each group in `wf.edges` order. One pass, O(E).
 */
export function flowEdgesBy(wf: AgentWorkflow, end: "from" | "to"): Map<string, IndexedEdge[]> {
  const index = new Map<string, IndexedEdge[]>();
  wf.edges.forEach((e, j) => {
    if (e.edgeType !== "delegate") appendTo(index, e[end], { e, j });
  });
  return index;
}

/**
 * The flow edges leaving a node, by id: the index is built on the first look-up, so an export
 * that never asks (a workflow without decisions) does not build it.
 */
export function flowEdgesFrom(wf: AgentWorkflow): (id: string) => readonly IndexedEdge[] {
  let index: Map<string, IndexedEdge[]> | undefined;
  return (id) => {
    index ??= flowEdgesBy(wf, "from");
    return index.get(id) ?? [];
  };
}
