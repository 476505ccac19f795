import type { BpmnRule } from "../rule.js";
import { defineRule } from "../../rules/index.js";

/**
 * The scale's permanent warning for level 5 (SPEC 4): a self-modifying agent needs no gate in
 * the process because no gate there can contain it, which is a statement about structure, not
 * that it needs no oversight. So it is reported on every such task, gated or not, the way
 * AUTONOMY_SELF_MODIFYING is on the workflow `check` reads: `gate` reads the task.
 */
export const rule: BpmnRule = defineRule({
  meta: {
    code: "AGENT_SELF_MODIFYING",
    scope: "process",
    defaultSeverity: "warning",
    description: "An agent task runs a level-5 (self-modifying) agent",
    docs: "docs/rules/AGENT_SELF_MODIFYING.md",
    messages: {
      default:
        'agent task "{{elementId}}" runs a self-modifying agent (autonomy level 5): a gate in the process reviews one plan and the agent then runs another, so its oversight must exist outside the process (a run-time monitor and a way to stop it)',
    },
    remediation:
      "lower the agent's autonomy (a static plan), or record the run-time monitor and stop procedure that oversee it",
  },
  check(context) {
    for (const task of context.analysis?.tasks ?? []) {
      // Any level 5 said or shown: the task's, its workflow's (declared, perhaps for a planner in
      // a delegate), or its graph's. Whatever gate a stricter level asks for, it cannot contain
      // the agent, so the warning stands beside it.
      const levels = [
        task.declaredLevel,
        task.resolution.workflow?.autonomyLevel,
        task.justifiedLevel,
      ];
      if (!levels.includes(5)) continue;
      context.report({
        elementId: task.node.id,
        path: task.node.path,
        data: { elementId: task.node.id, level: 5, gate: task.gate.status },
      });
    }
  },
});
