import type { Rule } from "../types.js";
import { reportUnresolved } from "../unresolved.js";
import { defineRule } from "../../rules/index.js";

/**
 * A tool registry was injected and cannot give the contract a tool node binds to, so its effect,
 * authorization and inputs are unchecked. Without a tool resolver nothing is reported (SPEC 3.1:
 * "a resolver is injected and does not know the contract"): a host that validates offline has
 * chosen not to check contracts, and the contract rules stay silent rather than guess.
 */
export const rule: Rule = defineRule({
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
    reportUnresolved(context, {
      nodeType: "tool",
      field: "usesTool",
      refKey: "tool",
      resolutions: context.facts.resolved.tools,
    });
  },
});
