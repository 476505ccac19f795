import { pointer } from "../../model/index.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * A workflow's declared level is what its gate policy is chosen by. Delegating to an agent that
 * declares more autonomy would let that agent act under a weaker gate than it needs: the chain is
 * only as governed as its least governed link.
 *
 * Only direct delegates are compared: each delegate is compared with its own delegates when it
 * is validated, so by induction no link of a validated chain rises.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "AUTONOMY_CHAIN",
    defaultSeverity: "error",
    description: "A resolved delegate declares a higher autonomyLevel than this workflow",
    docs: "docs/rules/AUTONOMY_CHAIN.md",
    messages: {
      default:
        'node "{{nodeId}}" delegates to "{{delegate}}", which declares autonomy {{delegateLevel}}, above this workflow\'s {{level}}',
    },
    remediation:
      "declare autonomyLevel {{delegateLevel}} or higher for this workflow (and gate it accordingly), or delegate to an agent that declares at most {{level}}",
  },
  check(context) {
    // `report` stays on the context: it is declared as a method, so it is not destructured.
    const { workflow, graph, facts } = context;
    // Findings are per delegate edge: without one, nothing to compute (not even the refs).
    if (graph.delegateEdges.length === 0) return;
    const refs = facts.delegateRefs();
    const level = workflow.autonomyLevel;
    // Only the delegate edges: the others are never loaded.
    graph.delegateEdges.forEach((index) => {
      const edge = workflow.edges[index];
      const parsed = refs[index];
      if (edge?.edgeType !== "delegate" || parsed?.ok !== true) return;
      const delegate = facts.resolved.delegates.get(parsed.canonical);
      if (delegate?.status !== "resolved") return;
      const delegateLevel = delegate.value.autonomyLevel;
      if (delegateLevel <= level) return;
      context.report({
        target: { kind: "node", nodeId: edge.from },
        path: pointer("edges", index, "to"),
        data: { nodeId: edge.from, index, delegate: parsed.canonical, delegateLevel, level },
      });
    });
  },
});
