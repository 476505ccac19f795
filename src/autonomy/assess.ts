/**
 * The autonomy level a workflow's graph justifies (SPEC 4), with the reasons: each names the
 * feature and the nodes or edges that force it, so a reviewer can check the verdict by hand.
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
  /** Every feature present, highest level first; empty for a loop-free, branch-free graph. */
  readonly reasons: readonly AutonomyReason[];
}

const isDynamicPlanner = (n: AgentNode): boolean =>
  n.decorators?.some((d) => d.type === "planner" && d.strategy === "dynamic") === true;

function plannerNodes(wf: AgentWorkflow): string[] {
  const out: string[] = [];
  for (const n of wf.nodes) if (isDynamicPlanner(n)) out.push(n.id);
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
    if (graph.kind[i] === NODE_KIND.decision && branches(graph, i)) {
      out.push(graph.nodes[i]?.id ?? "");
    }
  }
  return out;
}

function loopNodes(graph: FlowGraph): string[] {
  // Counted first and filled at the exact length: in a workflow of loops every node is listed,
  // and a list grown by push copied itself over and over.
  let count = 0;
  for (const c of graph.cyclic) count += c;
  const out = new Array<string>(count);
  let k = 0;
  for (let i = 0; k < count; i++) if (graph.cyclic[i] === 1) out[k++] = graph.nodes[i]?.id ?? "";
  return out;
}

/**
 * Assesses the justified minimum level: 5 for a dynamic planner, else 4 for a delegate edge,
 * else 3 for a branching decision, else 2 for a loop, else 1. Never 0: level 0 is a floor an
 * author may declare, not something a graph can show. O(V+E).
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
  const planners = plannerNodes(wf);
  if (planners.length > 0) {
    reasons.push({ level: 5, feature: "dynamic-planner", nodeIds: planners, edgeIndexes: [] });
  }
  const graph = flowGraph(wf);
  if (graph.delegateEdges.length > 0) {
    const delegates = Array.from(graph.delegateEdges);
    const from = [...new Set(delegates.map((i) => wf.edges[i]?.from ?? ""))];
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
  if (wf.nodes.some(isDynamicPlanner)) return 5;
  const graph = flowGraph(wf);
  if (graph.delegateEdges.length > 0) return 4;
  for (let i = 0; i < graph.nodes.length; i++) {
    if (graph.kind[i] === NODE_KIND.decision && branches(graph, i)) return 3;
  }
  return graph.cyclic.includes(1) ? 2 : 1;
}
