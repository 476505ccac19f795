import { neighbours, NODE_KIND, pointer } from "../../model/index.js";
import type { Adjacency, FlowGraph } from "../../model/index.js";
import { cyclesAmong, scratchScope } from "../../model/internal.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/** At most this many member ids are listed in `members`; `size` stays exact. */
const MAX_LISTED = 20;

/**
 * Every cycle must pass a decision route that states a bound: a route that can come back to its
 * decision (a retry) must declare `maxRetries`, and a cycle that passes no decision route at all
 * (llm and tool nodes whose edges lead round) has nowhere to declare one. Judged cycle by cycle,
 * not per strongly connected component: a bounded retry elsewhere in the component does not
 * bound a cycle that never takes it.
 *
 * A cycle through an unbounded route is reported once, at that route; with every route set
 * aside, what still goes round is a loop of edges alone, reported once per loop on its first
 * member. O(V+E).
 */
export const rule: Rule = defineRule({
  meta: {
    code: "RETRY_WITHOUT_MAX",
    defaultSeverity: "error",
    description: "A loop passes no decision route with maxRetries",
    docs: "docs/rules/RETRY_WITHOUT_MAX.md",
    messages: {
      default:
        'route {{route}} of decision "{{nodeId}}" goes back to "{{next}}", which leads to "{{nodeId}}" again, and declares no maxRetries',
      edgeLoop:
        'the loop through "{{nodeId}}" ({{size}} node(s): {{members}}) passes no decision route, so no maxRetries bounds it',
    },
    remediation:
      "add maxRetries to the route (for example 3), or send the loop through a decision whose route back declares it, so the loop has a stated bound",
  },
  check({ graph, report }) {
    const { routeStart, routeTarget, sccOf } = graph;
    // Index loops over the resolved targets: most nodes have no routes and are never loaded.
    for (let i = 0; i < graph.nodes.length; i++) {
      const start = routeStart[i] ?? 0;
      for (let r = start, end = routeStart[i + 1] ?? 0; r < end; r++) {
        const target = routeTarget[r] ?? -1; // -1, -2: no node, "end"
        if (target < 0 || sccOf[target] !== sccOf[i]) continue;
        const node = graph.nodes[i];
        const route = graph.routes[i]?.[r - start];
        if (node === undefined || route === undefined || route.maxRetries !== undefined) continue;
        report({
          target: { kind: "node", nodeId: node.id },
          path: pointer("nodes", i, "config") + route.pointerSuffix,
          data: { nodeId: node.id, route: route.label, next: route.next },
        });
      }
    }
    const loops = edgeLoops(graph);
    for (let c = 0; c < loops.offsets.length - 1; c++) {
      const members = neighbours(loops, c);
      const at = members[0] ?? 0;
      const node = graph.nodes[at];
      if (node === undefined) continue;
      report({
        messageId: "edgeLoop",
        target: { kind: "node", nodeId: node.id },
        path: pointer("nodes", at),
        data: {
          nodeId: node.id,
          members: Array.from(members.subarray(0, MAX_LISTED), (m) => graph.nodes[m]?.id ?? ""),
          size: members.length,
        },
      });
    }
  },
});

/**
 * The cycles that pass no decision: a decision's only way on is a route, so with decisions left
 * out, what still goes round are llm and tool edges alone. Only nodes on some cycle are kept.
 */
function edgeLoops(graph: FlowGraph): Adjacency {
  const n = graph.nodes.length;
  return scratchScope((take) => {
    const keep = take(n);
    for (let i = 0; i < n; i++) {
      if (graph.cyclic[i] === 1 && graph.kind[i] !== NODE_KIND.decision) keep[i] = 1;
    }
    return cyclesAmong(graph.successors, keep);
  });
}
