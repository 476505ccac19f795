import { neighbours, pointer } from "../../model/index.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/** At most this many ids are listed in `members` and `entries`; the counts stay exact. */
const MAX_LISTED = 20;

/**
 * A trap: nodes the run can reach but from which no exit can be reached, so once the run is in
 * them it can never finish (it loops until a budget or a platform timeout kills it).
 *
 * "Once per trap" is decided on the doomed region R (reachable, cannot reach an exit), which is
 * closed under successors: a trap is one weakly connected part of R, because every node in it
 * commits the run to the same dead end, and one fix (a way out) is what the reviewer needs to see.
 * It is reported on its entering node: the first, in document order, of its nodes that the entry
 * is, or that has a predecessor which can still finish. Two traps entered from one decision are
 * two traps (two reports); one trap entered at two nodes is one report, naming both entries.
 * O(V+E): one pass to label the parts, one over the predecessors to find the entries.
 *
 * A route to an id no node has is DECISION_ROUTE_MISSING's finding; a trap it would leave is
 * not reported again here (option `reportCascades: true` reports it too).
 */
export const rule: Rule = defineRule({
  meta: {
    code: "NO_PATH_TO_END",
    defaultSeverity: "error",
    description: "A reachable part of the graph from which no exit can be reached (a trap)",
    docs: "docs/rules/NO_PATH_TO_END.md",
    messages: {
      default:
        'once the run enters "{{nodeId}}" it can never finish: no exit is reachable from the {{trapSize}} node(s) of this trap ({{members}})',
    },
    remediation:
      'give the trap a way out (a decision route to "end", or to a node that finishes), or remove the path into "{{nodeId}}"',
  },
  check(context) {
    // `report` is a method of the context, so it is called on it rather than destructured.
    const { graph } = context;
    const n = graph.nodes.length;
    // A trap that a route to a missing id would leave holds only because of that route, which
    // DECISION_ROUTE_MISSING reports: one mistake, one finding, unless cascades are asked for.
    const exit =
      context.options.reportCascades === true
        ? graph.canReachExit
        : graph.canReachExitOrBrokenRoute;
    const doomed = (i: number): boolean => graph.reachable[i] === 1 && exit[i] === 0;
    // Most workflows have no trap: find one before allocating anything per node.
    let first = 0;
    while (first < n && !doomed(first)) first++;
    if (first === n) return;

    // Label the weakly connected parts of the doomed region, following flow both ways.
    const part = new Int32Array(n).fill(-1);
    let parts = 0;
    const queue: number[] = [];
    for (let start = first; start < n; start++) {
      if (!doomed(start) || part[start] !== -1) continue;
      part[start] = parts;
      queue.length = 0;
      queue.push(start);
      // The iterator re-reads the length, so nodes pushed below are visited too.
      for (const v of queue) {
        for (const list of [neighbours(graph.successors, v), neighbours(graph.predecessors, v)]) {
          for (const w of list) {
            if (part[w] !== -1 || !doomed(w)) continue;
            part[w] = parts;
            queue.push(w);
          }
        }
      }
      parts += 1;
    }
    if (parts === 0) return;

    // Members and entering nodes of each part, in document order.
    const members: number[][] = Array.from({ length: parts }, () => []);
    const entries: number[][] = Array.from({ length: parts }, () => []);
    for (let i = 0; i < n; i++) {
      const p = part[i] ?? -1;
      if (p < 0) continue;
      members[p]?.push(i);
      const entered =
        i === graph.entry ||
        neighbours(graph.predecessors, i).some(
          (q) => graph.reachable[q] === 1 && graph.canReachExit[q] === 1,
        );
      if (entered) entries[p]?.push(i);
    }

    const ids = (list: readonly number[]): string[] =>
      list.slice(0, MAX_LISTED).map((i) => graph.nodes[i]?.id ?? "");
    const found: { readonly at: number; readonly part: number }[] = [];
    for (let p = 0; p < parts; p++) {
      // Every part has an entry: a path from the entry into it crosses into it at some node.
      const at = entries[p]?.[0] ?? members[p]?.[0];
      if (at !== undefined) found.push({ at, part: p });
    }
    found.sort((a, b) => a.at - b.at);

    for (const { at, part: p } of found) {
      const node = graph.nodes[at];
      if (node === undefined) continue;
      const all = members[p] ?? [];
      const enteredAt = entries[p] ?? [];
      context.report({
        target: { kind: "node", nodeId: node.id },
        path: pointer("nodes", at),
        data: {
          nodeId: node.id,
          trapSize: all.length,
          members: ids(all),
          entries: ids(enteredAt),
          entryCount: enteredAt.length,
        },
      });
    }
  },
});
