import { pointer } from "../../model/index.js";
import type { Rule } from "../types.js";

/**
 * A tool registry was injected and cannot give the contract a tool node binds to, so its effect,
 * authorization and inputs are unchecked. Without a tool resolver nothing is reported (SPEC 3.1:
 * "a resolver is injected and does not know the contract"): a host that validates offline has
 * chosen not to check contracts, and the contract rules stay silent rather than guess.
 */
export const rule: Rule = {
  meta: {
    code: "TOOL_UNRESOLVED",
    defaultSeverity: "warning",
    description: "The injected tool resolver does not know the contract, or failed",
    docs: "docs/rules/TOOL_UNRESOLVED.md",
    messages: {
      default:
        'tool node "{{nodeId}}" uses "{{tool}}", which the tool resolver does not know: its effect, authorization and inputs are unchecked',
      failed:
        'tool node "{{nodeId}}" uses "{{tool}}", whose resolution failed ({{error}}): its effect, authorization and inputs are unchecked',
    },
    remediation:
      'publish a valid ToolContract for "{{tool}}" in the registry, or name a version it holds',
  },
  check(context) {
    const { workflow, facts } = context;
    const refs = facts.nodeRefs();
    const { tools } = facts.resolved;
    workflow.nodes.forEach((node, i) => {
      const parsed = refs[i];
      // Invalid refs and ids without `tool:` are TOOL_REF_INVALID's: they were never looked up.
      if (node.type !== "tool" || parsed?.ok !== true) return;
      const resolution = tools.get(parsed.canonical);
      if (resolution === undefined) return;
      const base = {
        target: { kind: "node", nodeId: node.id } as const,
        path: pointer("nodes", i, "config", "usesTool"),
      };
      const data = { nodeId: node.id, ref: node.config.usesTool, tool: parsed.canonical };
      if (resolution.status === "unknown") {
        context.report({ ...base, data: { ...data, status: "unknown" } });
      } else if (resolution.status === "failed") {
        context.report({
          ...base,
          messageId: "failed",
          data: { ...data, status: "failed", error: resolution.error },
        });
      }
    });
  },
};
