import { pointer } from "../../model/index.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * A delegate runs as part of the agent that hands it work: its loops, its tools and its autonomy
 * are the agent's. A workflow is only as governed as the delegates it reaches, so each resolved
 * delegate, direct or transitive, is validated by its own rules, under this workflow's
 * configuration, and one that fails them fails this workflow. Otherwise a delegate could loop
 * forever, call a forbidden tool or under-declare its level, and be promoted through its caller.
 *
 * Unresolved delegates are DELEGATE_UNRESOLVED's, and cycles DELEGATE_CYCLE's: neither is
 * reported again here.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "DELEGATE_INVALID",
    defaultSeverity: "error",
    description: "A resolved delegate fails its own workflow rules",
    docs: "docs/rules/DELEGATE_INVALID.md",
    messages: {
      default:
        'node "{{nodeId}}" delegates to "{{delegate}}", which fails its own rules: {{errors}} error(s) ({{codes}})',
      chain:
        'node "{{nodeId}}" delegates to "{{delegate}}", which fails its own rules through its delegates: "{{failing}}", {{depth}} delegation(s) down, fails {{failingCodes}}',
    },
    remediation:
      'fix "{{failing}}" ({{failingCodes}}) and publish it under a new version, or delegate to an agent that passes its rules',
  },
  check(context) {
    // `report` stays on the context: it is declared as a method, so it is not destructured.
    const { workflow, graph, facts } = context;
    // Findings are per delegate edge: without one, nothing to judge (not even the refs).
    if (graph.delegateEdges.length === 0) return;
    const refs = facts.delegateRefs();
    const verdicts = facts.delegateVerdicts();
    if (verdicts.size === 0) return;
    // Only the delegate edges: the others are never loaded.
    graph.delegateEdges.forEach((index) => {
      const edge = workflow.edges[index];
      const parsed = refs[index];
      // Invalid refs are DELEGATE_REF_INVALID's, unresolved ones DELEGATE_UNRESOLVED's.
      if (edge?.edgeType !== "delegate" || parsed?.ok !== true) return;
      const verdict = verdicts.get(parsed.canonical);
      if (verdict === undefined) return;
      const { codes, errors, failing, failingCodes, depth } = verdict;
      context.report({
        target: { kind: "node", nodeId: edge.from },
        path: pointer("edges", index, "to"),
        ...(depth > 0 ? { messageId: "chain" } : {}),
        data: {
          nodeId: edge.from,
          index,
          ref: edge.to,
          delegate: parsed.canonical,
          codes,
          errors,
          failing,
          failingCodes,
          depth,
        },
      });
    });
  },
});
