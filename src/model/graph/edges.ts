/**
 * The flow of the graph view (graph.ts): every edge's endpoints and every route's target resolved
 * once, and each node's successors in CSR form. The temporaries are scratch arrays (scratch.ts):
 * at 100,000 nodes, fresh ones were a third of the typed arrays a validation allocated.
 */
import type { Adjacency } from "./adjacency.js";
import { scratchScope } from "./scratch.js";
import type { AgentEdge } from "../types.js";

/** The pseudo-target of a route that finishes the run. */
const END = "end";

/** `routeTarget` of a route to `"end"`, and of a route to an id no node has. */
const ROUTE_TO_END = -2;
const ROUTE_TO_NOWHERE = -1;

/** What {@link flowEdges} resolves; see the fields of the same names on `FlowGraph`. */
export interface FlowEdges {
  readonly edgeSource: Int32Array;
  readonly edgeTarget: Int32Array;
  readonly delegateEdges: Int32Array;
  readonly routeTarget: Int32Array;
  readonly successors: Adjacency;
  readonly endsRun: Uint8Array;
  /** 1 for a node that is its own successor; the caller adds the members of larger cycles. */
  readonly selfLoop: Uint8Array;
}

/** The nodes' routes and how to find a node by id, as graph.ts has them. */
export interface FlowInput {
  readonly edges: readonly AgentEdge[];
  /** Whether node `i` is a decision: its routes carry its flow, its outgoing edges are documentation. */
  readonly isDecision: (i: number) => boolean;
  /**
   * Calls `visit` with the `next` of each of decision `i`'s routes, in route order: the routes
   * themselves are not built (graph.ts builds them only when asked for).
   */
  readonly routesOf: (i: number, visit: (next: string) => void) => void;
  /** Node `i`'s routes are `routeStart[i] .. routeStart[i + 1]` in the flat route order. */
  readonly routeStart: Int32Array;
  /** The first node with the id (checking `guess` first), or `undefined`. */
  readonly resolve: (id: string, guess: number) => number | undefined;
}

/**
 * Resolves the edges and routes and builds the successor lists (first occurrence kept). O(V+E).
 *
 * @example
 * ```ts
 * const ids = ["a", "b"];
 * const flow = flowEdges({
 *   edges: [{ from: "a", to: "b", edgeType: "data" }],
 *   isDecision: () => false,
 *   routesOf: () => undefined,
 *   routeStart: new Int32Array(3),
 *   resolve: (id) => (ids.includes(id) ? ids.indexOf(id) : undefined),
 * });
 * flow.successors.targets; // → Int32Array.from([1])
 * flow.endsRun; // → Uint8Array.from([0, 1])
 * ```
 */
export function flowEdges(input: FlowInput): FlowEdges {
  const { edges, routesOf, routeStart, resolve } = input;
  const n = routeStart.length - 1;
  const m = edges.length;
  const edgeSource = new Int32Array(m);
  const edgeTarget = new Int32Array(m);
  const delegates: number[] = [];
  // Edges mostly name the node after the one named just before (documents list edges in
  // order), so that node is the guess.
  let near = 0;
  edges.forEach((edge, k) => {
    const from = resolve(edge.from, near);
    const delegate = edge.edgeType === "delegate";
    if (delegate) delegates.push(k);
    const to = delegate ? undefined : resolve(edge.to, (from ?? near) + 1);
    near = to ?? from ?? near;
    edgeSource[k] = from ?? -1;
    edgeTarget[k] = to ?? -1;
  });

  const routeTarget = new Int32Array(routeStart[n] ?? 0);
  const succOffsets = new Int32Array(n + 1);
  const endsRun = new Uint8Array(n);
  const selfLoop = new Uint8Array(n);
  const targets = scratchScope((take) => {
    // Edge targets grouped per source (a counting sort), so that each node's successors are added
    // in one contiguous run: the dedup stamp in `add` is only valid within such a run.
    const offset = take(n + 1);
    for (let k = 0; k < m; k++) {
      const from = edgeSource[k] ?? -1;
      if (from >= 0 && (edgeTarget[k] ?? -1) >= 0) offset[from + 1] = (offset[from + 1] ?? 0) + 1;
    }
    for (let i = 0; i < n; i++) offset[i + 1] = (offset[i + 1] ?? 0) + (offset[i] ?? 0);
    const grouped = take(offset[n] ?? 0);
    const cursor = take(n);
    cursor.set(offset.subarray(0, n));
    for (let k = 0; k < m; k++) {
      const from = edgeSource[k] ?? -1;
      const to = edgeTarget[k] ?? -1;
      if (from < 0 || to < 0) continue;
      const at = cursor[from] ?? 0;
      grouped[at] = to;
      cursor[from] = at + 1;
    }

    const succTargets = take((routeStart[n] ?? 0) + grouped.length);
    // seen[j] === i + 1 means j is already a successor of i: dedup in O(1) without a Set per node.
    const seen = take(n);
    let count = 0;
    const add = (from: number, to: number | undefined): void => {
      if (to === undefined || seen[to] === from + 1) return;
      seen[to] = from + 1;
      succTargets[count++] = to;
      if (to === from) selfLoop[from] = 1;
    };
    // The state of the decision being read, for the one route visitor shared by all decisions.
    let decision = 0;
    let guess = 0;
    let at = 0;
    const visitRoute = (next: string): void => {
      let target = ROUTE_TO_END;
      if (next === END) endsRun[decision] = 1;
      else {
        const to = resolve(next, guess);
        add(decision, to);
        target = to ?? ROUTE_TO_NOWHERE;
        if (to !== undefined) guess = to + 1;
      }
      routeTarget[at++] = target;
    };
    for (let i = 0; i < n; i++) {
      if (input.isDecision(i)) {
        // The guess: the node after the decision, then the node after the previous target (the
        // cases of a wide decision usually list the nodes in order).
        decision = i;
        guess = i + 1;
        at = routeStart[i] ?? 0;
        routesOf(i, visitRoute);
      } else {
        const end = offset[i + 1] ?? 0;
        for (let k = offset[i] ?? 0; k < end; k++) add(i, grouped[k]);
      }
      succOffsets[i + 1] = count;
      if (count === (succOffsets[i] ?? 0)) endsRun[i] = 1;
    }
    return succTargets.slice(0, count); // out of the scratch pool
  });
  return {
    edgeSource,
    edgeTarget,
    delegateEdges: Int32Array.from(delegates),
    routeTarget,
    successors: { offsets: succOffsets, targets },
    endsRun,
    selfLoop,
  };
}
