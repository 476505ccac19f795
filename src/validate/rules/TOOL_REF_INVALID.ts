import { NODE_KIND, pointer } from "../../model/index.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * A tool node must name its contract as `tool:<name>@x.y.z`, so that exactly one reviewed contract
 * (effect, authorization, schemas) is bound to it.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "TOOL_REF_INVALID",
    defaultSeverity: "error",
    description: "usesTool is not a valid tool:<name>@version reference",
    docs: "docs/rules/TOOL_REF_INVALID.md",
    messages: {
      default: 'tool node "{{nodeId}}" uses "{{ref}}": {{reason}}',
      prefix: 'tool node "{{nodeId}}" uses "{{ref}}", which does not start with "tool:"',
    },
    remediation: 'name a versioned tool contract, for example "tool:browser-search@1.2.0"',
  },
  check({ workflow, graph, facts, report }) {
    const refs = facts.nodeRefs();
    workflow.nodes.forEach((node, i) => {
      const parsed = refs[i];
      if (graph.kind[i] !== NODE_KIND.tool || parsed === undefined) return;
      if (parsed.ok && parsed.ref.id.startsWith("tool:")) return;
      if (node.type !== "tool") return; // known from `kind`; narrows the type
      // Built only for a report: at 100,000 tool nodes, eager pointers were most of this rule's cost.
      const base = {
        target: { kind: "node", nodeId: node.id } as const,
        path: pointer("nodes", i, "config", "usesTool"),
      };
      if (!parsed.ok) {
        report({
          ...base,
          data: {
            nodeId: node.id,
            ref: node.config.usesTool,
            reason: parsed.message,
            kind: parsed.reason,
          },
        });
      } else if (!parsed.ref.id.startsWith("tool:")) {
        report({
          ...base,
          messageId: "prefix",
          data: { nodeId: node.id, ref: node.config.usesTool, kind: "prefix" },
        });
      }
    });
  },
});
