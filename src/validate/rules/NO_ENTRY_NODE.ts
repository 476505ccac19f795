import { pointer } from "../../model/index.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * The workflow has no node, so there is nothing to run: the document passes every per-node check
 * vacuously while doing nothing at all.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "NO_ENTRY_NODE",
    defaultSeverity: "error",
    description: "The workflow has no nodes, so nothing can run",
    docs: "docs/rules/NO_ENTRY_NODE.md",
    messages: {
      default: "the workflow has no nodes, so there is no node to start from and nothing can run",
    },
    remediation: "add the nodes the agent runs, starting with the first step",
  },
  check(context) {
    // `report` is a method of the context, so it is called on it rather than destructured.
    const { graph } = context;
    if (graph.entry !== undefined) return;
    context.report({
      target: { kind: "workflow" },
      path: pointer("nodes"),
      data: { nodeCount: graph.nodes.length },
    });
  },
});
