/**
 * Inlining the sentinels xray draws for a subgraph (`writer_team:__start__`, `:__end__`): they are
 * the subgraph's entry and exit, not steps, so each path through one becomes one edge from the
 * step before it to the step after it. Chains of sentinels (nested subgraphs) are followed with a
 * stack, never by recursion, and each sentinel is expanded once.
 *
 * A sentinel that a router leaves (two or more conditional edges: the parent's router on the
 * subgraph's node, after its exit) is not inlined: joining would give every step before it the
 * same label for every branch after it, so that only the first branch could ever be taken and
 * the router's labels would vanish. It stays, and `graph-build.ts` makes it the router's decision,
 * which every step leading out of the subgraph leads to, each edge with its own label.
 */
import { pointer } from "../../model/index.js";
import type { InteropWarning } from "../types.js";
import { dropped, guessed } from "../warnings.js";
import type { SourceEdge, SourceNode } from "./graph-read.js";

/** A subgraph's entry or exit sentinel (`sub:__start__`, `sub:__end__`). */
export function isJunction(node: SourceNode): boolean {
  return node.sentinel === "entry" || node.sentinel === "exit";
}

/**
 * The subgraph sentinels that a router leaves: two or more out-edges, all conditional. One that
 * also has a plain out-edge runs that edge beside the router (a fan-out a decision cannot stand
 * for), so it is inlined as before.
 */
export function routerJunctions(edges: readonly SourceEdge[]): Set<SourceNode> {
  const count = new Map<SourceNode, number>();
  for (const e of edges) {
    if (!isJunction(e.from)) continue;
    count.set(e.from, e.conditional ? (count.get(e.from) ?? 0) + 1 : Number.NEGATIVE_INFINITY);
  }
  return new Set([...count].filter(([, n]) => n >= 2).map(([j]) => j));
}

/** The subgraph a sentinel id belongs to: `a:b:__start__` → `a:b`. */
export function subgraphOf(node: SourceNode): string {
  return node.name.slice(0, node.name.lastIndexOf(":"));
}

/** One edge leaving a sentinel, as seen from a step: through any chain of sentinels. */
interface Reach {
  readonly to: SourceNode;
  readonly label?: string;
  /** The index of the edge the label is written on. */
  readonly labelAt?: number;
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
  stops: ReadonlySet<SourceNode>,
  lost: Lost,
): readonly Reach[] {
  const inlined = (n: SourceNode): boolean => isJunction(n) && !stops.has(n);
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
      for (const e of out) if (inlined(e.to) && !memo.has(e.to)) stack.push([e.to, false]);
      continue;
    }
    const reach: Reach[] = [];
    for (const e of out) {
      const own = {
        conditional: e.conditional,
        ...(e.label === undefined ? {} : { label: e.label, labelAt: e.index }),
      };
      if (!inlined(e.to)) {
        reach.push({ to: e.to, ...own });
        continue;
      }
      for (const r of memo.get(e.to) ?? []) reach.push(joined(own, r, lost));
    }
    memo.set(node, reach);
  }
  return memo.get(start) ?? [];
}

/** Labels a join could not keep, by the index of the edge that carries them: label and kept. */
type Lost = Map<number, { readonly label: string; readonly kept: string }>;

/**
 * One path through a sentinel: conditional when either part is; the label of the edge into it,
 * else the one after it. Both have one only when the edge after the sentinel is its only branch
 * (a router with two or more branches keeps its sentinel instead), so that edge's label names no
 * choice; it is recorded in `lost` for the caller to declare.
 */
function joined(into: Omit<Reach, "to">, out: Reach, lost: Lost): Reach {
  const label = into.label ?? out.label;
  const labelAt = into.label === undefined ? out.labelAt : into.labelAt;
  if (into.label !== undefined && out.label !== undefined && out.labelAt !== undefined)
    lost.set(out.labelAt, { label: out.label, kept: into.label });
  return {
    to: out.to,
    conditional: into.conditional || out.conditional,
    ...(label === undefined ? {} : { label }),
    ...(labelAt === undefined ? {} : { labelAt }),
  };
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
  const stops = routerJunctions(edges);
  for (const j of junctions) declareJunction(j, stops.has(j), warnings);
  const memo = new Map<SourceNode, readonly Reach[]>();
  const lost: Lost = new Map();
  const out: SourceEdge[] = [];
  const inlined = (n: SourceNode): boolean => isJunction(n) && !stops.has(n);
  for (const e of edges) {
    if (inlined(e.from)) continue;
    if (!inlined(e.to)) {
      out.push(e);
      continue;
    }
    const reach = reachOf(e.to, outOf, memo, stops, lost);
    if (reach.length === 0) {
      const message = `edge ${String(e.index)} into '${e.to.name}' is not kept: no step follows that subgraph sentinel`;
      warnings.push(
        dropped(pointer("edges", e.index), message, { from: e.from.rawId, to: e.to.rawId }),
      );
    }
    const into = {
      conditional: e.conditional,
      ...(e.label === undefined ? {} : { label: e.label, labelAt: e.index }),
    };
    for (const r of reach) {
      const j = joined(into, r, lost);
      out.push({
        index: e.index,
        from: e.from,
        to: j.to,
        conditional: j.conditional,
        ...(j.label === undefined ? {} : { label: j.label }),
      });
    }
  }
  for (const [at, { label, kept }] of [...lost].sort(([a], [b]) => a - b)) {
    const message = `edge ${String(at)}: its label '${label}' is not kept: it is the only branch after its subgraph sentinel, and the path through the sentinel keeps the label '${kept}' of the edge before it`;
    warnings.push(dropped(pointer("edges", at, "data"), message, { key: "data", label, kept }));
  }
  // Every sentinel a step leads into, directly or down a chain, was expanded into `memo`.
  for (const [j, list] of outOf) {
    if (memo.has(j) || stops.has(j)) continue;
    for (const e of list) {
      const message = `edge ${String(e.index)} out of '${j.name}' is not kept: no step leads into that subgraph sentinel`;
      warnings.push(
        dropped(pointer("edges", e.index), message, { from: e.from.rawId, to: e.to.rawId }),
      );
    }
  }
  return out;
}

/** The `HEURISTIC` that says what a subgraph sentinel is read as. */
function declareJunction(j: SourceNode, router: boolean, warnings: InteropWarning[]): void {
  const role = j.sentinel === "entry" ? "entry" : "exit";
  const subgraph = subgraphOf(j);
  const message = router
    ? `'${j.name}' is the ${role} of the subgraph '${subgraph}', drawn by xray; it is not a step: a router leaves it, so it becomes that router's decision, and every edge into it leads to the decision with its own label`
    : `'${j.name}' is the ${role} of the subgraph '${subgraph}', drawn by xray; it is not a step: its edges are joined to the steps on either side`;
  warnings.push(
    guessed(pointer("nodes", j.index, "id"), message, {
      nodeId: j.name,
      subgraph,
      role,
      ...(router ? { router: true } : {}),
    }),
  );
}
