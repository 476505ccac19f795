import { pointer } from "../../model/index.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * A delegate edge must name its agent as `id@x.y.z`: the delegate is another reviewed workflow,
 * and only an exact version names the one that was reviewed (a tag or a range could hand the work
 * to a different agent tomorrow).
 */
export const rule: Rule = defineRule({
  meta: {
    code: "DELEGATE_REF_INVALID",
    defaultSeverity: "error",
    description: "A delegate edge's to is not a valid id@version agent reference",
    docs: "docs/rules/DELEGATE_REF_INVALID.md",
    messages: {
      default: 'node "{{from}}" delegates to "{{ref}}" (edge {{index}}): {{reason}}',
    },
    remediation: 'name a versioned agent workflow, for example "agnt-verify@1.0.0"',
  },
  check(context) {
    // `report` stays on the context: it is declared as a method, so it is not destructured.
    const { workflow, graph, facts } = context;
    // Findings are per delegate edge: without one, nothing to compute (not even the refs).
    if (graph.delegateEdges.length === 0) return;
    const refs = facts.delegateRefs();
    // Only the delegate edges: the others are never loaded.
    graph.delegateEdges.forEach((index) => {
      const edge = workflow.edges[index];
      const parsed = refs[index];
      if (edge?.edgeType !== "delegate" || parsed === undefined || parsed.ok) return;
      context.report({
        target: { kind: "edge", index, from: edge.from, to: edge.to },
        path: pointer("edges", index, "to"),
        data: { index, from: edge.from, ref: edge.to, kind: parsed.reason, reason: parsed.message },
      });
    });
  },
});
