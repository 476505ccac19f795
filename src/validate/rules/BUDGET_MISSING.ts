import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * From level 2 the agent repeats or chooses its own path, so its cost and run length are no
 * longer fixed by its shape: a budget states the limits a reviewer can hold it to.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "BUDGET_MISSING",
    defaultSeverity: "warning",
    description: "Autonomy 2 or higher without a budget",
    docs: "docs/rules/BUDGET_MISSING.md",
    messages: {
      default: 'workflow "{{workflowId}}" runs at autonomy {{level}} but states no budget',
    },
    remediation: "add a budget, e.g. { maxSteps, maxTokens, maxCostUSD }",
  },
  check({ workflow, facts, report }) {
    // The higher of the declared and the justified level: an under-declared loop needs limits too.
    const level = Math.max(workflow.autonomyLevel, facts.autonomyLevel());
    if (level < 2) return;
    const budget = workflow.budget;
    const empty = budget === undefined || Object.keys(budget).length === 0;
    if (!empty) return;
    report({
      target: { kind: "workflow" },
      path: budget === undefined ? "" : "/budget",
      data: { workflowId: workflow.id, level, declared: workflow.autonomyLevel },
    });
  },
});
