/**
 * The flow graph's data (graph.ts builds it): plain read-only fields, and the routes, which are
 * built on first read.
 */
import type { Adjacency } from "./adjacency.js";
import type { DecisionRoute } from "./routes.js";
import { decisionRoutes } from "./routes.js";
import type { AgentNode } from "../types.js";

/**
 * Read-only graph data indexed by node position in `wf.nodes`. The typed arrays must not be
 * mutated: the graph is memoised and shared. Every field is data except `routes`, which is built
 * on first read (a spread of the graph does not copy it; read it by name).
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
  /**
   * Routes per node in evaluation order; empty for `llm` and `tool` nodes. Built on first read:
   * the graph itself needs only their targets ({@link FlowGraph.routeTarget}), and a decision
   * with 100,000 cases has 100,000 route objects, with a label and a pointer string each.
   */
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
  /**
   * 1 when an exit, or a decision with a route to an id no node has, is reachable from the node.
   * A route to a missing id is its own finding (DECISION_ROUTE_MISSING); read as a way out here,
   * it tells which traps hold only because of that route, so that one mistake makes one finding.
   * The same array as {@link canReachExit} when no route is broken.
   */
  readonly canReachExitOrBrokenRoute: Uint8Array;
}

/** Shared by every llm/tool node: they have no routes. */
const NO_ROUTES: readonly DecisionRoute[] = Object.freeze([]);

/** The values of {@link FlowGraph.kind}; 0 is any other `type`. */
export const NODE_KIND = { llm: 1, tool: 2, decision: 3 } as const;

/**
 * Every node's routes, built at the final length (a push per node grew and copied a
 * 100,000-element array), not by `nodes.map`, which would call a constructor a hostile document
 * set on the array.
 */
function routesOfNodes(
  nodes: readonly AgentNode[],
  kind: Uint8Array,
): (readonly DecisionRoute[])[] {
  const routes = new Array<readonly DecisionRoute[]>(nodes.length).fill(NO_ROUTES);
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    if (kind[i] === NODE_KIND.decision && node?.type === "decision") {
      routes[i] = decisionRoutes(node.config);
    }
  }
  return routes;
}

/**
 * A {@link FlowGraph} whose routes are built on first read. A class, with the getter on its
 * prototype: an object literal with a getter made every read of the graph's other fields
 * slower, and every validation with them.
 */
export class GraphView implements FlowGraph {
  readonly nodes: readonly AgentNode[];
  readonly kind: Uint8Array;
  readonly index: ReadonlyMap<string, number>;
  readonly firstOf: Int32Array;
  readonly edgeSource: Int32Array;
  readonly edgeTarget: Int32Array;
  readonly delegateEdges: Int32Array;
  readonly routeStart: Int32Array;
  readonly routeTarget: Int32Array;
  readonly successors: Adjacency;
  readonly predecessors: Adjacency;
  readonly sccOf: Int32Array;
  readonly sccMembers: Adjacency;
  readonly sccTopoOrder: readonly number[];
  readonly cyclic: Uint8Array;
  readonly entry: number | undefined;
  readonly reachable: Uint8Array;
  readonly endsRun: Uint8Array;
  readonly canReachExit: Uint8Array;
  readonly canReachExitOrBrokenRoute: Uint8Array;
  #routes: (readonly DecisionRoute[])[] | undefined;

  /** Takes every field but the routes, which it builds from `nodes` when first read. */
  constructor(data: Omit<FlowGraph, "routes">) {
    this.nodes = data.nodes;
    this.kind = data.kind;
    this.index = data.index;
    this.firstOf = data.firstOf;
    this.edgeSource = data.edgeSource;
    this.edgeTarget = data.edgeTarget;
    this.delegateEdges = data.delegateEdges;
    this.routeStart = data.routeStart;
    this.routeTarget = data.routeTarget;
    this.successors = data.successors;
    this.predecessors = data.predecessors;
    this.sccOf = data.sccOf;
    this.sccMembers = data.sccMembers;
    this.sccTopoOrder = data.sccTopoOrder;
    this.cyclic = data.cyclic;
    this.entry = data.entry;
    this.reachable = data.reachable;
    this.endsRun = data.endsRun;
    this.canReachExit = data.canReachExit;
    this.canReachExitOrBrokenRoute = data.canReachExitOrBrokenRoute;
  }

  /** See {@link FlowGraph.routes}. */
  get routes(): readonly (readonly DecisionRoute[])[] {
    this.#routes ??= routesOfNodes(this.nodes, this.kind);
    return this.#routes;
  }
}
