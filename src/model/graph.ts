/**
 * The flow graph view of a workflow (SPEC 2.2), built once and shared by every rule, autonomy and
 * the simulator, so all graph questions together cost O(V+E) instead of a search per node.
 * Every traversal is iterative: a 100,000-node chain must not overflow the stack.
 */

import { decisionRoutes, type DecisionRoute } from "./routes.js";
import type { Adjacency } from "./adjacency.js";
import { neighbours, reverseAdjacency } from "./adjacency.js";
import { tarjanScc } from "./scc.js";
import type { AgentWorkflow, AgentNode, Route } from "./types.js";

/**
 * Plain, read-only graph data indexed by node position in `wf.nodes`. The typed arrays must not be
 * mutated: the graph is memoised and shared.
 */
export interface FlowGraph {
  /** The workflow's nodes, in document order. */
  readonly nodes: readonly AgentNode[];
  /**
   * Node id → index of its first occurrence. A duplicated id resolves to its first node for edges
   * and routes, so a later duplicate has no incoming flow and (unless it is a decision, which
   * carries its own routes) no outgoing flow either; the duplicate itself is reported by a rule.
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
  /** Routes per node in evaluation order; empty for `llm` and `tool` nodes. */
  readonly routes: readonly (readonly DecisionRoute[])[];
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

/** The pseudo-target of a route that finishes the run. */
const END = "end";

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
  const index = new Map<string, number>();
  const firstOf = new Int32Array(n);
  nodes.forEach((node, i) => {
    const first = index.get(node.id);
    if (first === undefined) index.set(node.id, i);
    firstOf[i] = first ?? i;
  });

  // Edges and routes mostly name a node next to the one named just before (documents list edges
  // in order), so that node is compared first: at 100,000 ids a Map probe is a cache miss, and
  // checking the guess reads memory the previous lookup already brought in.
  const resolve = (key: string, guess: number): number | undefined =>
    nodes[guess]?.id === key && firstOf[guess] === guess ? guess : index.get(key);

  const routes: (readonly DecisionRoute[])[] = [];
  let capacity = 0;
  for (const node of nodes) {
    const list = node.type === "decision" ? decisionRoutes(node.config) : NO_ROUTES;
    routes.push(list);
    capacity += list.length;
  }

  // Edge targets are grouped per source first (a counting sort into flat arrays, so no array per
  // node), so that each node's successors are added in one contiguous run: the dedup stamp in
  // `add` is only valid within such a run.
  const edgeFrom = new Int32Array(wf.edges.length).fill(-1);
  const edgeTo = new Int32Array(wf.edges.length);
  const offset = new Int32Array(n + 1);
  const edgeSource = new Int32Array(wf.edges.length);
  const edgeTarget = new Int32Array(wf.edges.length);
  let near = 0;
  wf.edges.forEach((edge, k) => {
    const from = resolve(edge.from, near);
    const to = edge.edgeType === "delegate" ? undefined : resolve(edge.to, (from ?? near) + 1);
    near = to ?? from ?? near;
    edgeSource[k] = from ?? -1;
    edgeTarget[k] = to ?? -1;
    if (from === undefined || to === undefined) return;
    edgeFrom[k] = from;
    edgeTo[k] = to;
    offset[from + 1] = (offset[from + 1] ?? 0) + 1;
  });
  for (let i = 0; i < n; i++) offset[i + 1] = (offset[i + 1] ?? 0) + (offset[i] ?? 0);
  const cursor = offset.slice(0, n);
  const grouped = new Int32Array(offset[n] ?? 0);
  edgeFrom.forEach((from, k) => {
    if (from < 0) return;
    const at = cursor[from] ?? 0;
    grouped[at] = edgeTo[k] ?? 0;
    cursor[from] = at + 1;
  });

  const succOffsets = new Int32Array(n + 1);
  const succTargets = new Int32Array(capacity + grouped.length);
  const endsRun = new Uint8Array(n);
  const cyclic = new Uint8Array(n);
  // seen[j] === i + 1 means j is already a successor of i: dedup in O(1) without a Set per node.
  const seen = new Int32Array(n);
  let count = 0;
  const add = (from: number, to: number | undefined): void => {
    if (to === undefined || seen[to] === from + 1) return;
    seen[to] = from + 1;
    succTargets[count++] = to;
    if (to === from) cyclic[from] = 1;
  };
  for (let i = 0; i < n; i++) {
    if (nodes[i]?.type === "decision") {
      // Edges leaving a decision are documentation; only its routes carry flow.
      for (const route of routes[i] ?? NO_ROUTES) {
        if (route.next === END) endsRun[i] = 1;
        else add(i, resolve(route.next, i + 1));
      }
    } else {
      const end = offset[i + 1] ?? 0;
      for (let k = offset[i] ?? 0; k < end; k++) add(i, grouped[k]);
    }
    succOffsets[i + 1] = count;
    if (count === (succOffsets[i] ?? 0)) endsRun[i] = 1;
  }
  const successors: Adjacency = { offsets: succOffsets, targets: succTargets.slice(0, count) };
  const predecessors = reverseAdjacency(successors);

  const { sccOf, sccMembers, sccTopoOrder } = tarjanScc(successors);
  for (let c = 0; c < sccMembers.offsets.length - 1; c++) {
    const start = sccMembers.offsets[c] ?? 0;
    const end = sccMembers.offsets[c + 1] ?? 0;
    if (end - start > 1) for (let k = start; k < end; k++) cyclic[sccMembers.targets[k] ?? 0] = 1;
  }

  const entry = findEntry(n, predecessors, sccOf, (i) => index.get(nodes[i]?.id ?? "") === i);
  const reachable = new Uint8Array(n);
  if (entry !== undefined) mark(reachable, [entry], successors);
  const exits: number[] = [];
  endsRun.forEach((e, i) => {
    if (e === 1) exits.push(i);
  });
  const canReachExit = new Uint8Array(n);
  mark(canReachExit, exits, predecessors);

  return {
    nodes,
    index,
    firstOf,
    edgeSource,
    edgeTarget,
    routes,
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

/** First node in document order whose component has no incoming edge from another component. */
function findEntry(
  n: number,
  predecessors: Adjacency,
  sccOf: Int32Array,
  isFirstOfId: (i: number) => boolean,
): number | undefined {
  const entered = new Uint8Array(n); // per component id; there are at most n components
  const { offsets, targets } = predecessors;
  for (let i = 0; i < n; i++) {
    const c = sccOf[i] ?? 0;
    for (let k = offsets[i] ?? 0; k < (offsets[i + 1] ?? 0); k++) {
      if (sccOf[targets[k] ?? 0] !== c) entered[c] = 1;
    }
  }
  // A repeated id never receives flow, so it would be a spurious source: prefer a first-of-id
  // node, and fall back to any source only when every source is a repeat.
  let fallback: number | undefined;
  for (let i = 0; i < n; i++) {
    if (entered[sccOf[i] ?? 0] !== 0) continue;
    if (isFirstOfId(i)) return i;
    fallback ??= i;
  }
  return fallback;
}

/** Breadth-first marking from `starts` (marked too) along `adjacency`; a queue, not recursion. */
function mark(marked: Uint8Array, starts: ArrayLike<number>, adjacency: Adjacency): void {
  const queue = new Int32Array(marked.length);
  let tail = 0;
  for (const s of Array.from(starts)) {
    if (marked[s] === 1) continue;
    marked[s] = 1;
    queue[tail++] = s;
  }
  const { offsets, targets } = adjacency;
  for (let head = 0; head < tail; head++) {
    const v = queue[head] ?? 0;
    for (let k = offsets[v] ?? 0; k < (offsets[v + 1] ?? 0); k++) {
      const j = targets[k] ?? 0;
      if (marked[j] === 1) continue;
      marked[j] = 1;
      queue[tail++] = j;
    }
  }
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
  mark(marked, neighbours(graph.predecessors, nodeIndex), graph.predecessors);
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

export { forwardDataflow } from "./dataflow.js";
