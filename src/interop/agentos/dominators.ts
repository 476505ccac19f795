/**
 * The dominator tree of a workflow's flow from its entry: node `d` dominates `v` when every path
 * from the entry to `v` passes `d`. Lengauer and Tarjan's algorithm with path compression,
 * O(E log V), every step a loop (a 100,000-node chain is as deep as the tree), so that the
 * export asks "is this node reached without passing that decision" of every route at once.
 * Written here because no well-kept JavaScript graph library computes dominators (graphology and
 * dagre's graphlib have none), and the few small packages that do recurse on the depth-first
 * search, which a 100,000-node chain overflows.
 */
import type { FlowGraph } from "../../model/index.js";
import { neighbours } from "../../model/index.js";

/** The dominator tree, by node index; nodes no run reaches are in no tree (-1 throughout). */
export interface Dominators {
  /** Each node's immediate dominator; -1 for the entry and for nodes no run reaches. */
  readonly idom: Int32Array;
  /** Each node's position in the tree's preorder: its subtree is `pre[v]..last[v]`. */
  readonly pre: Int32Array;
  /** The preorder position of the last node of each node's subtree. */
  readonly last: Int32Array;
  /** Each node's depth in the tree, the entry at 0. */
  readonly depth: Int32Array;
  /** The nodes a run reaches, in the tree's preorder. */
  readonly order: Int32Array;
}

type Flow = Pick<FlowGraph, "nodes" | "successors" | "predecessors" | "entry">;

/** Depth-first numbering from the entry (1 up, 0 unreached), with each number's tree parent. */
function number(flow: Flow): { num: Int32Array; vertex: Int32Array; parent: Int32Array } {
  const size = flow.nodes.length;
  const num = new Int32Array(size);
  const vertex = new Int32Array(size + 1);
  const parent = new Int32Array(size + 1);
  const { entry } = flow;
  if (entry === undefined) return { num, vertex, parent };
  const { offsets, targets } = flow.successors;
  const next = new Int32Array(size);
  const stack = new Int32Array(size);
  let n = 1;
  num[entry] = 1;
  vertex[1] = entry;
  next[entry] = offsets[entry] ?? 0;
  stack[0] = entry;
  for (let sp = 1; sp > 0;) {
    const top = stack[sp - 1] ?? 0;
    const at = next[top] ?? 0;
    if (at >= (offsets[top + 1] ?? 0)) {
      sp--;
      continue;
    }
    next[top] = at + 1;
    const y = targets[at] ?? 0;
    if (num[y] !== 0) continue;
    n++;
    num[y] = n;
    vertex[n] = y;
    parent[n] = num[top] ?? 0;
    next[y] = offsets[y] ?? 0;
    stack[sp++] = y;
  }
  return { num, vertex: vertex.subarray(0, n + 1), parent: parent.subarray(0, n + 1) };
}

/** Immediate dominators by depth-first number (index and value), 0 for the entry's. */
function idomNumbers(flow: Flow, num: Int32Array, vertex: Int32Array, parent: Int32Array) {
  const n = vertex.length - 1;
  const semi = Int32Array.from({ length: n + 1 }, (_, i) => i);
  const label = Int32Array.from(semi);
  const ancestor = new Int32Array(n + 1);
  const idom = new Int32Array(n + 1);
  const bucket = new Int32Array(n + 1);
  const nextInBucket = new Int32Array(n + 1);
  const path: number[] = [];
  // The vertex of least semidominator on v's path in the linked forest, compressing that path.
  const evaluate = (v: number): number => {
    if (ancestor[v] === 0) return v;
    let x = v;
    while (ancestor[ancestor[x] ?? 0] !== 0) {
      path.push(x);
      x = ancestor[x] ?? 0;
    }
    for (let y = path.pop(); y !== undefined; y = path.pop()) {
      const a = ancestor[y] ?? 0;
      if ((semi[label[a] ?? 0] ?? 0) < (semi[label[y] ?? 0] ?? 0)) label[y] = label[a] ?? 0;
      ancestor[y] = ancestor[a] ?? 0;
    }
    return label[v] ?? v;
  };
  for (let w = n; w >= 2; w--) {
    for (const v of neighbours(flow.predecessors, vertex[w] ?? 0)) {
      const nv = num[v] ?? 0;
      if (nv === 0) continue;
      const u = evaluate(nv);
      if ((semi[u] ?? 0) < (semi[w] ?? 0)) semi[w] = semi[u] ?? 0;
    }
    const s = semi[w] ?? 0;
    nextInBucket[w] = bucket[s] ?? 0;
    bucket[s] = w;
    const p = parent[w] ?? 0;
    ancestor[w] = p;
    for (let v = bucket[p] ?? 0; v !== 0; v = nextInBucket[v] ?? 0) {
      const u = evaluate(v);
      idom[v] = (semi[u] ?? 0) < (semi[v] ?? 0) ? u : p;
    }
    bucket[p] = 0;
  }
  for (let w = 2; w <= n; w++) if (idom[w] !== semi[w]) idom[w] = idom[idom[w] ?? 0] ?? 0;
  return idom;
}

/**
 * The dominator tree of the flow from its entry, children in document order: for
 * `llm-extract → dec-validate → llm-classify`, `idom` is `[-1, 0, 1]`.
 */
export function dominators(flow: Flow): Dominators {
  const size = flow.nodes.length;
  const { num, vertex, parent } = number(flow);
  const byNumber = idomNumbers(flow, num, vertex, parent);
  const n = vertex.length - 1;
  const idom = new Int32Array(size).fill(-1);
  for (let w = 2; w <= n; w++) idom[vertex[w] ?? 0] = vertex[byNumber[w] ?? 0] ?? -1;
  // Children lists (CSR), each in document order.
  const offsets = new Int32Array(size + 1);
  for (let v = 0; v < size; v++) {
    const d = idom[v] ?? -1;
    if (d >= 0) offsets[d + 1] = (offsets[d + 1] ?? 0) + 1;
  }
  for (let v = 0; v < size; v++) offsets[v + 1] = (offsets[v + 1] ?? 0) + (offsets[v] ?? 0);
  const children = new Int32Array(offsets[size] ?? 0);
  const cursor = offsets.slice(0, size);
  for (let v = 0; v < size; v++) {
    const d = idom[v] ?? -1;
    if (d < 0) continue;
    const at = cursor[d] ?? 0;
    children[at] = v;
    cursor[d] = at + 1;
  }
  const pre = new Int32Array(size).fill(-1);
  const last = new Int32Array(size).fill(-1);
  const depth = new Int32Array(size).fill(-1);
  const order = new Int32Array(n);
  const { entry } = flow;
  if (entry === undefined || n === 0) return { idom, pre, last, depth, order };
  // Preorder by an explicit stack: children pushed last first, so they come out in order.
  const stack = [entry];
  depth[entry] = 0;
  for (let k = 0, v = stack.pop(); v !== undefined; v = stack.pop(), k++) {
    pre[v] = k;
    order[k] = v;
    for (let c = (offsets[v + 1] ?? 0) - 1; c >= (offsets[v] ?? 0); c--) {
      const child = children[c] ?? 0;
      depth[child] = (depth[v] ?? 0) + 1;
      stack.push(child);
    }
  }
  // A subtree ends where its last child's does: sizes summed up from the leaves.
  const count = new Int32Array(size);
  for (let k = n - 1; k >= 0; k--) {
    const v = order[k] ?? 0;
    count[v] = (count[v] ?? 0) + 1;
    last[v] = k + (count[v] ?? 1) - 1;
    const d = idom[v] ?? -1;
    if (d >= 0) count[d] = (count[d] ?? 0) + (count[v] ?? 0);
  }
  return { idom, pre, last, depth, order };
}
