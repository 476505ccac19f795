/**
 * Batched "is `source` upstream of `target`?" questions over the shared flow graph, for rules
 * that ask one per reference (TEMPLATE_UNRESOLVABLE). A search per question would be
 * O(V·(V+E)); this answers all of them together.
 */
import type { FlowGraph } from "./graph.js";
import { forwardDataflow } from "./graph.js";
import { neighbours } from "./adjacency.js";

/** One question: is there a flow path of at least one step from `source` to `target`? */
export interface UpstreamQuery {
  readonly source: number;
  readonly target: number;
}

/**
 * Labels of one depth-first search of the condensation (a DAG): `pre`/`post` order, and `low`,
 * the smallest `post` among a component's descendants. An edge always goes to a smaller `post`,
 * a DFS-tree ancestor encloses its descendants' `pre`..`post`, and everything reachable from `c`
 * has its `post` in `low[c]..post[c]` (the GRAIL labelling, with the DFS tree as a tree cover).
 */
function dfsLabels(graph: FlowGraph): { pre: Int32Array; post: Int32Array; low: Int32Array } {
  const count = graph.sccMembers.length;
  const succ: number[][] = Array.from({ length: count }, () => []);
  for (let m = 0; m < graph.nodes.length; m++) {
    const c = graph.sccOf[m] ?? 0;
    for (const s of neighbours(graph.successors, m)) {
      if (graph.sccOf[s] !== c) succ[c]?.push(graph.sccOf[s] ?? 0);
    }
  }
  const pre = new Int32Array(count).fill(-1);
  const post = new Int32Array(count);
  const low = new Int32Array(count);
  const cursor = new Int32Array(count);
  let [preCount, postCount] = [0, 0];
  for (const root of graph.sccTopoOrder) {
    if (pre[root] !== -1) continue;
    pre[root] = preCount++;
    const stack = [root];
    while (stack.length > 0) {
      const c = stack[stack.length - 1] ?? 0;
      const next = succ[c]?.[cursor[c] ?? 0];
      cursor[c] = (cursor[c] ?? 0) + 1;
      if (next === undefined) {
        stack.pop();
        post[c] = postCount++;
        // Every successor is finished by now: the condensation has no cycle.
        let least = post[c] ?? 0;
        for (const s of succ[c] ?? []) least = Math.min(least, low[s] ?? 0);
        low[c] = least;
      } else if (pre[next] === -1) {
        pre[next] = preCount++;
        stack.push(next);
      }
    }
  }
  return { pre, post, low };
}

/**
 * Answers every query (1 = upstream). Same component, a DFS-tree ancestor, or a direct
 * predecessor answer yes; post-order labels outside the source's range answer no; all O(1) after
 * one O(V+E) labelling, which settles every query on a tree-shaped graph. What is left shares one
 * forwardDataflow pass with 32-bit masks per 32 distinct sources: O((V+E)·⌈k/32⌉) for the k
 * distinct sources left, which only graphs that join paths (diamonds) produce.
 */
export function upstreamAnswers(graph: FlowGraph, queries: readonly UpstreamQuery[]): Uint8Array {
  const answers = new Uint8Array(queries.length);
  if (queries.length === 0) return answers;
  const { pre, post, low } = dfsLabels(graph);
  const stamp = new Int32Array(graph.nodes.length); // predecessors of the last target, marked
  let stamped = -1;
  const slot = new Map<number, number>(); // unsettled source → its bit, counted from 0
  const pending: number[][] = []; // query indexes by chunk of 32 sources
  queries.forEach(({ source, target }, q) => {
    const cs = graph.sccOf[source] ?? 0;
    const ct = graph.sccOf[target] ?? 0;
    const [ps, pt] = [post[cs] ?? 0, post[ct] ?? 0];
    if (source === target) answers[q] = graph.cyclic[target] ?? 0;
    else if (cs === ct || ((pre[cs] ?? 0) <= (pre[ct] ?? 0) && pt <= ps)) answers[q] = 1;
    else if (pt > ps || pt < (low[cs] ?? 0)) answers[q] = 0;
    else {
      // Queries come grouped by target, so each target's predecessors are marked once: O(E).
      if (stamped !== target)
        for (const p of neighbours(graph.predecessors, target)) stamp[p] = target + 1;
      stamped = target;
      if (stamp[source] === target + 1) answers[q] = 1;
      else {
        const s = slot.get(source) ?? slot.size;
        slot.set(source, s);
        (pending[s >> 5] ??= []).push(q);
      }
    }
  });
  const sources = [...slot.keys()];
  const bitOf = new Int32Array(graph.nodes.length).fill(-1);
  pending.forEach((qs, chunk) => {
    const members = sources.slice(chunk * 32, chunk * 32 + 32);
    members.forEach((source, b) => (bitOf[source] = b));
    const own = (j: number): number => {
      const b = bitOf[j] ?? -1;
      return b < 0 ? 0 : 1 << b;
    };
    const flow = forwardDataflow(graph, own, (a, b) => a | b, 0);
    for (const q of qs) {
      const { source, target } = queries[q] ?? { source: 0, target: 0 };
      answers[q] = ((flow[target] ?? 0) >>> (bitOf[source] ?? 0)) & 1;
    }
    for (const source of members) bitOf[source] = -1;
  });
  return answers;
}
