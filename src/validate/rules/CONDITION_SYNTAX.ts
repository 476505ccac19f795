import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * A FEEL condition that does not parse cannot be evaluated by any engine: at run time the
 * decision fails, or (worse, in engines that read a broken expression as null) silently takes the
 * else branch. One report per condition, with the first syntax problem; its offset points into the
 * text as written, before the `===` rewrite. Natural-language conditions are never parsed.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "CONDITION_SYNTAX",
    defaultSeverity: "error",
    description: "A FEEL condition does not parse",
    docs: "docs/rules/CONDITION_SYNTAX.md",
    messages: {
      default:
        'the condition of route {{route}} of decision "{{nodeId}}" is not valid FEEL: {{problem}} (at offset {{offset}})',
    },
    remediation:
      'write one comparison of a field of output with a value, e.g. "output.is_complete = true" (see docs/conditions.md)',
  },
  check({ workflow, facts, report }) {
    const conditions = facts.conditions();
    workflow.nodes.forEach((node, i) => {
      // Only decisions have conditions: the others are skipped without loading the node.
      const list = conditions[i];
      if (list === undefined || list.length === 0) return;
      if (node.type !== "decision" || node.config.conditionLanguage === "text") return;
      // An index loop: a decision may have 100,000 cases, and this loop runs once per validation,
      // too rarely for the optimiser to remove the iterator's result per step.
      // eslint-disable-next-line @typescript-eslint/prefer-for-of -- see above
      for (let k = 0; k < list.length; k++) {
        const condition = list[k];
        if (condition === undefined) continue;
        const { analysis } = condition;
        if (analysis.ok) continue;
        const problem = analysis.problems.find((p) => p.kind === "syntax") ?? analysis.problems[0];
        report({
          target: { kind: "node", nodeId: node.id },
          path: condition.path,
          data: {
            nodeId: node.id,
            route: condition.label,
            condition: condition.text,
            offset: problem?.offset ?? 0,
            problem: problem?.message ?? "it does not parse",
          },
        });
      }
    });
  },
});
