/**
 * An AgentOS graph as its scheduler (0.9.164 `NodeScheduler`) reads it: each node waits for the
 * sources of its in-edges. What a route runs past the targets it skips (`skipped.ts`) is searched
 * here, within per-import budgets, so that a large graph stays linear; the edges that only make
 * a target wait (`waits.ts`) are left out of the graph that search reads.
 */
import { adjacencyFromLists, tarjanScc } from "../../model/index.js";
import type { Draft, Edge, MappedNode } from "./types.js";
import { CONDITIONAL, END, START } from "./types.js";

/** The source graph by source node index, as AgentOS's scheduler reads it. */
export interface SourceGraph {
  /** Workflow ids and source ids, by node index. */
  readonly ids: readonly string[];
  readonly names: readonly string[];
  readonly index: ReadonlyMap<string, number>;
  /** Each node's out-edge targets (no `__END__`): the nodes that wait for it. */
  readonly succ: readonly (readonly number[])[];
  /** Some edge leads to `__CONDITIONAL__`. */
  readonly wild: boolean;
}

/**
 * Nodes a reachability search may visit per import: past it a route keeps every candidate,
 * which over-reads what runs (stricter) instead of searching for minutes.
 */
const MAX_VISITS = 1_000_000;
/** Route-candidate pairs per import; a choice past it leads all its routes to one shared step. */
const MAX_LEADS = 100_000;

/** The source graph: nodes in source order, each with its out-edge targets. */
export function sourceGraph(
  edges: readonly Edge[],
  nodes: ReadonlyMap<string, MappedNode>,
): SourceGraph {
  const list = [...nodes.values()].sort((a, b) => a.index - b.index);
  const index = new Map(list.map((n, i) => [n.nodeId, i]));
  const succ: number[][] = list.map(() => []);
  let wild = false;
  for (const edge of edges) {
    if (edge.target === CONDITIONAL) wild = true;
    if (edge.source === START || edge.target === END) continue;
    const from = index.get(nodes.get(edge.source)?.nodeId ?? "");
    const to = index.get(nodes.get(edge.target)?.nodeId ?? "");
    if (from !== undefined && to !== undefined) succ[from]?.push(to);
  }
  return { ids: list.map((n) => n.nodeId), names: list.map((n) => n.sourceId), index, succ, wild };
}

/** The graph's cycles: each node's strongly connected component, and whether it is on a cycle. */
export interface Cycles {
  readonly sccOf: Int32Array;
  /** 1 for a node on a cycle: AgentOS never starts one (its head waits for it). */
  readonly cyclic: Uint8Array;
}

/** The cycles of the source graph: a choice on one skips nothing, and an edge on one is kept. */
export function cycles(graph: SourceGraph): Cycles {
  const { sccOf, sccMembers } = tarjanScc(adjacencyFromLists(graph.succ));
  const size = (c: number): number =>
    (sccMembers.offsets[c + 1] ?? 0) - (sccMembers.offsets[c] ?? 0);
  const cyclic = Uint8Array.from(graph.succ, (next, v) =>
    size(sccOf[v] ?? 0) > 1 || next.includes(v) ? 1 : 0,
  );
  return { sccOf, cyclic };
}

/** Mutable per-import budgets, the search's scratch stamps, and the edges documenting routes. */
export interface Work {
  visits: number;
  leads: number;
  stamp: number;
  readonly seen: Int32Array;
  readonly docs: { readonly at: number; readonly edge: Draft }[];
}

/** The work of one import, with its budgets full. */
export function startWork(graph: SourceGraph): Work {
  return {
    visits: MAX_VISITS,
    leads: MAX_LEADS,
    stamp: 0,
    seen: new Int32Array(graph.ids.length),
    docs: [],
  };
}

/**
 * The candidates that `from` does not reach without passing a skipped node or the choice's own
 * node: those the route must lead on to. Out of budget, all of them (the stricter reading).
 */
export function unreached(
  graph: SourceGraph,
  from: number | undefined,
  candidates: readonly number[],
  blocked: (v: number) => boolean,
  work: Work,
): number[] {
  if (from === undefined) return [...candidates];
  const wanted = new Set(candidates);
  const stamp = ++work.stamp;
  work.seen[from] = stamp;
  const queue = [from];
  for (let head = 0; head < queue.length && wanted.size > 0; head++) {
    if (--work.visits < 0) return [...candidates];
    for (const next of graph.succ[queue[head] ?? 0] ?? []) {
      if (work.seen[next] === stamp || blocked(next)) continue;
      work.seen[next] = stamp;
      wanted.delete(next);
      queue.push(next);
    }
  }
  return candidates.filter((c) => wanted.has(c));
}
