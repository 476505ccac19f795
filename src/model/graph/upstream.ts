/**
 * Batched "is `source` upstream of `target`?" questions over the shared flow graph, for rules
 * that ask one per reference (TEMPLATE_UNRESOLVABLE). A search per question would be
 * O(V·(V+E)); this answers all of them together.
 */
import type { FlowGraph } from "./flow-graph.js";
import { forwardDataflow } from "./flow-graph.js";
import { nodeCount } from "./adjacency.js";
import type { Take } from "./scratch.js";
import { scratchScope } from "./scratch.js";

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
function dfsLabels(
  graph: FlowGraph,
  take: Take,
): { pre: Int32Array; post: Int32Array; low: Int32Array } {
  const count = nodeCount(graph.sccMembers);
  // The condensation's edges in CSR form (duplicates kept: harmless for the labels), built with
  // index loops into scratch arrays: an array per component and a view per node were most of
  // this file's garbage, and fresh typed arrays most of what remained.
  const { offsets, targets } = graph.successors;
  const { sccOf } = graph;
  const succOffsets = take(count + 1);
  for (let m = 0; m < graph.nodes.length; m++) {
    const c = sccOf[m] ?? 0;
    for (let e = offsets[m] ?? 0, end = offsets[m + 1] ?? 0; e < end; e++) {
      if ((sccOf[targets[e] ?? 0] ?? 0) !== c) succOffsets[c + 1] = (succOffsets[c + 1] ?? 0) + 1;
    }
  }
  for (let c = 0; c < count; c++)
    succOffsets[c + 1] = (succOffsets[c + 1] ?? 0) + (succOffsets[c] ?? 0);
  const cursor = take(count);
  cursor.set(succOffsets.subarray(0, count));
  const succTargets = take(succOffsets[count] ?? 0);
  for (let m = 0; m < graph.nodes.length; m++) {
    const c = sccOf[m] ?? 0;
    for (let e = offsets[m] ?? 0, end = offsets[m + 1] ?? 0; e < end; e++) {
      const d = sccOf[targets[e] ?? 0] ?? 0;
      if (d === c) continue;
      const at = cursor[c] ?? 0;
      succTargets[at] = d;
      cursor[c] = at + 1;
    }
  }
  const succ = { offsets: succOffsets, targets: succTargets };
  // `pre` is stored + 1 (0 = not visited yet): scratch arrays start zeroed.
  const pre = take(count);
  const post = take(count);
  const low = take(count);
  cursor.set(succOffsets.subarray(0, count));
  const stack = take(count);
  let [preCount, postCount] = [0, 0];
  // An index loop: a for-of over 100,000 components, run once per call, allocated a result per
  // step before the optimiser got to it.
  const order = graph.sccTopoOrder;
  // eslint-disable-next-line @typescript-eslint/prefer-for-of -- see above
  for (let r = 0; r < order.length; r++) {
    const root = order[r] ?? 0;
    if (pre[root] !== 0) continue;
    pre[root] = ++preCount;
    let sp = 0;
    stack[sp++] = root;
    while (sp > 0) {
      const c = stack[sp - 1] ?? 0;
      const k = cursor[c] ?? 0;
      if (k >= (succ.offsets[c + 1] ?? 0)) {
        sp--;
        post[c] = postCount++;
        // Every successor is finished by now: the condensation has no cycle.
        let least = post[c] ?? 0;
        for (let e = succ.offsets[c] ?? 0, end = succ.offsets[c + 1] ?? 0; e < end; e++) {
          least = Math.min(least, low[succ.targets[e] ?? 0] ?? 0);
        }
        low[c] = least;
        continue;
      }
      cursor[c] = k + 1;
      const next = succ.targets[k] ?? 0;
      if (pre[next] === 0) {
        pre[next] = ++preCount;
        stack[sp++] = next;
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
 *
 * @example
 * ```ts
 * import { flowGraph, getTemplate, upstreamAnswers } from "agentflow/model";
 *
 * const wf = getTemplate("document-review"); // llm-extract → dec-validate → llm-classify
 * if (wf === undefined) throw new Error("no such template");
 * const graph = flowGraph(wf);
 * // is node 0 upstream of node 2, and node 2 upstream of node 0?
 * upstreamAnswers(graph, [{ source: 0, target: 2 }, { source: 2, target: 0 }]); // → Uint8Array.from([1, 0])
 * ```
 */
export function upstreamAnswers(graph: FlowGraph, queries: readonly UpstreamQuery[]): Uint8Array {
  return upstreamAnswersOf(
    graph,
    queries.map((q) => q.source),
    queries.map((q) => q.target),
  );
}

/**
 * {@link upstreamAnswers} for queries given as parallel arrays (`sources[q]`, `targets[q]`), so
 * that a rule asking one question per template allocates no object per question.
 *
 * @example
 * ```ts
 * import { flowGraph, getTemplate, upstreamAnswersOf } from "agentflow/model";
 *
 * const wf = getTemplate("document-review"); // llm-extract → dec-validate → llm-classify
 * if (wf === undefined) throw new Error("no such template");
 * // the same questions as parallel arrays: 0 → 2? 2 → 0? 1 → 2?
 * upstreamAnswersOf(flowGraph(wf), [0, 2, 1], [2, 0, 2]); // → Uint8Array.from([1, 0, 1])
 * ```
 */
export function upstreamAnswersOf(
  graph: FlowGraph,
  sources: ArrayLike<number>,
  targets: ArrayLike<number>,
): Uint8Array {
  const answers = new Uint8Array(sources.length);
  if (sources.length === 0) return answers;
  scratchScope((take) => {
    answerAll(graph, sources, targets, answers, take);
  });
  return answers;
}

/** The body of {@link upstreamAnswersOf}, with its temporaries in scratch arrays. */
function answerAll(
  graph: FlowGraph,
  sources: ArrayLike<number>,
  targets: ArrayLike<number>,
  answers: Uint8Array,
  take: Take,
): void {
  const { pre, post, low } = dfsLabels(graph, take);
  const stamp = take(graph.nodes.length); // predecessors of the last target, marked
  let stamped = -1;
  const slot = new Map<number, number>(); // unsettled source → its bit, counted from 0
  const pending: number[][] = []; // query indexes by chunk of 32 sources
  for (let q = 0; q < sources.length; q++) {
    const source = sources[q] ?? 0;
    const target = targets[q] ?? 0;
    const cs = graph.sccOf[source] ?? 0;
    const ct = graph.sccOf[target] ?? 0;
    const [ps, pt] = [post[cs] ?? 0, post[ct] ?? 0];
    if (source === target) answers[q] = graph.cyclic[target] ?? 0;
    else if (cs === ct || ((pre[cs] ?? 0) <= (pre[ct] ?? 0) && pt <= ps)) answers[q] = 1;
    else if (pt > ps || pt < (low[cs] ?? 0)) answers[q] = 0;
    else {
      // Queries come grouped by target, so each target's predecessors are marked once: O(E).
      if (stamped !== target) {
        const { offsets, targets: preds } = graph.predecessors;
        for (let e = offsets[target] ?? 0, end = offsets[target + 1] ?? 0; e < end; e++) {
          stamp[preds[e] ?? 0] = target + 1;
        }
      }
      stamped = target;
      if (stamp[source] === target + 1) answers[q] = 1;
      else {
        const s = slot.get(source) ?? slot.size;
        slot.set(source, s);
        (pending[s >> 5] ??= []).push(q);
      }
    }
  }
  if (pending.length === 0) return;
  const unsettled = [...slot.keys()];
  const bitOf = take(graph.nodes.length).fill(-1);
  pending.forEach((qs, chunk) => {
    const members = unsettled.slice(chunk * 32, chunk * 32 + 32);
    members.forEach((source, b) => (bitOf[source] = b));
    const own = (j: number): number => {
      const b = bitOf[j] ?? -1;
      return b < 0 ? 0 : 1 << b;
    };
    const flow = forwardDataflow(graph, own, (a, b) => a | b, 0);
    for (const q of qs) {
      const target = targets[q] ?? 0;
      answers[q] = ((flow[target] ?? 0) >>> (bitOf[sources[q] ?? 0] ?? 0)) & 1;
    }
    for (const source of members) bitOf[source] = -1;
  });
}
