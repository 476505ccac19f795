import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * The graph decides the level ("o grafo é quem manda"): declaring less autonomy than the graph
 * justifies would let a platform apply a weaker gate policy than the agent needs.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "AUTONOMY_INCOHERENT",
    defaultSeverity: "error",
    description: "The declared autonomyLevel is lower than the graph justifies",
    docs: "docs/rules/AUTONOMY_INCOHERENT.md",
    messages: {
      default:
        "declared autonomy {{declared}} is lower than the {{justified}} the graph justifies ({{feature}} at {{nodeIds}})",
    },
    remediation: "declare autonomyLevel {{justified}} or higher, or remove the {{feature}}",
  },
  check({ workflow, facts, report }) {
    // The reasons (every node of a workflow of loops) only when there is something to report.
    if (workflow.autonomyLevel >= facts.autonomyLevel()) return;
    const assessment = facts.autonomy();
    const top = assessment.reasons[0];
    report({
      target: { kind: "workflow" },
      path: "/autonomyLevel",
      data: {
        declared: workflow.autonomyLevel,
        justified: assessment.level,
        feature: top?.feature ?? "graph",
        nodeIds: top?.nodeIds ?? [],
        edgeIndexes: top?.edgeIndexes ?? [],
        reasons: assessment.reasons,
      },
    });
  },
});
