import { pointer } from "../../model/index.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * Two nodes share an id. Edges and routes bind to the first, so the second node silently never
 * runs (or runs with the wrong wiring): a reviewer cannot tell which one was meant.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "DUPLICATE_NODE_ID",
    defaultSeverity: "error",
    description: "Two nodes share an id",
    docs: "docs/rules/DUPLICATE_NODE_ID.md",
    messages: {
      default: 'node id "{{nodeId}}" at /nodes/{{index}} is already used by /nodes/{{firstIndex}}',
    },
    remediation: "give every node a unique id and update the edges and routes that should reach it",
  },
  check({ workflow, graph, report }) {
    workflow.nodes.forEach((node, index) => {
      const firstIndex = graph.firstOf[index] ?? index;
      if (firstIndex === index) return;
      report({
        target: { kind: "node", nodeId: node.id },
        path: pointer("nodes", index, "id"),
        data: { nodeId: node.id, index, firstIndex },
      });
    });
  },
});
