/**
 * The flow graph view of a workflow (SPEC 2.2), built once and shared by every rule, autonomy and
 * the simulator, so all graph questions together cost O(V+E) instead of a search per node.
 * Every traversal is iterative: a 100,000-node chain must not overflow the stack.
 */

import { decisionRoutes, type DecisionRoute } from "./routes.js";
import type { Adjacency } from "./adjacency.js";
import { markFrom, reverseAdjacency } from "./adjacency.js";
import { flowEdges } from "./graph-edges.js";
import { indexIds } from "./id-index.js";
import { tarjanScc } from "./scc.js";
import { scratchScope } from "./scratch.js";
import type { AgentWorkflow, AgentNode } from "./types.js";

/**
 * Plain, read-only graph data indexed by node position in `wf.nodes`. The typed arrays must not be
 * mutated: the graph is memoised and shared.
 */
export interface FlowGraph {
  /** The workflow's nodes, in document order. */
  readonly nodes: readonly AgentNode[];
  /**
   * Per node, its `type` as a number (`NODE_KIND`: 1 llm, 2 tool, 3 decision, 0 anything else).
   * A rule that concerns one type reads this instead of the node: at 100,000 nodes the node
   * objects do not fit in the cache, and loading one costs about ten times reading a byte here.
   */
  readonly kind: Uint8Array;
  /**
   * Node id → index of its first occurrence. A duplicated id resolves to its first node for edges
   * and routes, so a later duplicate has no incoming flow and (unless it is a decision, which
   * carries its own routes) no outgoing flow either; the duplicate itself is reported by a rule.
   * A read-only map backed by a hash table over typed arrays, not a `Map` instance (`new
   * Map(index)` copies it).
   */
  readonly index: ReadonlyMap<string, number>;
  /**
   * Per node, the index of the first node with the same id (itself when it is the first). Rules
   * read it instead of asking `index` again: at 100,000 ids every string-keyed lookup is a cache
   * miss, and each lookup done once here is one fewer in every rule.
   */
  readonly firstOf: Int32Array;
  /** Per edge, the node index of `from`, or -1 when no node has that id. */
  readonly edgeSource: Int32Array;
  /** Per edge, the node index of `to`, or -1 when no node has that id or the edge delegates. */
  readonly edgeTarget: Int32Array;
  /**
   * The indexes of the `delegate` edges, ascending. Rules about delegation walk this list rather
   * than every edge: a workflow of 100,000 edges rarely has more than a few delegations.
   */
  readonly delegateEdges: Int32Array;
  /** Routes per node in evaluation order; empty for `llm` and `tool` nodes. */
  readonly routes: readonly (readonly DecisionRoute[])[];
  /**
   * Per route, its target resolved once: node `i`'s `k`-th route (`routes[i][k]`) is
   * `routeTarget[routeStart[i] + k]`: a node index, -2 for `"end"`, or -1 when no node has that
   * id. Rules read it instead of looking the id up again.
   */
  readonly routeStart: Int32Array;
  /** See {@link FlowGraph.routeStart}. */
  readonly routeTarget: Int32Array;
  /**
   * Flow successors per node, first occurrence kept. Decision: route targets in route order
   * (`"end"` and unknown ids excluded); its outgoing edges are documentation and carry no flow.
   * `llm`/`tool`: `to` of outgoing non-delegate edges in edge order, unknown ids excluded.
   */
  readonly successors: Adjacency;
  /** Flow predecessors per node, ascending. */
  readonly predecessors: Adjacency;
  /** Component id per node; see {@link SccResult.sccOf} for the id order. */
  readonly sccOf: Int32Array;
  /** Members of each component, in document order: `neighbours(sccMembers, c)`. */
  readonly sccMembers: Adjacency;
  /** Component ids in topological order, sources first. */
  readonly sccTopoOrder: readonly number[];
  /** 1 when the node can reach itself: its component has several members, or it loops on itself. */
  readonly cyclic: Uint8Array;
  /**
   * The first node, in document order, whose component has no predecessor outside itself (a
   * source of the condensation). Every such node has no forward predecessor; requiring the whole
   * component to be a source also rules out a node that is only entered through a cycle which
   * is itself entered from elsewhere. `undefined` only when there are no nodes.
   */
  readonly entry: number | undefined;
  /** 1 when the node is reachable from the entry (the entry included). */
  readonly reachable: Uint8Array;
  /** 1 for exits: nodes with no successors, and decisions with a route to `"end"`. */
  readonly endsRun: Uint8Array;
  /** 1 when some exit is reachable from the node (exits included). */
  readonly canReachExit: Uint8Array;
}

export type { SccResult } from "./scc.js";

/** Shared by every llm/tool node: they have no routes. */
const NO_ROUTES: readonly DecisionRoute[] = Object.freeze([]);

/** The values of {@link FlowGraph.kind}; 0 is any other `type`. */
export const NODE_KIND = { llm: 1, tool: 2, decision: 3 } as const;

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
  // Built at its final length (a push per node grew and copied a 100,000-element array), and not
  // by `nodes.map`, which would call a constructor a hostile document set on the array.
  const routes = new Array<readonly DecisionRoute[]>(n).fill(NO_ROUTES);
  // Types and routes are read in the same pass as the ids, while each node is in the cache.
  const { index, firstOf } = indexIds(nodes, (i, node) => {
    // A `type` outside the three (an unvalidated document) keeps kind 0.
    const type: string = node.type;
    if (type === "llm") kind[i] = NODE_KIND.llm;
    else if (type === "tool") kind[i] = NODE_KIND.tool;
    else if (node.type === "decision") {
      kind[i] = NODE_KIND.decision;
      routes[i] = decisionRoutes(node.config);
    }
  });
  const routeStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) routeStart[i + 1] = (routeStart[i] ?? 0) + (routes[i]?.length ?? 0);

  const { edgeSource, edgeTarget, delegateEdges, routeTarget, successors, endsRun, selfLoop } =
    flowEdges({
      edges: wf.edges,
      isDecision: (i) => kind[i] === NODE_KIND.decision,
      routes,
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

  return {
    nodes,
    kind,
    index,
    firstOf,
    edgeSource,
    edgeTarget,
    delegateEdges,
    routes,
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
  };
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

export { canReachItself, isForwardRoute, upstreamOf } from "./graph-queries.js";
export { forwardDataflow } from "./dataflow.js";
