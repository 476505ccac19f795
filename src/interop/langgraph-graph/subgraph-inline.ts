/**
 * Inlining the sentinels xray draws for a subgraph (`writer_team:__start__`, `:__end__`): they are
 * the subgraph's entry and exit, not steps, so each path through one becomes one edge from the
 * step before it to the step after it. Chains of sentinels (nested subgraphs) are followed with a
 * stack, never by recursion, and each sentinel is expanded once.
 */
import { pointer } from "../../model/index.js";
import type { InteropWarning } from "../types.js";
import { HEURISTIC } from "../types.js";
import type { SourceEdge, SourceNode } from "./graph-read.js";
import { dropped } from "./graph-read.js";

function isJunction(node: SourceNode): boolean {
  return node.sentinel === "entry" || node.sentinel === "exit";
}

/** The subgraph a sentinel id belongs to: `a:b:__start__` → `a:b`. */
function subgraphOf(node: SourceNode): string {
  return node.name.slice(0, node.name.lastIndexOf(":"));
}

/** One edge leaving a sentinel, as seen from a step: through any chain of sentinels. */
interface Reach {
  readonly to: SourceNode;
  readonly label?: string;
  readonly conditional: boolean;
}

/**
 * What each sentinel leads to, in edge order: the first step (or `__end__`) down each chain of
 * sentinels. Memoised per sentinel, so the whole pass is linear in the edges it writes.
 */
function reachOf(
  start: SourceNode,
  outOf: ReadonlyMap<SourceNode, readonly SourceEdge[]>,
  memo: Map<SourceNode, readonly Reach[]>,
): readonly Reach[] {
  const known = memo.get(start);
  if (known !== undefined) return known;
  // Post-order over the sentinel chain; a sentinel met again on the way (a cycle of sentinels
  // alone, which LangGraph does not draw) contributes nothing rather than looping.
  const stack: [SourceNode, boolean][] = [[start, false]];
  const open = new Set<SourceNode>();
  while (stack.length > 0) {
    const [node, expanded] = stack.pop() ?? [start, true];
    if (memo.has(node)) continue;
    const out = outOf.get(node) ?? [];
    if (!expanded) {
      if (open.has(node)) continue;
      open.add(node);
      stack.push([node, true]);
      for (const e of out) if (isJunction(e.to) && !memo.has(e.to)) stack.push([e.to, false]);
      continue;
    }
    const reach: Reach[] = [];
    for (const e of out) {
      const own = {
        conditional: e.conditional,
        ...(e.label === undefined ? {} : { label: e.label }),
      };
      if (!isJunction(e.to)) {
        reach.push({ to: e.to, ...own });
        continue;
      }
      for (const r of memo.get(e.to) ?? []) {
        const label = own.label ?? r.label;
        reach.push({
          to: r.to,
          conditional: own.conditional || r.conditional,
          ...(label === undefined ? {} : { label }),
        });
      }
    }
    memo.set(node, reach);
  }
  return memo.get(start) ?? [];
}

/**
 * The edges with every subgraph sentinel inlined: an edge into a sentinel becomes one edge per
 * step it leads to (keeping the edge's index, so warnings point at the edge into the subgraph);
 * a branch is conditional when either part is, and keeps the first label. Each sentinel is
 * declared (`HEURISTIC`); an edge no step leads into or out of is declared dropped.
 */
export function inlineSubgraphSentinels(
  nodes: Iterable<SourceNode>,
  edges: readonly SourceEdge[],
  warnings: InteropWarning[],
): SourceEdge[] {
  const outOf = new Map<SourceNode, SourceEdge[]>();
  for (const e of edges) {
    if (!isJunction(e.from)) continue;
    const list = outOf.get(e.from) ?? [];
    list.push(e);
    outOf.set(e.from, list);
  }
  const junctions = [...nodes].filter(isJunction);
  if (junctions.length === 0) return [...edges];
  for (const j of junctions) {
    const role = j.sentinel === "entry" ? "entry" : "exit";
    const subgraph = subgraphOf(j);
    const message = `'${j.name}' is the ${role} of the subgraph '${subgraph}', drawn by xray; it is not a step: its edges are joined to the steps on either side`;
    warnings.push({
      code: HEURISTIC,
      message,
      path: pointer("nodes", j.index, "id"),
      data: { nodeId: j.name, subgraph, role },
    });
  }
  const memo = new Map<SourceNode, readonly Reach[]>();
  const out: SourceEdge[] = [];
  for (const e of edges) {
    if (isJunction(e.from)) continue;
    if (!isJunction(e.to)) {
      out.push(e);
      continue;
    }
    const reach = reachOf(e.to, outOf, memo);
    if (reach.length === 0) {
      const message = `edge ${String(e.index)} into '${e.to.name}' is not kept: no step follows that subgraph sentinel`;
      warnings.push(
        dropped(pointer("edges", e.index), message, { from: e.from.rawId, to: e.to.rawId }),
      );
    }
    for (const r of reach) {
      const label = e.label ?? r.label;
      out.push({
        index: e.index,
        from: e.from,
        to: r.to,
        conditional: e.conditional || r.conditional,
        ...(label === undefined ? {} : { label }),
      });
    }
  }
  // Every sentinel a step leads into, directly or down a chain, was expanded into `memo`.
  for (const [j, list] of outOf) {
    if (memo.has(j)) continue;
    for (const e of list) {
      const message = `edge ${String(e.index)} out of '${j.name}' is not kept: no step leads into that subgraph sentinel`;
      warnings.push(
        dropped(pointer("edges", e.index), message, { from: e.from.rawId, to: e.to.rawId }),
      );
    }
  }
  return out;
}
