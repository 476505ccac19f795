import { pointer } from "../../model/index.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * `agnt-verify@1` and `agnt-verify@1.0` are display forms: they are read as `1.0.0`, and the
 * warning says so, so that the delegate that was reviewed is named by its exact version.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "DELEGATE_REF_ABBREVIATED",
    defaultSeverity: "warning",
    description: "A delegate edge's to has an abbreviated version, normalised to x.y.z",
    docs: "docs/rules/DELEGATE_REF_ABBREVIATED.md",
    messages: {
      default: 'node "{{from}}" delegates to "{{ref}}" (edge {{index}}), read as "{{normalized}}"',
    },
    remediation: 'write the full version: "{{normalized}}"',
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
      if (edge?.edgeType !== "delegate" || parsed?.ok !== true || !parsed.abbreviated) return;
      context.report({
        target: { kind: "edge", index, from: edge.from, to: edge.to },
        path: pointer("edges", index, "to"),
        data: { index, from: edge.from, ref: edge.to, normalized: parsed.canonical },
      });
    });
  },
});
