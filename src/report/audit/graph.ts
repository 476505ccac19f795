/**
 * The workflow drawn in a report: the same nodes and edges as the Mermaid export (decision
 * routes instead of the edges that leave a decision, delegates as boxes of their own, one `end`
 * node), with the loop-closing edges marked so a layout can route them back up.
 */
import type { AgentWorkflow, Diagnostic } from "../../model/index.js";
import { decisionRoutes } from "../../model/index.js";
import type { GraphEdge, GraphNode } from "./types.js";

/** The id of the shared end node (workflow ids start with a letter, so `#` cannot clash). */
export const END_NODE = "#end";

/** The findings of a node without any: one list for all of them, never written to. */
const NO_FINDINGS: readonly string[] = Object.freeze([]);

function findingsByNode(diagnostics: readonly Diagnostic[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const d of diagnostics) {
    if (d.target.kind !== "node") continue;
    const list = out.get(d.target.nodeId);
    if (list === undefined) out.set(d.target.nodeId, [d.code]);
    else if (!list.includes(d.code)) list.push(d.code);
  }
  return out;
}

/**
 * The graph's edges before loops are marked, with their ends as node numbers (`from` is -1 for a
 * missing source), the delegate boxes they need, and how many edges were left out.
 */
interface Drafts {
  /** Marked `back` by {@link markBackEdges}. */
  readonly edges: { from: string; to: string; label: string; back: boolean }[];
  readonly from: number[];
  readonly to: number[];
  readonly delegates: GraphNode[];
  usesEnd: boolean;
  /** Edges and routes to a missing node: the Mermaid export draws them, the graph does not. */
  dangling: number;
}

/** Where an edge to the end node points until the end node has its number. */
const TO_END = -2;

/**
 * The graph's edges: the workflow's edges, except those that leave a decision (its routes are
 * drawn instead), and delegations to a box of their own numbered after the workflow's nodes.
 */
function draftEdges(
  wf: AgentWorkflow,
  nodes: readonly GraphNode[],
  index: ReadonlyMap<string, number>,
): Drafts {
  const out: Drafts = {
    edges: [],
    from: [],
    to: [],
    delegates: [],
    usesEnd: false,
    dangling: 0,
  };
  const add = (fromId: string, toId: string, label: string, from: number, to: number): void => {
    out.edges.push({ from: fromId, to: toId, label, back: false });
    out.from.push(from);
    out.to.push(to);
  };
  wf.edges.forEach((edge, k) => {
    const from = index.get(edge.from) ?? -1;
    if (edge.edgeType === "delegate") {
      const id = `#delegate-${k}`;
      add(edge.from, id, "delegate", from, nodes.length + out.delegates.length);
      out.delegates.push({ id, type: "delegate", label: edge.to, findings: [] });
      return;
    }
    if (nodes[from]?.type === "decision") return;
    const to = index.get(edge.to);
    if (to === undefined) out.dangling += 1;
    else add(edge.from, edge.to, edge.when ?? edge.edgeType, from, to);
  });
  // The routes of the first node of each id, as the graph keeps the first node of a duplicate id.
  const seen = new Set<string>();
  for (const node of wf.nodes) {
    const from = index.get(node.id) ?? -1;
    if (node.type !== "decision" || nodes[from]?.type !== "decision" || seen.has(node.id)) continue;
    seen.add(node.id);
    for (const route of decisionRoutes(node.config)) {
      const to = route.next === "end" ? TO_END : index.get(route.next);
      if (to === undefined) {
        out.dangling += 1;
        continue;
      }
      if (to === TO_END) out.usesEnd = true;
      const bound = route.maxRetries === undefined ? "" : ` · max ${route.maxRetries}`;
      const target = to === TO_END ? END_NODE : route.next;
      add(node.id, target, route.label + bound, from, to);
    }
  }
  return out;
}

/**
 * Marks edges that close a cycle (to a node on the DFS stack). The DFS is iterative and runs on
 * node numbers, with the edges grouped by source once, so a 100,000-node chain is one linear pass.
 */
function markBackEdges(n: number, from: readonly number[], to: readonly number[]): Uint8Array {
  // The out-edges of node v, in edge order, are adjacency[start[v]] to adjacency[start[v + 1] - 1].
  const start = new Int32Array(n + 1);
  for (const v of from) if (v >= 0) start[v + 1] = (start[v + 1] ?? 0) + 1;
  for (let v = 0; v < n; v++) start[v + 1] = (start[v + 1] ?? 0) + (start[v] ?? 0);
  const fill = start.slice(0, n);
  const adjacency = new Int32Array(start[n] ?? 0);
  from.forEach((v, i) => {
    if (v < 0) return;
    const at = fill[v] ?? 0;
    adjacency[at] = i;
    fill[v] = at + 1;
  });
  const state = new Uint8Array(n); // 0 unseen, 1 on the DFS stack, 2 done
  const next = start.slice(0, n); // per node: the next of its out-edges to follow
  const stack = new Int32Array(n);
  const back = new Uint8Array(from.length);
  for (let root = 0; root < n; root++) {
    if (state[root] !== 0) continue;
    let depth = 0;
    stack[depth++] = root;
    state[root] = 1;
    while (depth > 0) {
      const v = stack[depth - 1] ?? 0;
      const at = next[v] ?? 0;
      if (at >= (start[v + 1] ?? 0)) {
        state[v] = 2;
        depth -= 1;
        continue;
      }
      next[v] = at + 1;
      const i = adjacency[at] ?? 0;
      const w = to[i] ?? -1;
      if (state[w] === 1) back[i] = 1;
      else if (state[w] === 0) {
        state[w] = 1;
        stack[depth++] = w;
      }
    }
  }
  return back;
}

/**
 * The drawable graph of a workflow, its nodes marked with the codes of their diagnostics.
 * Edges and routes to a missing node are left out and counted as `dangling` (validation reports
 * each one).
 *
 * @example
 * ```ts
 * import { getTemplate } from "agentflow/model";
 * import { END_NODE, workflowGraph } from "agentflow/report";
 *
 * const wf = getTemplate("research");
 * if (wf === undefined) throw new Error("no such template");
 * const { nodes, edges, dangling } = workflowGraph(wf, []);
 * nodes.map((n) => n.id); // → ["llm-1", "tool-2", "dec-3", END_NODE]
 * // the retry closes a loop: a layout draws it back up
 * edges.filter((e) => e.back); // → [{ from: "dec-3", to: "llm-1", label: "onFalse · max 3", back: true }]
 * dangling; // → 0
 * ```
 */
export function workflowGraph(
  wf: AgentWorkflow,
  diagnostics: readonly Diagnostic[],
): { nodes: GraphNode[]; edges: GraphEdge[]; dangling: number } {
  const findings = findingsByNode(diagnostics);
  const index = new Map<string, number>();
  const nodes: GraphNode[] = [];
  for (const node of wf.nodes) {
    if (index.has(node.id)) continue;
    index.set(node.id, nodes.length);
    nodes.push({
      id: node.id,
      type: node.type,
      label: node.name ?? node.id,
      // Shared by the nodes without findings: 100,000 of them need no list each.
      findings: findings.get(node.id) ?? NO_FINDINGS,
    });
  }
  const drafts = draftEdges(wf, nodes, index);
  for (const box of drafts.delegates) nodes.push(box);
  const end = nodes.length;
  if (drafts.usesEnd) nodes.push({ id: END_NODE, type: "end", label: "end", findings: [] });
  const to = drafts.to;
  to.forEach((v, i) => {
    if (v === TO_END) to[i] = end;
  });
  const back = markBackEdges(nodes.length, drafts.from, to);
  drafts.edges.forEach((e, i) => {
    e.back = back[i] === 1;
  });
  return { nodes, edges: drafts.edges, dangling: drafts.dangling };
}
