/**
 * The flow graph view of a workflow (SPEC 2.2), built once and shared by every rule, autonomy and
 * the simulator, so all graph questions together cost O(V+E) instead of a search per node.
 * Every traversal is iterative: a 100,000-node chain must not overflow the stack.
 */

import type { RouteVisitor } from "./routes.js";
import { forEachRoute } from "./routes.js";
import type { FlowGraph } from "./view.js";
import { GraphView, NODE_KIND } from "./view.js";
import type { Adjacency } from "./adjacency.js";
import { markFrom, reverseAdjacency } from "./adjacency.js";
import { flowEdges } from "./edges.js";
import { indexIds } from "./id-index.js";
import { tarjanScc } from "./scc.js";
import { scratchScope } from "./scratch.js";
import type { AgentWorkflow } from "../types.js";

export type { FlowGraph } from "./view.js";
export { NODE_KIND } from "./view.js";
export type { SccResult } from "./scc.js";

/**
 * Builds the flow graph of a workflow. O(V+E). Prefer {@link flowGraph}, which memoises.
 *
 * @example
 * ```ts
 * import { buildFlowGraph, getTemplate } from "agentflow/model";
 *
 * const wf = getTemplate("document-review"); // llm-extract → dec-validate → llm-classify
 * if (wf === undefined) throw new Error("no such template");
 * const graph = buildFlowGraph(wf);
 * graph.entry; // → 0
 * graph.index.get("llm-classify"); // → 2
 * // dec-validate can route to "end", llm-classify has no successor
 * graph.endsRun; // → Uint8Array.from([0, 1, 1])
 * ```
 */
export function buildFlowGraph(wf: AgentWorkflow): FlowGraph {
  const nodes = wf.nodes;
  const n = nodes.length;
  const kind = new Uint8Array(n);
  const routeStart = new Int32Array(n + 1);
  let counted = 0;
  const count: RouteVisitor = () => {
    counted += 1;
  };
  // Types and route counts are read in the same pass as the ids, while each node is in the cache.
  const { index, firstOf } = indexIds(nodes, (i, node) => {
    // A `type` outside the three (an unvalidated document) keeps kind 0.
    const type: string = node.type;
    if (type === "llm") kind[i] = NODE_KIND.llm;
    else if (type === "tool") kind[i] = NODE_KIND.tool;
    else if (node.type === "decision") {
      kind[i] = NODE_KIND.decision;
      counted = 0;
      forEachRoute(node.config, count);
      routeStart[i + 1] = counted;
    }
  });
  for (let i = 0; i < n; i++) routeStart[i + 1] = (routeStart[i + 1] ?? 0) + (routeStart[i] ?? 0);
  // One adapter for all decisions: no closure per node.
  let sink: (next: string) => void = () => undefined;
  const toSink: RouteVisitor = (_source, route) => {
    sink(route.next);
  };

  const { edgeSource, edgeTarget, delegateEdges, routeTarget, successors, endsRun, selfLoop } =
    flowEdges({
      edges: wf.edges,
      isDecision: (i) => kind[i] === NODE_KIND.decision,
      routesOf: (i, visit) => {
        const node = nodes[i];
        if (node?.type !== "decision") return;
        sink = visit;
        forEachRoute(node.config, toSink);
      },
      routeStart,
      // Edges and routes mostly name a node next to the one named just before, so that node is
      // compared first: at 100,000 ids a table probe is a cache miss, and checking the guess
      // reads memory the previous lookup already brought in.
      resolve: (id, guess) =>
        nodes[guess]?.id === id && firstOf[guess] === guess ? guess : index.get(id),
    });
  const predecessors = reverseAdjacency(successors);

  const { sccOf, sccMembers, sccTopoOrder } = tarjanScc(successors);
  const cyclic = selfLoop;
  for (let c = 0; c < sccMembers.offsets.length - 1; c++) {
    const start = sccMembers.offsets[c] ?? 0;
    const end = sccMembers.offsets[c + 1] ?? 0;
    if (end - start > 1) for (let k = start; k < end; k++) cyclic[sccMembers.targets[k] ?? 0] = 1;
  }

  const entry = findEntry(n, predecessors, sccOf, firstOf);
  const reachable = new Uint8Array(n);
  if (entry !== undefined) markFrom(reachable, [entry], successors);
  const canReachExit = new Uint8Array(n);
  scratchScope((take) => {
    const exits = take(n);
    let count = 0;
    endsRun.forEach((e, i) => {
      if (e === 1) exits[count++] = i;
    });
    markFrom(canReachExit, exits.subarray(0, count), predecessors);
  });
  // Decisions with a route to a missing id (-1), read as ways out: one mistake, one finding.
  let canReachExitOrBrokenRoute = canReachExit;
  scratchScope((take) => {
    const broken = take(n);
    let count = 0;
    for (let i = 0; i < n; i++) {
      for (let r = routeStart[i] ?? 0; r < (routeStart[i + 1] ?? 0); r++) {
        if (routeTarget[r] === -1 && canReachExit[i] === 0) {
          broken[count++] = i;
          break;
        }
      }
    }
    if (count === 0) return;
    canReachExitOrBrokenRoute = canReachExit.slice();
    markFrom(canReachExitOrBrokenRoute, broken.subarray(0, count), predecessors);
  });

  return new GraphView({
    nodes,
    kind,
    index,
    firstOf,
    edgeSource,
    edgeTarget,
    delegateEdges,
    routeStart,
    routeTarget,
    successors,
    predecessors,
    sccOf,
    sccMembers,
    sccTopoOrder,
    cyclic,
    entry,
    reachable,
    endsRun,
    canReachExit,
    canReachExitOrBrokenRoute,
  });
}

/**
 * First node in document order whose component has no incoming edge from another component. A
 * repeated id never receives flow, so it would be a spurious source: a first-of-id node is
 * preferred, and any source is taken only when every source is a repeat.
 */
function findEntry(
  n: number,
  predecessors: Adjacency,
  sccOf: Int32Array,
  firstOf: Int32Array,
): number | undefined {
  return scratchScope((take) => {
    const entered = take(n); // per component id; there are at most n components
    const { offsets, targets } = predecessors;
    for (let i = 0; i < n; i++) {
      const c = sccOf[i] ?? 0;
      for (let k = offsets[i] ?? 0; k < (offsets[i + 1] ?? 0); k++) {
        if (sccOf[targets[k] ?? 0] !== c) entered[c] = 1;
      }
    }
    let fallback: number | undefined;
    for (let i = 0; i < n; i++) {
      if (entered[sccOf[i] ?? 0] !== 0) continue;
      if (firstOf[i] === i) return i;
      fallback ??= i;
    }
    return fallback;
  });
}

const memo = new WeakMap<AgentWorkflow, FlowGraph>();

/**
 * The flow graph of a workflow, built on first use and shared afterwards (keyed by the workflow
 * object, held weakly). Workflows are treated as immutable: a document edited in place after its
 * graph was built keeps the old graph, so build a new object (or call {@link buildFlowGraph}).
 *
 * @example
 * ```ts
 * import { flowGraph, getTemplate, neighbours } from "agentflow/model";
 *
 * const wf = getTemplate("research"); // llm-1 → tool-2 → dec-3, which retries llm-1 or ends
 * if (wf === undefined) throw new Error("no such template");
 * const graph = flowGraph(wf);
 * // built once per workflow object
 * flowGraph(wf) === graph; // → true
 * [...neighbours(graph.successors, 2)].map((i) => graph.nodes[i]?.id); // → ["llm-1"]
 * graph.routes[2]?.map((r) => r.label); // → ["onTrue", "onFalse"]
 * ```
 */
export function flowGraph(wf: AgentWorkflow): FlowGraph {
  let graph = memo.get(wf);
  if (graph === undefined) {
    graph = buildFlowGraph(wf);
    memo.set(wf, graph);
  }
  return graph;
}

export { canReachItself, isForwardRoute, isForwardRouteAt, upstreamOf } from "./queries.js";
export { forwardDataflow } from "./dataflow.js";
