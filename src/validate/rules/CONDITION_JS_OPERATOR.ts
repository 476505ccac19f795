import type { OperatorRewrite } from "../../model/index.js";
import { applyRewrites } from "../../model/index.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/** How a rewrite is named in the message: `=== → =`, `'…' → "…"`; an inserted `)` is not. */
function operatorLabel(r: OperatorRewrite): string[] {
  if (r.from === "") return [];
  if (r.from.startsWith("'")) return [`'…' → "…"`];
  return [`${r.from.trim()} → ${r.to.trim()}`];
}

/**
 * Documents written for the seed compare with JavaScript operators. FEEL has no `===`: lezer-feel
 * reads `output.x === true` as a comparison with a unary test, which evaluates to null, so an
 * engine silently takes the else branch. agentflow rewrites `===`, `!==` and `==` (outside strings
 * and comments) before parsing; a condition that is still no FEEL is read in the seed's dialect
 * (`'single quotes'`, `&&`, `||`, `!`) when that reading parses. Either way it says so here, with
 * the FEEL it read, so the author can fix the text that other engines will read. Reported whether or not the rewritten text then parses (a
 * syntax error is reported on top by CONDITION_SYNTAX): the operator is wrong either way.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "CONDITION_JS_OPERATOR",
    defaultSeverity: "warning",
    description:
      "A condition uses JavaScript (===, !==, ==, &&, ||, !, single quotes) and was rewritten to FEEL",
    docs: "docs/rules/CONDITION_JS_OPERATOR.md",
    messages: {
      default:
        'the condition of route {{route}} of decision "{{nodeId}}" uses JavaScript operators ({{operators}}); it was read as the FEEL "{{rewritten}}"',
    },
    remediation:
      'write FEEL in the document: "=" and "!=", "and", "or", "not(…)", strings in double quotes',
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
            operators: [...new Set(rewrites.flatMap(operatorLabel))],
            rewritten: applyRewrites(condition.text, rewrites),
          },
        });
      }
    });
  },
});
