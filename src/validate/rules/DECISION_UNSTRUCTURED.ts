import { NODE_KIND, pointer } from "../../model/index.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * A decision written in natural language (`conditionLanguage: "text"`) is judged by a model at run
 * time: nothing in the document says what makes it true, and the simulator cannot decide it. It is
 * a warning, not an error, because importers (agent2model, LangGraph branch labels) produce such
 * decisions legitimately; CYCLE_WITHOUT_STOP and LLM_NOT_STRUCTURED say when it matters more.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "DECISION_UNSTRUCTURED",
    defaultSeverity: "warning",
    description: "A decision routes on a natural-language judgement",
    docs: "docs/rules/DECISION_UNSTRUCTURED.md",
    messages: {
      default:
        'decision "{{nodeId}}" routes on a natural-language judgement (conditionLanguage "text"): a model decides at run time, and the route cannot be reviewed or simulated',
    },
    remediation:
      'have a model return a structured field (e.g. is_complete: bool) and route on it in FEEL: "output.is_complete = true"',
  },
  check({ workflow, graph, report }) {
    workflow.nodes.forEach((node, i) => {
      if (graph.kind[i] !== NODE_KIND.decision) return;
      if (node.type !== "decision" || node.config.conditionLanguage !== "text") return;
      report({
        target: { kind: "node", nodeId: node.id },
        path: pointer("nodes", i, "config", "conditionLanguage"),
        data: { nodeId: node.id },
      });
    });
  },
});
