/**
 * A decision exported to AgentOS as a `router` node AgentOS's own runtime can run. Its own
 * condition is the empty expression `''`: it names no target, so `GraphRuntime.evaluateEdges`
 * follows the router's `conditional` edges, one per route, each with the route's expression
 * (`expression.ts`). When a condition has no expression form the router keeps a
 * `{ type: "function" }` condition, which the host must supply before AgentOS can run it
 * (AgentOS's own `toIR()` writes the same), declared. Also declared: the routes AgentOS's
 * scheduler does not run as agentflow does (a loop; what follows a route not taken; a target
 * the route does not pick but reaches, or that a branch joins into: `route-skips.ts`).
 */
import type { DecisionNode, DecisionRoute, FlowGraph } from "../../model/index.js";
import { isForwardRoute, neighbours, pointer } from "../../model/index.js";
import type { ExportWarnings } from "../warnings.js";
import { OUTPUT_PATH, routeExpressions } from "./expression.js";
import type { SkipOf } from "./route-skips.js";
import { guessed, omitted } from "../warnings.js";

/** An AgentOS `GraphCondition` as JSON can hold it. */
export type GraphCondition =
  { readonly type: "expression"; readonly expr: string } | { readonly type: "function" };

/** The router node and, per route in route order, the condition of its conditional edge. */
export interface RouterExport {
  readonly node: Record<string, unknown>;
  readonly conditions: readonly GraphCondition[];
  /** Whether an expression reads the output: every other node then keeps it at `output`. */
  readonly readsOutput: boolean;
}

/** Declares each route AgentOS's scheduler does not follow as agentflow does. */
function declareFlow(
  node: DecisionNode,
  i: number,
  routes: readonly DecisionRoute[],
  graph: FlowGraph,
  skipOf: SkipOf | undefined,
  warnings: ExportWarnings,
): void {
  const config = pointer("nodes", i, "config");
  const targets = new Set(routes.map((r) => r.next));
  const id = (v: number): string => graph.nodes[v]?.id ?? "";
  for (const r of routes) {
    const at = `${config}${r.pointerSuffix}`;
    const skip = skipOf?.(r.next === "end" ? undefined : graph.index.get(r.next));
    if (skip !== undefined) {
      const [skipped, after, from] = [id(skip.skipped), id(skip.after), id(skip.from)];
      const path = !skip.alongRoute
        ? `after '${after}' whenever a run reaches '${after}' on a path that does not pass '${node.id}' (from the entry '${from}')`
        : after === r.next
          ? `right after '${after}'`
          : `after '${after}', which '${r.next}' reaches`;
      warnings.add("target skipped", () =>
        omitted(
          at,
          `decision '${node.id}': when it routes to '${r.next}', AgentOS marks skipped each target it does not pick, '${skipped}' among them, and never runs a node marked skipped, even once its other predecessors are done; agentflow runs '${skipped}' on that route ${path}`,
          { nodeId: node.id, next: r.next, skipped, after, reachedFrom: from },
        ),
      );
    }
    if (!isForwardRoute(graph, i, r)) {
      warnings.add("loop route", () =>
        omitted(
          at,
          `decision '${node.id}': the route to '${r.next}' closes a cycle, which AgentOS does not run: its scheduler runs each node once, when every predecessor is done (and its validator refuses cycles unless requireAcyclic is false)`,
          { nodeId: node.id, next: r.next },
        ),
      );
      continue;
    }
    const target = graph.index.get(r.next);
    if (target === undefined || targets.size < 2) continue;
    if (neighbours(graph.successors, target).length > 0)
      warnings.add("route not taken", () =>
        omitted(
          at,
          `decision '${node.id}': when the route to '${r.next}' is not taken, AgentOS skips '${r.next}' only and still runs the nodes after it once their predecessors are done`,
          { nodeId: node.id, next: r.next },
        ),
      );
  }
}

/**
 * Exports one decision as a router: the node, the condition of each route's conditional edge,
 * and its warnings (the decision's reading of `output` as a `HEURISTIC`; conditions with no
 * expression form, `maxRetries`, loops, routes not taken and the targets `skipOf` finds a route
 * skips as `NOT_EXPORTABLE`).
 */
export function exportRouter(
  node: DecisionNode,
  i: number,
  routes: readonly DecisionRoute[],
  graph: FlowGraph,
  skipOf: SkipOf | undefined,
  warnings: ExportWarnings,
): RouterExport {
  const config = pointer("nodes", i, "config");
  const written = routeExpressions(routes, node.config.conditionLanguage);
  if ("expressions" in written && written.readsOutput)
    warnings.add("decision expression", () =>
      guessed(
        config,
        `decision '${node.id}': its conditions read ${OUTPUT_PATH}, the output of the last node before it (every node keeps its output there); agentflow reads the merged output of every node so far, and stops where a field is absent, which AgentOS reads as undefined`,
        { nodeId: node.id, reads: OUTPUT_PATH },
      ),
    );
  routes.forEach((r, k) => {
    const { condition } = r;
    if ("refused" in written && condition !== undefined) {
      const reason =
        written.refused.get(k) ??
        written.refused.get(-1) ??
        "another condition of this decision has none";
      warnings.add("decision condition", () =>
        omitted(
          `${config}${r.pointerSuffix}`,
          `decision '${node.id}': condition ${JSON.stringify(condition)} has no AgentOS expression form (${reason}); the router gets a function condition the host must supply before AgentOS can run it`,
          { nodeId: node.id, reason },
        ),
      );
    }
    if (r.maxRetries !== undefined)
      warnings.add("maxRetries", () =>
        omitted(
          `${config}${r.pointerSuffix}/maxRetries`,
          `decision '${node.id}': maxRetries has no AgentOS form`,
          { nodeId: node.id },
        ),
      );
  });
  declareFlow(node, i, routes, graph, skipOf, warnings);
  const expressions = "expressions" in written ? written.expressions : undefined;
  const conditions = routes.map((_, k): GraphCondition => {
    const expr = expressions?.[k];
    return expr === undefined ? { type: "function" } : { type: "expression", expr };
  });
  const own: GraphCondition =
    expressions === undefined ? { type: "function" } : { type: "expression", expr: "''" };
  return {
    node: {
      id: node.id,
      type: "router",
      executorConfig: { type: "router", condition: own },
      executionMode: "single_turn",
      checkpoint: "none",
      effectClass: "pure",
    },
    conditions,
    readsOutput: "expressions" in written && written.readsOutput,
  };
}
