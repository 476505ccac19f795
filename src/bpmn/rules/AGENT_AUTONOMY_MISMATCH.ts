import { declarationPath, refLabel } from "../report-data.js";
import type { BpmnRule } from "../rule.js";
import { defineRule } from "../../rules/index.js";

/**
 * The process states the level it was designed around; the workflow states its own. When they
 * differ, one of them is out of date, and the gate the process provides may be the wrong one.
 */
export const rule: BpmnRule = defineRule({
  meta: {
    code: "AGENT_AUTONOMY_MISMATCH",
    scope: "process",
    defaultSeverity: "error",
    description: "An agent task's autonomyLevel differs from its workflow's declared level",
    docs: "docs/rules/AGENT_AUTONOMY_MISMATCH.md",
    messages: {
      default:
        'agent task "{{elementId}}" declares autonomy level {{taskLevel}}, but {{ref}} declares level {{workflowLevel}}',
    },
    remediation: "make the two levels agree (and check the gate the level requires)",
  },
  check(context) {
    for (const task of context.analysis?.tasks ?? []) {
      const workflow = task.resolution.workflow;
      if (task.declaredLevel === undefined || workflow === undefined) continue;
      if (task.declaredLevel === workflow.autonomyLevel) continue;
      context.report({
        elementId: task.node.id,
        path: declarationPath(task, "autonomyLevel"),
        data: {
          elementId: task.node.id,
          ref: refLabel(task),
          taskLevel: task.declaredLevel,
          workflowLevel: workflow.autonomyLevel,
        },
      });
    }
  },
});
