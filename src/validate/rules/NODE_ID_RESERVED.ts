import { pointer } from "../../model/index.js";
import { isReservedNodeId } from "../../model/internal.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * A node takes an id that routes give a meaning of their own: a decision route `next: "end"`
 * finishes the run, so a route can never reach a node called `end`, and a reader of the route
 * cannot tell which was meant. The model keeps one set of such words (`RESERVED_NODE_IDS`), which
 * every importer renames, declared; a hand-written workflow gets this error.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "NODE_ID_RESERVED",
    defaultSeverity: "error",
    description: 'A node id is a route keyword ("end"), which a route can never reach as a node',
    docs: "docs/rules/NODE_ID_RESERVED.md",
    messages: {
      default:
        'node id "{{nodeId}}" at /nodes/{{index}} is a route keyword: a route to "{{nodeId}}" ends the run, so no route can reach this node',
    },
    remediation: 'rename the node (e.g. "end-step") and update the edges that name it',
  },
  check({ workflow, report }) {
    workflow.nodes.forEach((node, index) => {
      if (!isReservedNodeId(node.id)) return;
      report({
        target: { kind: "node", nodeId: node.id },
        path: pointer("nodes", index, "id"),
        data: { nodeId: node.id, index },
      });
    });
  },
});
