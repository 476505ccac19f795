import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * Valid FEEL outside S-FEEL (`and`, function calls, `in`, names other than `output`…) is legal
 * and runs in a BPMN engine, but the simulator cannot decide it, so every simulated run through the
 * decision stops honestly there. A warning: it never blocks promotion.
 *
 * One report per condition, naming the first construct outside the subset (`construct` is the
 * lezer-feel node name such as `Conjunction`, or `unknown-name` for a name that is not rooted at
 * `output`); `constructs` lists every distinct one found. A condition that does not parse is
 * CONDITION_SYNTAX's alone, and a natural-language condition is DECISION_UNSTRUCTURED's.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "CONDITION_NOT_SIMULABLE",
    defaultSeverity: "warning",
    description: "A condition is valid FEEL outside the simulable subset (S-FEEL)",
    docs: "docs/rules/CONDITION_NOT_SIMULABLE.md",
    messages: {
      default:
        'the condition of route {{route}} of decision "{{nodeId}}" is valid FEEL but cannot be simulated: {{problem}} (at offset {{offset}})',
    },
    remediation:
      "reduce the condition to one comparison of output fields and literals (split the decision, or let a model compute one field); see docs/conditions.md",
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
        if (!analysis.ok || analysis.simulable) continue;
        const constructOf = (p: (typeof analysis.problems)[number]): string =>
          p.construct ?? p.kind;
        const found = analysis.problems.filter((p) => p.kind !== "syntax");
        const first = found[0];
        report({
          target: { kind: "node", nodeId: node.id },
          path: condition.path,
          data: {
            nodeId: node.id,
            route: condition.label,
            construct: first === undefined ? "unknown" : constructOf(first),
            offset: first?.offset ?? 0,
            problem: first?.message ?? "it is outside S-FEEL",
            constructs: [...new Set(found.map(constructOf))],
          },
        });
      }
    });
  },
});
