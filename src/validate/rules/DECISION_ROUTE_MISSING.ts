import { pointer } from "../../model/index.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/** `FlowGraph.routeTarget` of a route to an id no node has (`"end"` is -2). */
const NOWHERE = -1;

/**
 * A decision route goes to an id that is neither a node nor `"end"`. At run time that branch has
 * nowhere to go; the flow graph drops it, so the decision may look like an exit (or a dead end)
 * that its author never meant.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "DECISION_ROUTE_MISSING",
    defaultSeverity: "error",
    description: 'A decision route\'s next is neither a node id nor "end"',
    docs: "docs/rules/DECISION_ROUTE_MISSING.md",
    messages: {
      default:
        'route {{route}} of decision "{{nodeId}}" goes to "{{next}}", which is not a node id',
    },
    remediation: 'set next to an existing node id, or to "end" to finish the run',
  },
  check(context) {
    // `report` is a method of the context, so it is called on it rather than destructured.
    const { graph } = context;
    const { routeStart, routeTarget } = graph;
    // Index loops over the resolved targets: most nodes have no routes and are never loaded.
    for (let i = 0; i < graph.nodes.length; i++) {
      const start = routeStart[i] ?? 0;
      for (let r = start, end = routeStart[i + 1] ?? 0; r < end; r++) {
        if (routeTarget[r] !== NOWHERE) continue;
        const node = graph.nodes[i];
        const route = graph.routes[i]?.[r - start];
        if (node === undefined || route === undefined) continue;
        context.report({
          target: { kind: "node", nodeId: node.id },
          path: pointer("nodes", i, "config") + route.pointerSuffix + pointer("next"),
          data: { nodeId: node.id, route: route.label, next: route.next },
        });
      }
    }
  },
});
