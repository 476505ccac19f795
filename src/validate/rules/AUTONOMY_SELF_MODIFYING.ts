import { autonomyLevelInfo } from "../../autonomy/index.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * Level 5 has no structural gate: no approval step placed in a process can contain an agent that
 * rewrites its own plan. That is a statement about structure, not a finding that oversight is
 * unnecessary, so it is always reported: oversight (a monitor and a stop) must exist outside
 * the graph (EU AI Act Art. 14(4)(e) asks for the ability to stop the system).
 */
export const rule: Rule = defineRule({
  meta: {
    code: "AUTONOMY_SELF_MODIFYING",
    defaultSeverity: "warning",
    description: "Level 5: no structural gate; oversight must exist outside the graph",
    docs: "docs/rules/AUTONOMY_SELF_MODIFYING.md",
    messages: {
      default:
        'workflow "{{workflowId}}" is level 5 ({{levelName}}): no gate in the process can contain it; a monitor and a stop must exist outside the graph',
    },
    remediation:
      "document the run-time monitor and the stop mechanism (who can halt the agent, how fast) in the process's governance record",
  },
  check({ workflow, facts, report }) {
    const justified = facts.autonomyLevel();
    if (workflow.autonomyLevel !== 5 && justified !== 5) return;
    report({
      target: { kind: "workflow" },
      path: "/autonomyLevel",
      data: {
        workflowId: workflow.id,
        declared: workflow.autonomyLevel,
        justified,
        levelName: autonomyLevelInfo(5).name,
      },
    });
  },
});
