import { refLabel } from "../report-data.js";
import type { BpmnRule } from "../rule.js";

/**
 * An irreversible or committing tool needs a person's approval whatever the agent's level: even
 * a level-5 agent may not delete, pay or sign unreviewed. Reported once per such tool, when the
 * gate downstream is missing or can be bypassed.
 */
export const rule: BpmnRule = {
  meta: {
    code: "TOOL_EFFECT_NEEDS_GATE",
    defaultSeverity: "error",
    description:
      "An agent calls a tool whose effect needs a gate, and the process has none on every path after it",
    docs: "docs/rules/TOOL_EFFECT_NEEDS_GATE.md",
    messages: {
      default:
        '{{ref}} (agent task "{{elementId}}") calls "{{tool}}" (effect "{{effect}}") at node "{{nodeId}}", but the gate downstream is {{gate}}',
      delegated:
        '{{ref}} (agent task "{{elementId}}") delegates to {{via}}, which calls "{{tool}}" (effect "{{effect}}") at node "{{nodeId}}", but the gate downstream is {{gate}}',
    },
    remediation: "place a gate after the agent task on every path, or use a reversible tool",
  },
  check(context) {
    for (const task of context.analysis?.tasks ?? []) {
      if (task.gate.status === "reached") continue;
      for (const tool of task.resolution.gatedTools) {
        context.report({
          elementId: task.node.id,
          path: task.node.path,
          messageId: tool.via === undefined ? "default" : "delegated",
          data: {
            ...(tool.via === undefined ? {} : { via: tool.via }),
            elementId: task.node.id,
            ref: refLabel(task),
            tool: tool.tool,
            effect: tool.effect,
            nodeId: tool.nodeId,
            gate: task.gate.status,
          },
        });
      }
    }
  },
};
