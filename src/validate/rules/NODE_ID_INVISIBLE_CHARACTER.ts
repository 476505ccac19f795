import { invisibleCharacters, pointer } from "../../model/index.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * A node id that holds a NUL, a newline, a bidi override or a zero-width character reads as
 * another id, or as none: `approve\u202Eevorppa` shows reversed, `pay\u200B` looks like `pay`.
 * Edges still bind exactly, so the graph is not what a reviewer reads. Every surface shows such
 * ids escaped; this rule says where they are.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "NODE_ID_INVISIBLE_CHARACTER",
    defaultSeverity: "warning",
    description:
      "A node id holds a character that prints as nothing or reorders the text (a control, bidi or zero-width character)",
    docs: "docs/rules/NODE_ID_INVISIBLE_CHARACTER.md",
    messages: {
      default:
        'node id "{{nodeId}}" at /nodes/{{index}} holds {{count}} character(s) that print as nothing or reorder the text ({{characters}}): what a reviewer reads is not the id',
    },
    remediation: "use printable characters only in node ids, and update the edges and routes",
  },
  check({ workflow, report }) {
    workflow.nodes.forEach((node, index) => {
      const found = invisibleCharacters(node.id);
      if (found.length === 0) return;
      report({
        target: { kind: "node", nodeId: node.id },
        path: pointer("nodes", index, "id"),
        data: {
          nodeId: node.id,
          index,
          count: found.length,
          characters: found.map((c) => c.escaped),
          offsets: found.map((c) => c.offset),
        },
      });
    });
  },
});
