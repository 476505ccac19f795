import { NODE_KIND, pointer } from "../../model/index.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * `tool:x@1` and `tool:x@1.2` are display forms: they are read as `1.0.0` / `1.2.0`, and the
 * warning says so, so that what was reviewed is the exact version.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "TOOL_REF_ABBREVIATED",
    defaultSeverity: "warning",
    description: "usesTool has an abbreviated version, normalised to x.y.z",
    docs: "docs/rules/TOOL_REF_ABBREVIATED.md",
    messages: { default: 'tool node "{{nodeId}}" uses "{{ref}}", read as "{{normalized}}"' },
    remediation: 'write the full version: "{{normalized}}"',
  },
  check({ workflow, graph, facts, report }) {
    const refs = facts.nodeRefs();
    workflow.nodes.forEach((node, i) => {
      const parsed = refs[i];
      if (graph.kind[i] !== NODE_KIND.tool || parsed?.ok !== true || !parsed.abbreviated) return;
      if (node.type !== "tool") return; // known from `kind`; narrows the type
      report({
        target: { kind: "node", nodeId: node.id },
        path: pointer("nodes", i, "config", "usesTool"),
        data: { nodeId: node.id, ref: node.config.usesTool, normalized: parsed.canonical },
      });
    });
  },
});
