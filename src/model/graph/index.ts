/**
 * The flow graph of a workflow (SPEC 2.5): one shared view per workflow with its adjacency, edges,
 * decision routes, strongly connected components, upstream and dataflow queries, and the scratch
 * arrays its algorithms reuse.
 */
export type { Adjacency } from "./adjacency.js";
export {
  adjacencyFromEdges,
  adjacencyFromLists,
  adjacencyToLists,
  neighbours,
  nodeCount,
  reverseAdjacency,
} from "./adjacency.js";
export type { FlowGraph, SccResult } from "./flow-graph.js";
export {
  buildFlowGraph,
  canReachItself,
  flowGraph,
  forwardDataflow,
  isForwardRoute,
  isForwardRouteAt,
  NODE_KIND,
  upstreamOf,
} from "./flow-graph.js";
export type { DecisionRoute, RouteVisitor } from "./routes.js";
export {
  decisionRoutes,
  forEachRoute,
  isMultiway,
  ROUTE_SOURCE,
  routeLabel,
  routePointerSuffix,
} from "./routes.js";
export { tarjanScc } from "./scc.js";
export type { Take } from "./scratch.js";
export { scratchScope } from "./scratch.js";
export { cyclesAmong, trappedNodes } from "./traps.js";
export type { UpstreamQuery } from "./upstream.js";
export { upstreamAnswers, upstreamAnswersOf } from "./upstream.js";
