import { NODE_KIND, pointer } from "../../model/index.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * An llm node must name its prompt as an exact `id@x.y.z`, so that the prompt text that was
 * reviewed is the one that runs. Unlike tools, no id prefix is required: the SPEC shows `prm:`
 * in examples only, and prompt registries name their prompts in their own ways.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "PROMPT_REF_INVALID",
    defaultSeverity: "error",
    description: "promptRef is not a valid <id>@version reference",
    docs: "docs/rules/PROMPT_REF_INVALID.md",
    messages: { default: 'llm node "{{nodeId}}" uses prompt "{{ref}}": {{reason}}' },
    remediation: 'name an exact prompt version, for example "prm:research@2.0.0"',
  },
  check(context) {
    const { workflow, graph, facts } = context;
    const refs = facts.nodeRefs();
    workflow.nodes.forEach((node, i) => {
      const parsed = refs[i];
      if (graph.kind[i] !== NODE_KIND.llm || parsed === undefined || parsed.ok) return;
      if (node.type !== "llm") return; // known from `kind`; narrows the type
      context.report({
        target: { kind: "node", nodeId: node.id },
        path: pointer("nodes", i, "config", "promptRef"),
        data: {
          nodeId: node.id,
          ref: node.config.promptRef,
          reason: parsed.message,
          kind: parsed.reason,
        },
      });
    });
  },
});
