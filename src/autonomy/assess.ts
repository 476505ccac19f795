/**
 * The autonomy level a workflow's graph justifies (SPEC 4), with the reasons: each names the
 * feature and the nodes or edges that force it, so a reviewer can check the verdict by hand.
 *
 * A feature counts only where a run can reach it. Levels 4 and 5 need less of a human gate than
 * 0-3, so a feature that never runs (on a node the entry cannot reach, or a delegate edge drawn
 * out of a decision, whose edges carry no flow) would raise the level and drop the gate the
 * graph that does run needs.
 */
import type { AgentNode, AgentWorkflow, AutonomyLevel, FlowGraph } from "../model/index.js";
import { flowGraph, isForwardRouteAt, NODE_KIND } from "../model/index.js";

/** The graph features that raise the level. */
export type AutonomyFeature = "dynamic-planner" | "delegation" | "branching-decision" | "loop";

/** One reason for a level. */
export interface AutonomyReason {
  readonly level: AutonomyLevel;
  readonly feature: AutonomyFeature;
  /** Node ids that carry the feature, in document order. */
  readonly nodeIds: readonly string[];
  /** Edge indexes that carry the feature (delegation), in document order. */
  readonly edgeIndexes: readonly number[];
}

/** The outcome of {@link assessAutonomy}. */
export interface AutonomyAssessment {
  /** The justified minimum: the highest level any feature forces, at least 1. */
  readonly level: AutonomyLevel;
  /**
   * Every feature a run can reach, highest level first; empty for a loop-free, branch-free graph
   * (and for an empty one, which has no entry).
   */
  readonly reasons: readonly AutonomyReason[];
}

const isDynamicPlanner = (n: AgentNode | undefined): boolean =>
  n?.decorators?.some((d) => d.type === "planner" && d.strategy === "dynamic") === true;

/**
 * Whether node `i` can run: the entry reaches it. The byte first, so that an unreachable node's
 * object is never loaded; an empty workflow has no entry, so nothing in it runs.
 */
const runs = (graph: FlowGraph, i: number): boolean => graph.reachable[i] === 1;

/** Whether node `i` runs and rewrites its plan: a dynamic planner on any reachable node. */
const plansAt = (graph: FlowGraph, i: number): boolean =>
  runs(graph, i) && isDynamicPlanner(graph.nodes[i]);

/**
 * Whether delegate edge `k` can hand work over in a run: it leaves a node that runs and does
 * work (an `llm` or `tool` node: anything but a decision, as the flow graph and the simulator
 * read a node). A decision only picks a route; its edges document the routes and carry nothing
 * (docs/model.md). An edge from an id no node has (-1) leaves nothing that runs.
 */
function delegatesAt(graph: FlowGraph, k: number): boolean {
  const from = graph.edgeSource[k] ?? -1;
  return from >= 0 && runs(graph, from) && graph.kind[from] !== NODE_KIND.decision;
}

/** Whether decision `i` runs and branches. */
const branchesAt = (graph: FlowGraph, i: number): boolean =>
  graph.kind[i] === NODE_KIND.decision && runs(graph, i) && branches(graph, i);

/** Whether node `i` runs and can run again: a loop a run enters. */
const loopsAt = (graph: FlowGraph, i: number): boolean => graph.cyclic[i] === 1 && runs(graph, i);

function plannerNodes(graph: FlowGraph): string[] {
  const out: string[] = [];
  for (let i = 0; i < graph.nodes.length; i++) {
    if (plansAt(graph, i)) out.push(graph.nodes[i]?.id ?? "");
  }
  return out;
}

function delegations(graph: FlowGraph): number[] {
  const out: number[] = [];
  for (const k of graph.delegateEdges) if (delegatesAt(graph, k)) out.push(k);
  return out;
}

/**
 * Whether decision `i` has two *different* forward routes: a forward route goes to `"end"` or to
 * a node in another component, which cannot reach the decision again. Two routes that both end
 * the run do not branch. Reads the targets the graph resolved: no id lookup per route.
 */
function branches(graph: FlowGraph, i: number): boolean {
  const { routeStart, routeTarget } = graph;
  // Two distinct forward targets are enough; no set per node (100,000 nodes, 100,000 sets).
  let first = NONE;
  for (let r = routeStart[i] ?? 0; r < (routeStart[i + 1] ?? 0); r++) {
    const target = routeTarget[r] ?? UNKNOWN;
    // A route to an unknown id can never run, so it is no branch (DECISION_ROUTE_MISSING blocks
    // it); counting it would add a second, derived error to the one that matters.
    if (target === UNKNOWN || !isForwardRouteAt(graph, i, r)) continue;
    if (first === NONE) first = target;
    else if (target !== first) return true;
  }
  return false;
}

/** `routeTarget` of a route to an id no node has (model/graph/edges.ts). */
const UNKNOWN = -1;
/** No forward target seen yet; never a `routeTarget` value. */
const NONE = -3;

function branchingDecisions(graph: FlowGraph): string[] {
  const out: string[] = [];
  for (let i = 0; i < graph.nodes.length; i++) {
    if (branchesAt(graph, i)) out.push(graph.nodes[i]?.id ?? "");
  }
  return out;
}

function loopNodes(graph: FlowGraph): string[] {
  // Counted first and filled at the exact length: in a workflow of loops every node is listed,
  // and a list grown by push copied itself over and over.
  let count = 0;
  for (let i = 0; i < graph.nodes.length; i++) if (loopsAt(graph, i)) count++;
  const out = new Array<string>(count);
  let k = 0;
  for (let i = 0; k < count; i++) if (loopsAt(graph, i)) out[k++] = graph.nodes[i]?.id ?? "";
  return out;
}

/**
 * Assesses the justified minimum level: 5 for a dynamic planner, else 4 for a delegate edge,
 * else 3 for a branching decision, else 2 for a loop, else 1; each counted only where a run
 * reaches it (a delegate edge only from a reachable `llm` or `tool` node, never a decision).
 * Never 0: level 0 is a floor an author may declare, not something a graph can show. An empty
 * workflow has no entry and runs nothing: 1. O(V+E).
 *
 * @example
 * ```ts
 * import { assessAutonomy } from "agentflow/autonomy";
 * import { getTemplate } from "agentflow/model";
 *
 * const research = getTemplate("research");
 * if (research === undefined) throw new Error("no such template");
 * assessAutonomy(research);
 * // → {
 * //     level: 2,
 * //     reasons: [{ level: 2, feature: "loop", nodeIds: ["llm-1", "tool-2", "dec-3"], edgeIndexes: [] }],
 * //   }
 * ```
 */
export function assessAutonomy(wf: AgentWorkflow): AutonomyAssessment {
  const reasons: AutonomyReason[] = [];
  const graph = flowGraph(wf);
  const planners = plannerNodes(graph);
  if (planners.length > 0) {
    reasons.push({ level: 5, feature: "dynamic-planner", nodeIds: planners, edgeIndexes: [] });
  }
  const delegates = delegations(graph);
  if (delegates.length > 0) {
    const from = [...new Set(delegates.map((k) => wf.edges[k]?.from ?? ""))];
    reasons.push({ level: 4, feature: "delegation", nodeIds: from, edgeIndexes: delegates });
  }
  const branching = branchingDecisions(graph);
  if (branching.length > 0) {
    reasons.push({ level: 3, feature: "branching-decision", nodeIds: branching, edgeIndexes: [] });
  }
  const loops = loopNodes(graph);
  if (loops.length > 0) {
    reasons.push({ level: 2, feature: "loop", nodeIds: loops, edgeIndexes: [] });
  }
  return { level: reasons[0]?.level ?? 1, reasons };
}

/**
 * The justified minimum level alone; declaring it or higher is coherent.
 *
 * @example
 * ```ts
 * import { minCoherentLevel } from "agentflow/autonomy";
 * import { getTemplate } from "agentflow/model";
 *
 * const review = getTemplate("document-review"); // a decision that branches
 * if (review === undefined) throw new Error("no such template");
 * minCoherentLevel(review); // → 3
 * // declaring the justified level or higher is coherent
 * review.autonomyLevel >= minCoherentLevel(review); // → true
 * ```
 */
export function minCoherentLevel(wf: AgentWorkflow): AutonomyLevel {
  // The level alone, from the highest feature down, stopping at the first present: no list of
  // node ids (every node of a workflow of loops), which the assessment builds for its reasons.
  // The same predicates as the assessment, so the two cannot disagree.
  const graph = flowGraph(wf);
  const n = graph.nodes.length;
  for (let i = 0; i < n; i++) if (plansAt(graph, i)) return 5;
  for (const k of graph.delegateEdges) if (delegatesAt(graph, k)) return 4;
  for (let i = 0; i < n; i++) if (branchesAt(graph, i)) return 3;
  for (let i = 0; i < n; i++) if (loopsAt(graph, i)) return 2;
  return 1;
}
