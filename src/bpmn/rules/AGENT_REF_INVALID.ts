import { declarationPath, preview } from "../report-data.js";
import type { BpmnRule } from "../rule.js";
import { defineRule } from "../../rules/index.js";

/**
 * The ref is how the process names the exact agent it runs. Without a valid `id@x.y.z` the
 * registry cannot be asked, so nothing about the agent can be checked.
 */
export const rule: BpmnRule = defineRule({
  meta: {
    code: "AGENT_REF_INVALID",
    scope: "process",
    defaultSeverity: "error",
    description: "An agent task's agentWorkflowRef is missing or not a valid id@version ref",
    docs: "docs/rules/AGENT_REF_INVALID.md",
    messages: {
      default:
        'agent task "{{elementId}}" has agentWorkflowRef "{{ref}}", which is not a valid ref: {{reason}}',
      missing: 'agent task "{{elementId}}" has no agentWorkflowRef',
    },
    remediation: 'reference the workflow as "id@x.y.z", e.g. "agnt-research@2.1.0"',
  },
  check(context) {
    for (const task of context.analysis?.tasks ?? []) {
      if (task.ref === undefined || task.ref.ok) continue;
      const raw = task.declaration.ref;
      context.report({
        elementId: task.node.id,
        path: declarationPath(task, "agentWorkflowRef"),
        messageId: raw === undefined ? "missing" : "default",
        data: {
          elementId: task.node.id,
          ref: raw === undefined ? null : preview(raw),
          reason: task.ref.message,
        },
      });
    }
  },
});
