import { rewriteJsOperators } from "../../model/index.js";
import type { Rule } from "../types.js";

/**
 * Documents written for the seed compare with JavaScript operators. FEEL has no `===`: lezer-feel
 * reads `output.x === true` as a comparison with a unary test, which evaluates to null, so an
 * engine silently takes the else branch. agentflow rewrites `===`, `!==` and `==` (outside strings
 * and comments) before parsing and says so here, naming every rewrite, so the author can fix the
 * text that other engines will read. Reported whether or not the rewritten text then parses (a
 * syntax error is reported on top by CONDITION_SYNTAX): the operator is wrong either way.
 */
export const rule: Rule = {
  meta: {
    code: "CONDITION_JS_OPERATOR",
    defaultSeverity: "warning",
    description: "A condition uses JavaScript ===, !== or == and was rewritten to FEEL",
    docs: "docs/rules/CONDITION_JS_OPERATOR.md",
    messages: {
      default:
        'the condition of route {{route}} of decision "{{nodeId}}" uses JavaScript operators ({{operators}}); it was read as the FEEL "{{rewritten}}"',
    },
    remediation: 'write the FEEL operators in the document: "=" for equality, "!=" for inequality',
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
        const { rewrites } = condition.analysis;
        if (rewrites.length === 0) continue;
        report({
          target: { kind: "node", nodeId: node.id },
          path: condition.path,
          data: {
            nodeId: node.id,
            route: condition.label,
            rewrites: rewrites.map(({ from, to, offset }) => ({ from, to, offset })),
            operators: [...new Set(rewrites.map((r) => `${r.from} → ${r.to}`))],
            rewritten: rewriteJsOperators(condition.text).text,
          },
        });
      }
    });
  },
};
