import { pointer } from "../../model/index.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * A decision route that can come back to the same decision (a retry) must declare `maxRetries`:
 * without it the loop is bounded by nothing the workflow states.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "RETRY_WITHOUT_MAX",
    defaultSeverity: "error",
    description: "A decision route loops back without maxRetries",
    docs: "docs/rules/RETRY_WITHOUT_MAX.md",
    messages: {
      default:
        'route {{route}} of decision "{{nodeId}}" goes back to "{{next}}", which leads to "{{nodeId}}" again, and declares no maxRetries',
    },
    remediation: "add maxRetries to the route (for example 3) so the loop has a stated bound",
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
  },
});
