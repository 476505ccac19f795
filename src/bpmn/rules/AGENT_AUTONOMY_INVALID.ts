import { declarationPath, preview } from "../report-data.js";
import type { BpmnRule } from "../rule.js";
import { defineRule } from "../../rules/index.js";

/**
 * The attribute is a string in the moddle package on purpose: bpmn-moddle turns a bad `Integer`
 * into `NaN` without a word, and a level nobody can read would silently weaken the gate check.
 * An absent level is allowed; the workflow's declared level is used then.
 */
export const rule: BpmnRule = defineRule({
  meta: {
    code: "AGENT_AUTONOMY_INVALID",
    scope: "process",
    defaultSeverity: "error",
    description: "An agent task's autonomyLevel is not an integer 0..5",
    docs: "docs/rules/AGENT_AUTONOMY_INVALID.md",
    messages: {
      default:
        'agent task "{{elementId}}" has autonomyLevel "{{value}}"; expected an integer from 0 to 5',
    },
    remediation: "write the level as one digit, 0 to 5 (see docs/autonomy.md)",
  },
  check(context) {
    for (const task of context.analysis?.tasks ?? []) {
      const text = task.declaration.levelText;
      if (text === undefined || task.declaredLevel !== undefined) continue;
      context.report({
        elementId: task.node.id,
        path: declarationPath(task, "autonomyLevel"),
        data: { elementId: task.node.id, value: preview(text) },
      });
    }
  },
});
