import { declarationPath, refLabel } from "../report-data.js";
import type { BpmnRule } from "../rule.js";
import { defineRule } from "../../rules/index.js";

/**
 * A process must not be promoted with an agent that fails its own governance rules: the errors
 * are listed (code, message, path) so that the reviewer sees them without a second run.
 */
export const rule: BpmnRule = defineRule({
  meta: {
    code: "AGENT_WORKFLOW_INVALID",
    scope: "process",
    defaultSeverity: "error",
    description: "An agent task's resolved workflow has validation errors",
    docs: "docs/rules/AGENT_WORKFLOW_INVALID.md",
    messages: {
      default: '{{ref}} (agent task "{{elementId}}") has {{count}} validation error(s): {{codes}}',
    },
    remediation: "run `agentflow check` on the workflow and fix its errors",
  },
  check(context) {
    for (const task of context.analysis?.tasks ?? []) {
      const errors = task.resolution.diagnostics.filter((d) => d.severity === "error");
      if (errors.length === 0) continue;
      context.report({
        elementId: task.node.id,
        path: declarationPath(task, "agentWorkflowRef"),
        data: {
          elementId: task.node.id,
          ref: refLabel(task),
          count: errors.length,
          codes: [...new Set(errors.map((d) => d.code))],
          errors: errors.map((d) => ({ code: d.code, message: d.message, path: d.path })),
        },
      });
    }
  },
});
