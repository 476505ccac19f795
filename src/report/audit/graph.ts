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

function findingsByNode(diagnostics: readonly Diagnostic[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const d of diagnostics) {
    if (d.target.kind !== "node") continue;
    const list = out.get(d.target.nodeId) ?? [];
    if (!list.includes(d.code)) list.push(d.code);
    out.set(d.target.nodeId, list);
  }
  return out;
}

function draftEdges(wf: AgentWorkflow, ids: ReadonlySet<string>): Omit<GraphEdge, "back">[] {
  const types = new Map(wf.nodes.map((n) => [n.id, n.type]));
  const edges: Omit<GraphEdge, "back">[] = [];
  wf.edges.forEach((edge, k) => {
    if (edge.edgeType === "delegate") {
      edges.push({ from: edge.from, to: `#delegate-${k}`, label: "delegate" });
      return;
    }
    if (types.get(edge.from) === "decision" || !ids.has(edge.to)) return;
    edges.push({ from: edge.from, to: edge.to, label: edge.when ?? edge.edgeType });
  });
  const seen = new Set<string>();
  for (const node of wf.nodes) {
    if (node.type !== "decision" || seen.has(node.id)) continue;
    seen.add(node.id);
    for (const route of decisionRoutes(node.config)) {
      const to = route.next === "end" ? END_NODE : route.next;
      if (to !== END_NODE && !ids.has(to)) continue;
      const bound = route.maxRetries === undefined ? "" : ` · max ${route.maxRetries}`;
      edges.push({ from: node.id, to, label: route.label + bound });
    }
  }
  return edges;
}

/** Marks edges that close a cycle (to a node on the DFS stack), with an iterative DFS. */
function markBackEdges(
  order: readonly string[],
  edges: readonly Omit<GraphEdge, "back">[],
): GraphEdge[] {
  const out = new Map<string, number[]>();
  edges.forEach((e, i) => {
    const list = out.get(e.from) ?? [];
    list.push(i);
    out.set(e.from, list);
  });
  const state = new Map<string, 1 | 2>();
  const back = new Set<number>();
  for (const root of order) {
    if (state.has(root)) continue;
    const stack: { id: string; next: number }[] = [{ id: root, next: 0 }];
    state.set(root, 1);
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (top === undefined) break;
      const list = out.get(top.id) ?? [];
      const i = list[top.next++];
      if (i === undefined) {
        state.set(top.id, 2);
        stack.pop();
        continue;
      }
      const to = edges[i]?.to ?? "";
      const seen = state.get(to);
      if (seen === 1) back.add(i);
      else if (seen === undefined) {
        state.set(to, 1);
        stack.push({ id: to, next: 0 });
      }
    }
  }
  return edges.map((e, i) => ({ ...e, back: back.has(i) }));
}

/**
 * The drawable graph of a workflow, its nodes marked with the codes of their diagnostics.
 *
 * @example
 * ```ts
 * import { getTemplate } from "agentflow/model";
 * import { END_NODE, workflowGraph } from "agentflow/report";
 *
 * const wf = getTemplate("research");
 * if (wf === undefined) throw new Error("no such template");
 * const { nodes, edges } = workflowGraph(wf, []);
 * nodes.map((n) => n.id); // → ["llm-1", "tool-2", "dec-3", END_NODE]
 * // the retry closes a loop: a layout draws it back up
 * edges.filter((e) => e.back); // → [{ from: "dec-3", to: "llm-1", label: "onFalse · max 3", back: true }]
 * ```
 */
export function workflowGraph(
  wf: AgentWorkflow,
  diagnostics: readonly Diagnostic[],
): { nodes: GraphNode[]; edges: GraphEdge[] } {
  const findings = findingsByNode(diagnostics);
  const ids = new Set<string>();
  const nodes: GraphNode[] = [];
  for (const node of wf.nodes) {
    if (ids.has(node.id)) continue;
    ids.add(node.id);
    nodes.push({
      id: node.id,
      type: node.type,
      label: node.name ?? node.id,
      findings: findings.get(node.id) ?? [],
    });
  }
  const drafts = draftEdges(wf, ids);
  wf.edges.forEach((edge, k) => {
    if (edge.edgeType === "delegate") {
      nodes.push({ id: `#delegate-${k}`, type: "delegate", label: edge.to, findings: [] });
    }
  });
  if (drafts.some((e) => e.to === END_NODE)) {
    nodes.push({ id: END_NODE, type: "end", label: "end", findings: [] });
  }
  return {
    nodes,
    edges: markBackEdges(
      nodes.map((n) => n.id),
      drafts,
    ),
  };
}
