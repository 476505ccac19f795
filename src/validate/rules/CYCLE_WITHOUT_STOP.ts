import { neighbours, NODE_KIND, pointer } from "../../model/index.js";
import type { Adjacency, FlowGraph } from "../../model/index.js";
import type { Take } from "../../model/internal.js";
import { cyclesAmong, scratchScope, trappedNodes } from "../../model/internal.js";
import type { DecisionCondition, Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/** At most this many member ids are listed in `members`; `size` stays exact. */
const MAX_LISTED = 20;

const isStructured = (c: DecisionCondition): boolean => c.analysis.ok && c.analysis.structured;

/**
 * Every cycle must pass a stop: a decision that routes on a structured condition (a field of
 * `output`, in FEEL that parses) and has a route leaving the loop. Without one, whether the run
 * ever leaves depends on a model's prose or on nothing at all.
 *
 * Judged cycle by cycle, not per strongly connected component: a component whose one decision can
 * leave may still hold a cycle (an llm and a tool calling each other, a second decision judging
 * prose) that never passes that decision. A stop can leave when a route goes to `"end"`, or to a
 * node from which the run can be brought out whatever the llm and tool edges and the prose
 * decisions choose (traps.ts: the nodes from which it cannot are "trapped"). A route to an unknown
 * id is DECISION_ROUTE_MISSING's finding; it was meant to go somewhere, so by default it is read
 * as a way out (option `reportCascades: true` reads it as leading nowhere). Whether the leaving
 * route is the one the structured condition guards is not asked: every route of a decision is
 * chosen by its conditions. Edges leaving an llm or tool node are not stops: they carry no
 * condition.
 *
 * Reported: each cycle-holding component of the trapped nodes in which no structured decision has
 * a route out (every trapped region holds one), and, in a component whose way out leads into
 * another trap, each cycle that passes none of its structured decisions. One report per such loop, on its first member
 * decision (the likely place for the stop), else on its first member; O(V+E) overall.
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
    // Most workflows have no loop: nothing to read then, not even the conditions.
    if (!graph.cyclic.includes(1)) return;
    const conditions = facts.conditions();
    const structured = (i: number): boolean =>
      graph.kind[i] === NODE_KIND.decision && (conditions[i] ?? []).some(isStructured);
    const brokenLeaves = options.reportCascades !== true;
    const found = scratchScope((take) => unstoppedLoops(take, graph, structured, brokenLeaves));
    found.sort((a, b) => a.at - b.at);
    for (const { at, members } of found) {
      const node = graph.nodes[at];
      if (node === undefined) continue;
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

/** A loop without a stop: its members, ascending, and the node to report it at. */
interface Unstopped {
  readonly at: number;
  readonly members: Int32Array;
}

/** The loops among the trapped nodes in which no structured decision has a route out. */
function unstoppedLoops(
  take: Take,
  graph: FlowGraph,
  structured: (i: number) => boolean,
  brokenLeaves: boolean,
): Unstopped[] {
  const n = graph.nodes.length;
  const { routeStart, routeTarget } = graph;
  const steers = take(n);
  const exits = take(n);
  for (let i = 0; i < n; i++) {
    if (!structured(i)) continue;
    steers[i] = 1;
    for (let r = routeStart[i] ?? 0; r < (routeStart[i + 1] ?? 0); r++) {
      // -2 is "end"; -1 an id no node has, read as leaving unless cascades are asked for.
      const target = routeTarget[r] ?? -1;
      if (target === -2 || (target === -1 && brokenLeaves)) exits[i] = 1;
    }
  }
  const trapped = trappedNodes(take, graph.successors, graph.predecessors, exits, steers);
  if (!trapped.includes(1)) return [];
  const loops = cyclesAmong(graph.successors, trapped);
  // Loop number + 1 per node (0: in none), to ask whether a route stays in its loop.
  const loopOf = take(n);
  const count = loops.offsets.length - 1;
  for (let c = 0; c < count; c++) for (const m of neighbours(loops, c)) loopOf[m] = c + 1;
  const found: Unstopped[] = [];
  // The members of the loops that lead on into another trap, their structured decisions left
  // out: a cycle among what remains passes no stop at all, whatever the loop it leads to does.
  const unsteered = take(n);
  let leading = false;
  for (let c = 0; c < count; c++) {
    const members = neighbours(loops, c);
    if (leaves(graph.successors, members, steers, loopOf, c + 1)) {
      leading = true;
      for (const m of members) if (steers[m] !== 1) unsteered[m] = 1;
      continue;
    }
    found.push({ at: reportedAt(graph, members), members });
  }
  if (leading) {
    // One search for all of them: loops are disjoint components, so no cycle spans two.
    const inner = cyclesAmong(graph.successors, unsteered);
    for (let c = 0; c < inner.offsets.length - 1; c++) {
      const members = neighbours(inner, c);
      found.push({ at: reportedAt(graph, members), members });
    }
  }
  return found;
}

/** Where a loop is reported: its first decision (the likely place for the stop), else its first member. */
function reportedAt(graph: FlowGraph, members: Int32Array): number {
  return members.find((m) => graph.kind[m] === NODE_KIND.decision) ?? members[0] ?? 0;
}

/**
 * Whether a structured member of the loop has a route out of it. Such a loop lies upstream of
 * another trapped loop, which is reported; only the cycles in it that pass no structured
 * decision are reported with it.
 */
function leaves(
  successors: Adjacency,
  members: Int32Array,
  steers: Int32Array,
  loopOf: Int32Array,
  loop: number,
): boolean {
  return members.some(
    (m) => steers[m] === 1 && neighbours(successors, m).some((s) => loopOf[s] !== loop),
  );
}
