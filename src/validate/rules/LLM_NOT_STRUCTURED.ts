import { pointer } from "../../model/index.js";
import type { Take } from "../../model/internal.js";
import { scratchScope } from "../../model/internal.js";
import type { DecisionCondition, Rule, RuleContext } from "../types.js";
import { defineRule } from "../../rules/index.js";

const isStructured = (c: DecisionCondition): boolean => c.analysis.ok && c.analysis.structured;

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
export const rule: Rule = defineRule({
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
  check(context) {
    scratchScope((take) => {
      check(context, take);
    });
  },
});

/** The body of the rule; `take` gives its temporaries (scratch.ts). */
function check({ workflow, graph, facts, report }: RuleContext, take: Take): void {
  const conditions = facts.conditions();
  const n = graph.nodes.length;
  const { offsets, targets } = graph.predecessors;
  // origin[v] = 1 + index of a structured decision that v reaches; 0 = reaches none.
  const origin = take(n);
  // Index loops and a typed queue (each node enters it once): a view or closure per node was
  // most of this rule's garbage at 100,000 nodes.
  const queue = take(n);
  let tail = 0;
  conditions.forEach((list, d) => {
    if (list.length === 0 || !list.some(isStructured)) return;
    for (let k = offsets[d] ?? 0, end = offsets[d + 1] ?? 0; k < end; k++) {
      const p = targets[k] ?? 0;
      if (origin[p] !== 0) continue;
      origin[p] = d + 1;
      queue[tail++] = p;
    }
  });
  for (let head = 0; head < tail; head++) {
    const v = queue[head] ?? 0;
    for (let k = offsets[v] ?? 0, end = offsets[v + 1] ?? 0; k < end; k++) {
      const p = targets[k] ?? 0;
      if (origin[p] !== 0) continue;
      origin[p] = origin[v] ?? 0;
      queue[tail++] = p;
    }
  }
  workflow.nodes.forEach((node, i) => {
    const reached = (origin[i] ?? 0) - 1;
    if (reached < 0 || node.type !== "llm" || node.config.structuredOutput === true) return;
    const explicit = Object.hasOwn(node.config, "structuredOutput");
    report({
      target: { kind: "node", nodeId: node.id },
      path: explicit
        ? pointer("nodes", i, "config", "structuredOutput")
        : pointer("nodes", i, "config"),
      data: { nodeId: node.id, decisionId: graph.nodes[reached]?.id ?? "" },
    });
  });
}
