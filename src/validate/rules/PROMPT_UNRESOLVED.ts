import type { Rule } from "../types.js";
import { reportUnresolved } from "../unresolved.js";
import { defineRule } from "../../rules/index.js";

/**
 * A prompt registry was injected and cannot vouch for the prompt an llm node names, so the
 * reviewed prompt may not exist in that version. Without a prompt resolver nothing is reported:
 * resolving prompts is optional (the prompt text changes no rule's verdict), and a warning on
 * every llm node of every host that keeps prompts elsewhere would be noise.
 */
export const rule: Rule = defineRule({
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
    reportUnresolved(context, {
      nodeType: "llm",
      field: "promptRef",
      refKey: "prompt",
      resolutions: context.facts.resolved.prompts,
    });
  },
});
