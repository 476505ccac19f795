import { pointer } from "../../model/index.js";
import type { Rule } from "../types.js";

/**
 * A decision route that can come back to the same decision (a retry) must declare `maxRetries`:
 * without it the loop is bounded by nothing the workflow states.
 */
export const rule: Rule = {
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
    graph.routes.forEach((routes, i) => {
      const node = graph.nodes[i];
      if (node === undefined) return;
      for (const route of routes) {
        if (route.maxRetries !== undefined) continue;
        const target = graph.index.get(route.next);
        if (target === undefined || graph.sccOf[target] !== graph.sccOf[i]) continue;
        report({
          target: { kind: "node", nodeId: node.id },
          path: pointer("nodes", i, "config") + route.pointerSuffix,
          data: { nodeId: node.id, route: route.label, next: route.next },
        });
      }
    });
  },
};
