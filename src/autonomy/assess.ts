/**
 * The autonomy level a workflow's graph justifies (SPEC 4), with the reasons: each names the
 * feature and the nodes or edges that force it, so a reviewer can check the verdict by hand.
 */
import type { AgentWorkflow, AutonomyLevel } from "../model/index.js";
import { flowGraph, isForwardRoute } from "../model/index.js";

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

function plannerNodes(wf: AgentWorkflow): string[] {
  return wf.nodes
    .filter((n) => n.decorators?.some((d) => d.type === "planner" && d.strategy === "dynamic"))
    .map((n) => n.id);
}

function delegateEdges(wf: AgentWorkflow): number[] {
  const out: number[] = [];
  wf.edges.forEach((e, i) => {
    if (e.edgeType === "delegate") out.push(i);
  });
  return out;
}

/**
 * Decisions with two *different* forward routes: a forward route goes to `"end"` or to a node
 * that cannot reach the decision again. Two routes that both end the run do not branch.
 */
function branchingDecisions(wf: AgentWorkflow): string[] {
  const graph = flowGraph(wf);
  const out: string[] = [];
  graph.routes.forEach((routes, i) => {
    if (routes.length < 2) return;
    // Two distinct forward targets are enough; no set per node (100,000 nodes, 100,000 sets).
    let first: string | undefined;
    // A route to an unknown id can never run, so it is no branch (DECISION_ROUTE_MISSING blocks
    // it); counting it would add a second, derived error to the one that matters.
    for (const route of routes) {
      const exists = route.next === "end" || graph.index.has(route.next);
      if (!exists || !isForwardRoute(graph, i, route)) continue;
      if (first === undefined) first = route.next;
      else if (route.next !== first) {
        out.push(graph.nodes[i]?.id ?? "");
        return;
      }
    }
  });
  return out;
}

function loopNodes(wf: AgentWorkflow): string[] {
  const graph = flowGraph(wf);
  const out: string[] = [];
  graph.cyclic.forEach((c, i) => {
    if (c === 1) out.push(graph.nodes[i]?.id ?? "");
  });
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
  const delegates = delegateEdges(wf);
  if (delegates.length > 0) {
    const from = [...new Set(delegates.map((i) => wf.edges[i]?.from ?? ""))];
    reasons.push({ level: 4, feature: "delegation", nodeIds: from, edgeIndexes: delegates });
  }
  const branching = branchingDecisions(wf);
  if (branching.length > 0) {
    reasons.push({ level: 3, feature: "branching-decision", nodeIds: branching, edgeIndexes: [] });
  }
  const loops = loopNodes(wf);
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
  return assessAutonomy(wf).level;
}
