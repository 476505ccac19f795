import { neighbours, pointer } from "../../model/index.js";
import type { Rule } from "../types.js";

/**
 * A decision that routes on a field of `output` needs that field to exist with a known type; an
 * llm that answers in free text (no `structuredOutput: true`, JSON mode) gives no such guarantee,
 * so the route depends on how the model happened to phrase its answer.
 *
 * "Can reach" is a path of at least one step along the flow (a decision's routes included), so an
 * llm inside a loop also reaches the decision that closes it. One reverse breadth-first search from
 * every decision with a structured FEEL condition marks all such llm nodes at once (O(V+E)); each
 * marked node remembers the decision its search started from, which is reported as `decisionId`
 * (one decision it reaches, not all of them). Decisions whose conditions are natural language or
 * do not parse are not targets: a model judging text needs no JSON.
 */
export const rule: Rule = {
  meta: {
    code: "LLM_NOT_STRUCTURED",
    defaultSeverity: "error",
    description: "An llm without structuredOutput feeds a decision on structured output",
    docs: "docs/rules/LLM_NOT_STRUCTURED.md",
    messages: {
      default:
        'llm "{{nodeId}}" does not declare structuredOutput: true, yet its output reaches decision "{{decisionId}}", which routes on fields of output',
    },
    remediation:
      'set structuredOutput: true on "{{nodeId}}" (and declare its outputSchema) so the fields the decision reads are guaranteed',
  },
  check({ workflow, graph, facts, report }) {
    const conditions = facts.conditions();
    const n = graph.nodes.length;
    // origin[v] = 1 + index of a structured decision that v reaches; 0 = reaches none.
    const origin = new Int32Array(n);
    const queue: number[] = [];
    conditions.forEach((list, d) => {
      if (!list.some((c) => c.analysis.ok && c.analysis.structured)) return;
      for (const p of neighbours(graph.predecessors, d)) {
        if (origin[p] !== 0) continue;
        origin[p] = d + 1;
        queue.push(p);
      }
    });
    // The iterator re-reads the length, so nodes pushed below are visited too.
    for (const v of queue) {
      for (const p of neighbours(graph.predecessors, v)) {
        if (origin[p] !== 0) continue;
        origin[p] = origin[v] ?? 0;
        queue.push(p);
      }
    }
    workflow.nodes.forEach((node, i) => {
      const reached = (origin[i] ?? 0) - 1;
      if (node.type !== "llm" || reached < 0 || node.config.structuredOutput === true) return;
      const explicit = Object.hasOwn(node.config, "structuredOutput");
      report({
        target: { kind: "node", nodeId: node.id },
        path: explicit
          ? pointer("nodes", i, "config", "structuredOutput")
          : pointer("nodes", i, "config"),
        data: { nodeId: node.id, decisionId: graph.nodes[reached]?.id ?? "" },
      });
    });
  },
};
