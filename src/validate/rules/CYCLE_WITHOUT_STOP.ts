import { neighbours, NODE_KIND, pointer } from "../../model/index.js";
import type { DecisionCondition, Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/** At most this many member ids are listed in `members`; `size` stays exact. */
const MAX_LISTED = 20;

const isStructured = (c: DecisionCondition): boolean => c.analysis.ok && c.analysis.structured;

/**
 * A loop must contain its own stop: a decision that routes on a structured condition (a field of
 * `output`, in FEEL that parses) and that has a route leaving the loop. Without one, whether the
 * run ever leaves depends on a model's prose or on nothing at all.
 *
 * A loop is a strongly connected component with several members, or one node with a self-loop. A
 * route leaves when it goes to `"end"` or to a node in another component. A route to an unknown id
 * is DECISION_ROUTE_MISSING's finding; it was meant to go somewhere, so a structured decision
 * with such a route is read as the loop's stop and the loop is not reported again (option
 * `reportCascades: true` reads the route as leading nowhere and reports the loop too). Whether the leaving route
 * is the one the structured condition guards is not asked: every route of a decision is chosen by
 * its conditions, so a decision that reads `output` decides when the run leaves. Edges leaving an
 * llm or tool node are not stops: they carry no condition. One report per loop, on its first
 * member decision (the likely place for the stop), else on its first member; O(V+E) overall.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "CYCLE_WITHOUT_STOP",
    defaultSeverity: "error",
    description: "A loop has no decision with a structured condition and a route out of it",
    docs: "docs/rules/CYCLE_WITHOUT_STOP.md",
    messages: {
      default:
        'the loop through "{{nodeId}}" ({{size}} node(s): {{members}}) has no decision that routes on a field of output and leaves the loop, so nothing structured ever stops it',
    },
    remediation:
      'give the loop a decision on a structured field (e.g. "output.is_complete = true") with a route to "end" or past the loop, and maxRetries on the route back',
  },
  check({ graph, facts, options, report }) {
    const conditions = facts.conditions();
    const brokenLeaves = options.reportCascades !== true;
    const { routeStart, routeTarget, sccOf, kind } = graph;
    const { offsets, targets } = graph.sccMembers;
    // Loops without a stop, with the node to report at. Index loops over typed arrays: a loop
    // that stops (the usual case) allocates nothing; a workflow of 100,000 nodes may hold
    // 10,000 loops, and an array per loop was most of this rule's garbage.
    const found: { readonly at: number; readonly component: number }[] = [];
    for (let c = 0; c < offsets.length - 1; c++) {
      const begin = offsets[c] ?? 0;
      const end = offsets[c + 1] ?? 0;
      const first = targets[begin];
      if (begin === end || first === undefined || graph.cyclic[first] !== 1) continue;
      let firstDecision: number | undefined;
      let stops = false;
      for (let k = begin; k < end && !stops; k++) {
        const m = targets[k] ?? 0;
        if (kind[m] !== NODE_KIND.decision) continue;
        firstDecision ??= m;
        if (!(conditions[m] ?? []).some(isStructured)) continue;
        for (let r = routeStart[m] ?? 0; r < (routeStart[m + 1] ?? 0); r++) {
          const target = routeTarget[r] ?? -1;
          // -2 is "end"; -1 an id no node has, read as leaving unless cascades are asked for.
          if (
            target === -2 ||
            (target === -1 && brokenLeaves) ||
            (target >= 0 && sccOf[target] !== c)
          ) {
            stops = true;
            break;
          }
        }
      }
      if (!stops) found.push({ at: firstDecision ?? first, component: c });
    }
    found.sort((a, b) => a.at - b.at);
    for (const { at, component } of found) {
      const node = graph.nodes[at];
      if (node === undefined) continue;
      const members = neighbours(graph.sccMembers, component);
      report({
        target: { kind: "node", nodeId: node.id },
        path: pointer("nodes", at),
        data: {
          nodeId: node.id,
          members: Array.from(members.subarray(0, MAX_LISTED), (m) => graph.nodes[m]?.id ?? ""),
          size: members.length,
        },
      });
    }
  },
});
