import { NODE_KIND, pointer } from "../../model/index.js";
import { effectNeedsGate } from "../../autonomy/index.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * A tool that deletes, pays, sends or signs cannot be undone, so its contract must require an
 * approval gate. A contract that lets it run `automatic` would let the agent commit the
 * organisation on its own. A `forbidden` contract is reported here too (its authorization is
 * not `gate`, so the contract breaks SPEC 2.5) and, separately, by TOOL_FORBIDDEN.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "TOOL_EFFECT_UNGATED",
    defaultSeverity: "error",
    description: "An irreversible or committing tool's contract does not require a gate",
    docs: "docs/rules/TOOL_EFFECT_UNGATED.md",
    messages: {
      default:
        'tool node "{{nodeId}}" uses "{{tool}}", whose effect "{{effect}}" needs an approval gate, but its authorization is "{{authorization}}"',
    },
    remediation:
      'publish a version of "{{tool}}" with authorization "gate" (and gate it in the process), or use a reversible tool',
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
      if (!effectNeedsGate(effect) || authorization === "gate") return;
      context.report({
        target: { kind: "node", nodeId: node.id },
        path: pointer("nodes", i, "config", "usesTool"),
        data: { nodeId: node.id, tool: parsed.canonical, effect, authorization },
      });
    });
  },
});
