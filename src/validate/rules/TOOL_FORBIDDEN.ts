import { NODE_KIND, pointer } from "../../model/index.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * The contract's owner has ruled that this tool must never be called by an agent (SPEC 2.5,
 * `authorization: "forbidden"`). A workflow that binds it cannot be promoted, whatever gates the
 * process has: no approval makes a forbidden call allowed.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "TOOL_FORBIDDEN",
    defaultSeverity: "error",
    description: "A tool's contract forbids agents to call it",
    docs: "docs/rules/TOOL_FORBIDDEN.md",
    messages: {
      default:
        'tool node "{{nodeId}}" uses "{{tool}}", whose contract forbids agents to call it (effect "{{effect}}")',
    },
    remediation: 'remove node "{{nodeId}}" or bind it to a tool whose contract allows agents',
  },
  check(context) {
    const { workflow, graph, facts } = context;
    const refs = facts.nodeRefs();
    workflow.nodes.forEach((node, i) => {
      const parsed = refs[i];
      if (graph.kind[i] !== NODE_KIND.tool || parsed?.ok !== true) return;
      const resolution = facts.resolved.tools.get(parsed.canonical);
      if (resolution?.status !== "resolved") return;
      const { effect, authorization } = resolution.value;
      if (authorization !== "forbidden") return;
      context.report({
        target: { kind: "node", nodeId: node.id },
        path: pointer("nodes", i, "config", "usesTool"),
        data: { nodeId: node.id, tool: parsed.canonical, effect, authorization },
      });
    });
  },
});
