import { pointer } from "../../model/index.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * A node the entry cannot reach never runs. It is dead weight at best; at worst a reviewer
 * believes a check (a validation step, a review) happens when it never does.
 *
 * A repeated id is left to DUPLICATE_NODE_ID: edges and routes bind to the first node with the id,
 * so the repeat is unreachable by construction, and saying so again adds nothing.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "NODE_UNREACHABLE",
    defaultSeverity: "warning",
    description: "A node the entry cannot reach",
    docs: "docs/rules/NODE_UNREACHABLE.md",
    messages: {
      default:
        'node "{{nodeId}}" cannot be reached from the entry node "{{entry}}", so it never runs',
    },
    remediation: 'connect "{{nodeId}}" with an edge or route from a node that runs, or remove it',
  },
  check(context) {
    // `report` is a method of the context, so it is called on it rather than destructured.
    const { graph } = context;
    const entryNode = graph.entry === undefined ? undefined : graph.nodes[graph.entry];
    if (entryNode === undefined) return;
    graph.nodes.forEach((node, i) => {
      if (graph.reachable[i] === 1 || graph.index.get(node.id) !== i) return;
      context.report({
        target: { kind: "node", nodeId: node.id },
        path: pointer("nodes", i),
        data: { nodeId: node.id, index: i, entry: entryNode.id },
      });
    });
  },
});
