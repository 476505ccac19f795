/**
 * Questions about one node of a built flow graph (graph.ts), each O(1) or one traversal.
 */
import { markFrom, neighbours } from "./adjacency.js";
import type { FlowGraph } from "./view.js";
import type { Route } from "../types.js";

/** The pseudo-target of a route that finishes the run. */
const END = "end";

/**
 * Nodes with a path of at least one step to `nodeIndex`: its upstream nodes, the other members of
 * its component, and itself only when it is cyclic. O(V+E) per call, so a rule asking this for
 * every node should use {@link forwardDataflow} instead, which answers all nodes in one pass.
 *
 * @example
 * ```ts
 * import { flowGraph, getTemplate, upstreamOf } from "agentflow/model";
 *
 * const wf = getTemplate("document-review"); // llm-extract → dec-validate → llm-classify
 * if (wf === undefined) throw new Error("no such template");
 * upstreamOf(flowGraph(wf), 2); // → Uint8Array.from([1, 1, 0])
 * ```
 */
export function upstreamOf(graph: FlowGraph, nodeIndex: number): Uint8Array {
  const marked = new Uint8Array(graph.nodes.length);
  markFrom(marked, neighbours(graph.predecessors, nodeIndex), graph.predecessors);
  return marked;
}

/**
 * Whether the node lies on a cycle (including a self-loop). O(1).
 *
 * @example
 * ```ts
 * import { canReachItself, flowGraph, getTemplate } from "agentflow/model";
 *
 * const research = getTemplate("research"); // dec-3 can send the run back to llm-1
 * const review = getTemplate("document-review"); // no loop
 * if (research === undefined || review === undefined) throw new Error("no such template");
 * canReachItself(flowGraph(research), 0); // → true
 * canReachItself(flowGraph(review), 0); // → false
 * ```
 */
export function canReachItself(graph: FlowGraph, nodeIndex: number): boolean {
  return graph.cyclic[nodeIndex] === 1;
}

/**
 * Whether a route of the decision at `decisionIndex` leaves without the possibility of coming
 * back: it goes to `"end"`, to an unknown id, or to a node in another component (which, the
 * condensation being acyclic, can never reach the decision again). A route to the decision
 * itself or to a member of its component is a loop-back (a retry).
 *
 * @example
 * ```ts
 * import { flowGraph, getTemplate, isForwardRoute } from "agentflow/model";
 *
 * const wf = getTemplate("research"); // dec-3 (index 2) ends the run or retries llm-1
 * if (wf === undefined) throw new Error("no such template");
 * const graph = flowGraph(wf);
 * isForwardRoute(graph, 2, { next: "end" }); // → true
 * // a retry
 * isForwardRoute(graph, 2, { next: "llm-1" }); // → false
 * ```
 */
export function isForwardRoute(
  graph: FlowGraph,
  decisionIndex: number,
  route: Pick<Route, "next">,
): boolean {
  if (route.next === END) return true;
  const target = graph.index.get(route.next);
  if (target === undefined) return true;
  return graph.sccOf[target] !== graph.sccOf[decisionIndex];
}

/**
 * {@link isForwardRoute} for the route at flat index `route` (`graph.routeStart[decisionIndex] +
 * k` for its `k`-th route), read from the targets the graph resolved, with no id lookup.
 *
 * @example
 * ```ts
 * import { flowGraph, getTemplate, isForwardRouteAt } from "agentflow/model";
 *
 * const wf = getTemplate("research"); // dec-3 (index 2): onTrue ends the run, onFalse retries llm-1
 * if (wf === undefined) throw new Error("no such template");
 * const graph = flowGraph(wf);
 * const start = graph.routeStart[2] ?? 0;
 * isForwardRouteAt(graph, 2, start); // → true
 * isForwardRouteAt(graph, 2, start + 1); // → false
 * ```
 */
export function isForwardRouteAt(graph: FlowGraph, decisionIndex: number, route: number): boolean {
  const target = graph.routeTarget[route] ?? -1;
  // -2: "end", -1: no node has the id.
  return target < 0 || graph.sccOf[target] !== graph.sccOf[decisionIndex];
}
