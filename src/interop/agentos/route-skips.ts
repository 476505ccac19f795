/**
 * The targets of a decision that AgentOS skips on a route where agentflow runs them. AgentOS
 * 0.9.164 marks skipped every target of a router it does not pick (`GraphRuntime.stream`) and
 * never runs a node so marked, even when another of its predecessors is done later. agentflow
 * runs a node on every path a run takes: on the route to `t`, another target `u` runs when `t`
 * reaches it, or when a path that does not pass the decision does (a branch joining into `u`).
 *
 * Every route is answered from one dominator tree (`dominators.ts`) and one pass over the edges:
 * a target `u` the decision does not dominate is reached without passing it, so every route but
 * its own skips it; one it dominates is reached from `t` exactly when a chain of the edges that
 * enter the decision's dominator-tree children leads there from `t` (an edge `x → y` enters the
 * subtree of `y`'s immediate dominator at `y` from the child above `x`, and each child reaches
 * its whole subtree), which a pass over those children in reverse topological order answers for
 * every `t` at once: O(E log V) for the tree, O((V + E) log V) for all decisions together.
 */
import type { FlowGraph } from "../../model/index.js";
import { NODE_KIND, neighbours } from "../../model/index.js";
import type { Dominators } from "./dominators.js";
import { dominators } from "./dominators.js";

/** A target AgentOS skips on a route, which agentflow runs after `after` on a path from `from`. */
export interface Skip {
  /** The target AgentOS marks skipped. */
  readonly skipped: number;
  /** Its predecessor on agentflow's path. */
  readonly after: number;
  /** Where that path starts: the route's own target, or else the entry. */
  readonly from: number;
  /** Whether it starts at the route's target (else at the entry, not passing the decision). */
  readonly alongRoute: boolean;
}

/** The skip of a decision's route to a target (a node index; `undefined` for `"end"`). */
export type SkipOf = (target: number | undefined) => Skip | undefined;

/** A target of the decision and the predecessor it is reached after. */
interface Candidate {
  readonly u: number;
  readonly x: number;
}

/** The edges entering each decision's dominator-tree children, and what a pass needs besides. */
interface Index {
  readonly dom: Dominators;
  /** By decision: `start[d]..start[d + 1]` index `child`, `to` and `via` (edge `via → to`). */
  readonly start: Int32Array;
  readonly child: Int32Array;
  readonly to: Int32Array;
  readonly via: Int32Array;
  /** Each node's predecessors a run reaches with the least and the greatest preorder; -1: none. */
  readonly lowPred: Int32Array;
  readonly highPred: Int32Array;
  /** Each flow component's position in topological order. */
  readonly topo: Int32Array;
}

/** Whether a route of decision `d` leads to `"end"` (or to an id no node has). O(routes). */
function leavesGraph(graph: FlowGraph, d: number): boolean {
  for (let r = graph.routeStart[d] ?? 0; r < (graph.routeStart[d + 1] ?? 0); r++)
    if ((graph.routeTarget[r] ?? 0) < 0) return true;
  return false;
}

/**
 * Whether some route of decision `d` may skip what agentflow runs: `d` is reached and on no loop
 * (a decision on a loop never runs in AgentOS, declared as the loop), it has a node target and
 * another route (to a node or to the end, both of which skip that target), and a node target has
 * another predecessor. O(routes).
 */
function mayShare(graph: FlowGraph, d: number): boolean {
  if (graph.reachable[d] !== 1 || graph.cyclic[d] === 1) return false;
  const targets = neighbours(graph.successors, d);
  if (targets.length === 0 || (targets.length === 1 && !leavesGraph(graph, d))) return false;
  for (const u of targets) if (neighbours(graph.predecessors, u).length > 1) return true;
  return false;
}

function buildIndex(graph: FlowGraph): Index {
  const size = graph.nodes.length;
  const dom = dominators(graph);
  const wanted = new Uint8Array(size);
  for (let d = 0; d < size; d++)
    if (graph.kind[d] === NODE_KIND.decision && mayShare(graph, d)) wanted[d] = 1;
  // One walk of the tree in preorder, the path to each node kept by depth: an edge x → y whose
  // y's immediate dominator d is wanted and is not x enters d's child above x.
  const path = new Int32Array(dom.order.length);
  const found: number[] = [];
  for (const x of dom.order) {
    path[dom.depth[x] ?? 0] = x;
    for (const y of neighbours(graph.successors, x)) {
      const d = dom.idom[y] ?? -1;
      if (d < 0 || d === x || wanted[d] !== 1) continue;
      found.push(d, path[(dom.depth[d] ?? 0) + 1] ?? 0, y, x);
    }
  }
  const count = found.length / 4;
  const start = new Int32Array(size + 1);
  for (let k = 0; k < count; k++) {
    const d = found[4 * k] ?? 0;
    start[d + 1] = (start[d + 1] ?? 0) + 1;
  }
  for (let d = 0; d < size; d++) start[d + 1] = (start[d + 1] ?? 0) + (start[d] ?? 0);
  const cursor = start.slice(0, size);
  const child = new Int32Array(count);
  const to = new Int32Array(count);
  const via = new Int32Array(count);
  for (let k = 0; k < count; k++) {
    const d = found[4 * k] ?? 0;
    const at = cursor[d] ?? 0;
    child[at] = found[4 * k + 1] ?? 0;
    to[at] = found[4 * k + 2] ?? 0;
    via[at] = found[4 * k + 3] ?? 0;
    cursor[d] = at + 1;
  }
  const lowPred = new Int32Array(size).fill(-1);
  const highPred = new Int32Array(size).fill(-1);
  for (let u = 0; u < size; u++) {
    for (const p of neighbours(graph.predecessors, u)) {
      const at = dom.pre[p] ?? -1;
      if (at < 0) continue;
      const low = lowPred[u] ?? -1;
      const high = highPred[u] ?? -1;
      if (low < 0 || at < (dom.pre[low] ?? 0)) lowPred[u] = p;
      if (high < 0 || at > (dom.pre[high] ?? 0)) highPred[u] = p;
    }
  }
  const topo = new Int32Array(graph.sccTopoOrder.length);
  graph.sccTopoOrder.forEach((c, k) => {
    topo[c] = k;
  });
  return { dom, start, child, to, via, lowPred, highPred, topo };
}

/** The two candidates of least target index, with distinct targets, `c` added to `list`. */
function keepTwo(list: Candidate[], c: Candidate): void {
  if (list.some((o) => o.u === c.u)) return;
  list.push(c);
  list.sort((a, b) => a.u - b.u);
  if (list.length > 2) list.length = 2;
}

/**
 * For each component of `d`'s dominator-tree children, the targets `d` dominates that a member
 * reaches in one step or more (the two of least index), from the last component to the first.
 */
function reachedTargets(graph: FlowGraph, index: Index, d: number, owned: ReadonlySet<number>) {
  const { start, child, to, via, topo } = index;
  const from = start[d] ?? 0;
  const end = start[d + 1] ?? 0;
  const bySource = new Map<number, number[]>();
  const members = new Map<number, number[]>();
  const placed = new Set<number>();
  const place = (c: number): void => {
    if (placed.has(c)) return;
    placed.add(c);
    const scc = graph.sccOf[c] ?? 0;
    const list = members.get(scc);
    if (list === undefined) members.set(scc, [c]);
    else list.push(c);
  };
  for (let k = from; k < end; k++) {
    const c = child[k] ?? 0;
    const out = bySource.get(c);
    if (out === undefined) bySource.set(c, [k]);
    else out.push(k);
    place(c);
    place(to[k] ?? 0);
  }
  const best = new Map<number, Candidate[]>();
  const order = [...members.keys()].sort((a, b) => (topo[b] ?? 0) - (topo[a] ?? 0));
  for (const scc of order) {
    const found: Candidate[] = [];
    for (const c of members.get(scc) ?? []) {
      for (const k of bySource.get(c) ?? []) {
        const y = to[k] ?? 0;
        if (owned.has(y)) keepTwo(found, { u: y, x: via[k] ?? 0 });
        const later = graph.sccOf[y] ?? 0;
        if (later !== scc) for (const o of best.get(later) ?? []) keepTwo(found, o);
      }
    }
    best.set(scc, found);
  }
  return best;
}

/** The route skips of decision `d`, which {@link mayShare} admits. */
function skipsOf(graph: FlowGraph, index: Index, d: number): SkipOf {
  const { dom, lowPred, highPred } = index;
  const owned = new Set<number>();
  const elsewhere: Candidate[] = [];
  const low = dom.pre[d] ?? 0;
  const high = dom.last[d] ?? 0;
  for (const u of neighbours(graph.successors, d)) {
    if (dom.idom[u] === d) {
      owned.add(u);
      continue;
    }
    if (elsewhere.length === 2) continue;
    // Not dominated by d: a predecessor outside d's subtree is reached without passing d.
    const lp = lowPred[u] ?? -1;
    const hp = highPred[u] ?? -1;
    const p =
      lp >= 0 && (dom.pre[lp] ?? 0) < low ? lp : hp >= 0 && (dom.pre[hp] ?? 0) > high ? hp : -1;
    if (p >= 0) elsewhere.push({ u, x: p });
  }
  const best = owned.size > 1 ? reachedTargets(graph, index, d, owned) : undefined;
  const entry = graph.entry ?? 0;
  return (t) => {
    if (t !== undefined && owned.has(t)) {
      const along = best?.get(graph.sccOf[t] ?? 0)?.find((c) => c.u !== t);
      if (along !== undefined)
        return { skipped: along.u, after: along.x, from: t, alongRoute: true };
    }
    const other = elsewhere.find((c) => c.u !== t);
    return other === undefined
      ? undefined
      : { skipped: other.u, after: other.x, from: entry, alongRoute: false };
  };
}

/**
 * The route skips of every decision of a flow graph, built on the first decision that may have
 * one (a workflow where no route target has another predecessor builds nothing): per decision
 * index, `undefined` when none of its routes skips what agentflow runs.
 */
export function routeSkips(graph: FlowGraph): (decision: number) => SkipOf | undefined {
  let index: Index | undefined;
  return (d) => {
    if (!mayShare(graph, d)) return undefined;
    index ??= buildIndex(graph);
    return skipsOf(graph, index, d);
  };
}
