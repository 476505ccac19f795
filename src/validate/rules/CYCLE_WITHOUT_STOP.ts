import { neighbours, pointer } from "../../model/index.js";
import type { Rule } from "../types.js";

/** At most this many member ids are listed in `members`; `size` stays exact. */
const MAX_LISTED = 20;

/**
 * A loop must contain its own stop: a decision that routes on a structured condition (a field of
 * `output`, in FEEL that parses) and that has a route leaving the loop. Without one, whether the
 * run ever leaves depends on a model's prose or on nothing at all.
 *
 * A loop is a strongly connected component with several members, or one node with a self-loop. A
 * route leaves when it goes to `"end"` or to a node in another component; a route to an unknown id
 * leads nowhere and is not a way out (DECISION_ROUTE_MISSING reports it). Whether the leaving route
 * is the one the structured condition guards is not asked: every route of a decision is chosen by
 * its conditions, so a decision that reads `output` decides when the run leaves. Edges leaving an
 * llm or tool node are not stops: they carry no condition. One report per loop, on its first
 * member decision (the likely place for the stop), else on its first member; O(V+E) overall.
 */
export const rule: Rule = {
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
  check({ graph, facts, report }) {
    const conditions = facts.conditions();
    const found: { readonly at: number; readonly members: readonly number[] }[] = [];
    const { offsets, targets } = graph.sccMembers;
    for (let c = 0; c < offsets.length - 1; c++) {
      const first = targets[offsets[c] ?? 0];
      if (offsets[c] === offsets[c + 1] || first === undefined || graph.cyclic[first] !== 1)
        continue;
      const members = [...neighbours(graph.sccMembers, c)];
      let firstDecision: number | undefined;
      let stops = false;
      for (const m of members) {
        if (graph.nodes[m]?.type !== "decision") continue;
        firstDecision ??= m;
        const structured = (conditions[m] ?? []).some(
          (x) => x.analysis.ok && x.analysis.structured,
        );
        if (!structured) continue;
        const leaves = (graph.routes[m] ?? []).some((route) => {
          if (route.next === "end") return true;
          const target = graph.index.get(route.next);
          return target !== undefined && graph.sccOf[target] !== c;
        });
        if (leaves) {
          stops = true;
          break;
        }
      }
      if (!stops) found.push({ at: firstDecision ?? first, members });
    }
    found.sort((a, b) => a.at - b.at);
    for (const { at, members } of found) {
      const node = graph.nodes[at];
      if (node === undefined) continue;
      report({
        target: { kind: "node", nodeId: node.id },
        path: pointer("nodes", at),
        data: {
          nodeId: node.id,
          members: members.slice(0, MAX_LISTED).map((m) => graph.nodes[m]?.id ?? ""),
          size: members.length,
        },
      });
    }
  },
};
