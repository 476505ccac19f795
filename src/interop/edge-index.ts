/**
 * Grouping helpers the importers and exports share. Looking up a node's edges by scanning every
 * edge makes an export quadratic on a long chain (100,000 nodes and edges), so the edges are
 * grouped once, in place.
 */
import type { AgentEdge, AgentWorkflow, DecisionNode, DecisionRoute } from "../model/index.js";
import { decisionRoutes } from "../model/index.js";

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

/**
 * A decision's routes, read once per export: `decisionRoutes` builds an object per route, and an
 * export that reads a decision of 100,000 cases twice (to plan, then to write it) paid twice.
 * Keyed by the node itself, within one export of an unchanging workflow.
 */
export function routesOnce(): (node: DecisionNode) => readonly DecisionRoute[] {
  const read = new Map<DecisionNode, readonly DecisionRoute[]>();
  return (node) => {
    let routes = read.get(node);
    if (routes === undefined) read.set(node, (routes = decisionRoutes(node.config)));
    return routes;
  };
}
