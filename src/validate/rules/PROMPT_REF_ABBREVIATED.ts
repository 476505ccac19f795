import { NODE_KIND, pointer } from "../../model/index.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * `prm:x@2` and `prm:x@2.1` are display forms: they are read as `2.0.0` / `2.1.0`, and the
 * warning says so, so that the prompt that was reviewed is named by its exact version.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "PROMPT_REF_ABBREVIATED",
    defaultSeverity: "warning",
    description: "promptRef has an abbreviated version, normalised to x.y.z",
    docs: "docs/rules/PROMPT_REF_ABBREVIATED.md",
    messages: { default: 'llm node "{{nodeId}}" uses prompt "{{ref}}", read as "{{normalized}}"' },
    remediation: 'write the full version: "{{normalized}}"',
  },
  check(context) {
    const { workflow, graph, facts } = context;
    const refs = facts.nodeRefs();
    workflow.nodes.forEach((node, i) => {
      const parsed = refs[i];
      if (graph.kind[i] !== NODE_KIND.llm || parsed?.ok !== true || !parsed.abbreviated) return;
      if (node.type !== "llm") return; // known from `kind`; narrows the type
      context.report({
        target: { kind: "node", nodeId: node.id },
        path: pointer("nodes", i, "config", "promptRef"),
        data: { nodeId: node.id, ref: node.config.promptRef, normalized: parsed.canonical },
      });
    });
  },
});
