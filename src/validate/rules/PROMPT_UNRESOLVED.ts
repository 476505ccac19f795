import { pointer } from "../../model/index.js";
import type { Rule } from "../types.js";

/**
 * A prompt registry was injected and cannot vouch for the prompt an llm node names, so the
 * reviewed prompt may not exist in that version. Without a prompt resolver nothing is reported:
 * resolving prompts is optional (the prompt text changes no rule's verdict), and a warning on
 * every llm node of every host that keeps prompts elsewhere would be noise.
 */
export const rule: Rule = {
  meta: {
    code: "PROMPT_UNRESOLVED",
    defaultSeverity: "warning",
    description: "The injected prompt resolver does not know the prompt, or failed",
    docs: "docs/rules/PROMPT_UNRESOLVED.md",
    messages: {
      default:
        'llm node "{{nodeId}}" uses prompt "{{prompt}}", which the prompt resolver does not know',
      failed: 'llm node "{{nodeId}}" uses prompt "{{prompt}}", whose resolution failed: {{error}}',
    },
    remediation: 'publish "{{prompt}}" in the prompt registry, or name a version it holds',
  },
  check(context) {
    const { workflow, facts } = context;
    const refs = facts.nodeRefs();
    const { prompts } = facts.resolved;
    workflow.nodes.forEach((node, i) => {
      const parsed = refs[i];
      // Invalid refs are PROMPT_REF_INVALID's: they were never looked up.
      if (node.type !== "llm" || parsed?.ok !== true) return;
      const resolution = prompts.get(parsed.canonical);
      if (resolution === undefined) return;
      const base = {
        target: { kind: "node", nodeId: node.id } as const,
        path: pointer("nodes", i, "config", "promptRef"),
      };
      const data = { nodeId: node.id, ref: node.config.promptRef, prompt: parsed.canonical };
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
