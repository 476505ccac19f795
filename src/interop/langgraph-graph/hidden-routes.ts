/**
 * Steps the drawing reaches by no edge. Python's `get_graph()` draws only the branches a router
 * declares (a path map, a `Literal` return type, `Command[Literal[...]]`): a router with neither,
 * or a node that returns an untyped `Command(goto=...)`, declares none, so the nodes it reaches are
 * drawn with no edge at all (their own edges are not traced either), and its node as a last node,
 * one edge into `__end__`. They run all the same. Read as unreachable, they hid their effects and
 * the branching from the verdict: the level fell from the typed app's 3 to 1. What runs after
 * them is unknown too (`hidden-successors.ts`).
 *
 * So the drawing is read as missing a router: the steps it leaves unreached become the branches
 * of a text decision (never simulable, otherwise the end), placed after the node read as the
 * router, with the conditional edges that decision would have been drawn with. The node is the
 * one step the drawing ends at (every drawn out-edge into `__end__`); when that cannot be told
 * (several such steps, or none), the first of them (else the first reached step without a router
 * of its own) stands in, and the guess says so: the hidden steps run and the graph branches under
 * any choice, and a single router lets a run replay flag any other node's jump to them.
 */
import { adjacencyFromLists, pointer, tarjanScc } from "../../model/index.js";
import { appendTo } from "../edge-index.js";
import type { InteropWarning } from "../types.js";
import { guessed } from "../warnings.js";
import type { SourceEdge, SourceNode } from "./graph-read.js";
import { declareUnknownSuccessors, unknownSuccessorBranches } from "./hidden-successors.js";
import type { RouterPlan } from "./routers.js";

/** How the undrawn routing is read in. */
export interface HiddenRoutes {
  /** The source edges with the undrawn branches in (`SourceEdge.hidden`). */
  readonly edges: readonly SourceEdge[];
  /** The steps the drawing reaches by no edge, each the head of an unreached part, in order. */
  readonly targets: readonly SourceNode[];
  /** The node read as the router: its conditional edges now hold the branches. */
  readonly router: SourceNode;
  /** The steps the drawing ends at (every out-edge into `__end__`), any of which may route. */
  readonly candidates: readonly SourceNode[];
  /** Whether the router is the one such step (else a stand-in, the reading the guess names). */
  readonly likely: boolean;
  /** The branches read in, one per target. */
  readonly branches: readonly SourceEdge[];
  /**
   * The unreached steps with no drawn edge of their own, in document order: what runs after them
   * is unknown, so each routes to every step and the end (`hidden-successors.ts`).
   */
  readonly open: readonly SourceNode[];
}

/** `__end__` for a router whose drawing has no edge into it (no node the drawing ends at). */
const END: SourceNode = Object.freeze({
  index: -1,
  rawId: "__end__",
  name: "__end__",
  sentinel: "end",
  data: undefined,
});

/** Marks every node reached from `from`, iteratively (a chain of 100,000 steps). */
function walk(
  from: SourceNode,
  out: ReadonlyMap<SourceNode, readonly SourceNode[]>,
  seen: Set<SourceNode>,
): void {
  const stack = [from];
  seen.add(from);
  for (let n = stack.pop(); n !== undefined; n = stack.pop()) {
    for (const next of out.get(n) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(next);
    }
  }
}

/**
 * The unreached steps something hidden must reach: the first step (in document order) of each
 * part of the unreached graph that no other unreached part leads into (a step with no edge in, or
 * a cycle entered from nowhere); the rest is reached through them. Linear: one Tarjan pass over
 * the unreached nodes, and each node walked once.
 */
function headsOf(
  steps: readonly SourceNode[],
  edges: readonly SourceEdge[],
  out: ReadonlyMap<SourceNode, readonly SourceNode[]>,
  seen: Set<SourceNode>,
): SourceNode[] {
  const index = new Map<SourceNode, number>();
  for (const e of edges)
    for (const n of [e.from, e.to]) if (!seen.has(n) && !index.has(n)) index.set(n, index.size);
  for (const s of steps) if (!seen.has(s) && !index.has(s)) index.set(s, index.size);
  const lists: number[][] = [...index.keys()].map((n) =>
    (out.get(n) ?? []).flatMap((t) => index.get(t) ?? []),
  );
  const { sccOf } = tarjanScc(adjacencyFromLists(lists));
  const entered = new Set<number>();
  lists.forEach((list, u) => {
    for (const v of list) if (sccOf[v] !== sccOf[u]) entered.add(sccOf[v] ?? -1);
  });
  const heads: SourceNode[] = [];
  const open = (s: SourceNode): boolean => !entered.has(sccOf[index.get(s) ?? -1] ?? -1);
  // A part entered only through a subgraph sentinel no step leads to: its first step, then.
  for (const pass of [open, () => true]) {
    for (const s of steps) {
      if (seen.has(s) || !pass(s)) continue;
      heads.push(s);
      walk(s, out, seen);
    }
  }
  return heads;
}

/** The node read as the router, and whether the drawing tells it. */
function routerOf(
  start: SourceNode,
  reached: readonly SourceNode[],
  candidates: readonly SourceNode[],
  edges: readonly SourceEdge[],
): { readonly router: SourceNode; readonly likely: boolean } {
  const only = candidates.length === 1 ? candidates[0] : undefined;
  if (only !== undefined) return { router: only, likely: true };
  // A stand-in that has no router of its own keeps every drawn router's reading unchanged.
  const routes = new Set(edges.filter((e) => e.conditional).map((e) => e.from));
  const router = candidates[0] ?? reached.find((s) => !routes.has(s)) ?? reached[0] ?? start;
  return { router, likely: false };
}

/**
 * The edges with the router's branches in: after its drawn router's last branch, when it has one
 * to a step (that router's choice gains them, its edges kept together as the export writes them);
 * else before its edge into `__end__`, now conditional: the decision's otherwise.
 */
function withBranches(
  edges: readonly SourceEdge[],
  router: SourceNode,
  branches: readonly SourceEdge[],
): SourceEdge[] {
  const own = (e: SourceEdge): boolean => e.from === router;
  let last = -1;
  let routes = false;
  for (const [k, e] of edges.entries()) {
    if (!own(e) || !e.conditional) continue;
    last = k;
    routes ||= e.to.sentinel !== "end";
  }
  if (routes) return [...edges.slice(0, last + 1), ...branches, ...edges.slice(last + 1)];
  const at = edges.findIndex((e) => own(e) && e.to.sentinel === "end");
  const drawn = edges[at];
  if (drawn === undefined) {
    const end = edges.find((e) => e.to.sentinel === "end")?.to ?? END;
    const otherwise = { index: -1, from: router, to: end, label: "__end__", conditional: true };
    return [...edges, ...branches, { ...otherwise, hidden: true }];
  }
  // The drawn end of the router is its decision's otherwise: labelled, so no label is guessed.
  const otherwise = { ...drawn, conditional: true, label: drawn.label ?? "__end__" };
  return [...edges.slice(0, at), ...branches, otherwise, ...edges.slice(at + 1)];
}

/**
 * The undrawn routing of a drawable graph, or `undefined` when the drawing reaches every step
 * from `__start__` (or has no `__start__` edge, so reaches nothing to route from). Linear.
 */
export function readHiddenRoutes(
  steps: readonly SourceNode[],
  edges: readonly SourceEdge[],
): HiddenRoutes | undefined {
  const start = edges.find((e) => e.from.sentinel === "start")?.from;
  if (start === undefined) return undefined;
  const out = new Map<SourceNode, SourceNode[]>();
  for (const e of edges) appendTo(out, e.from, e.to);
  const seen = new Set<SourceNode>();
  walk(start, out, seen);
  const reached = steps.filter((s) => seen.has(s));
  if (reached.length === steps.length) return undefined;
  // Before `headsOf` marks the unreached parts as seen; refused past its bound before any work.
  const open = steps.filter((s) => !seen.has(s) && (out.get(s) ?? []).length === 0);
  const end = edges.find((e) => e.to.sentinel === "end")?.to ?? END;
  const after = unknownSuccessorBranches(open, steps, end);
  const candidates = reached.filter((s) => (out.get(s) ?? []).every((t) => t.sentinel === "end"));
  const targets = headsOf(steps, edges, out, seen);
  const { router, likely } = routerOf(start, reached, candidates, edges);
  const branches = targets.map((t): SourceEdge => ({
    index: -1,
    from: router,
    to: t,
    label: String(t.rawId),
    conditional: true,
    hidden: true,
  }));
  return {
    edges: [...withBranches(edges, router, branches), ...after],
    targets,
    router,
    candidates,
    likely,
    branches,
    open,
  };
}

/**
 * Declares the reading: which steps, through which decisions, after which node, and why; then
 * each step whose successors are unknown.
 */
export function declareHiddenRoutes(
  hidden: HiddenRoutes,
  plans: ReadonlyMap<SourceNode, RouterPlan>,
  idOf: (n: SourceNode) => string,
  warnings: InteropWarning[],
): void {
  const { targets, router, candidates, likely } = hidden;
  const plan = plans.get(router);
  const decisions = [...new Set(hidden.branches.flatMap((e) => plan?.via.get(e) ?? []))];
  const quote = (ids: readonly string[]): string => ids.map((id) => `'${id}'`).join(", ");
  const ids = targets.map(idOf);
  const from = router.sentinel === "start" ? "__start__" : idOf(router);
  const why = likely
    ? `'${from}' is the likely router: the one step the drawing ends at`
    : `which node routes cannot be told (${candidates.length === 0 ? "no step the drawing ends at" : `steps the drawing ends at: ${quote(candidates.map(idOf))}`}), so '${from}' stands in, and a run that reaches them from another node is flagged`;
  const message = `the drawing reaches ${quote(ids)} by no edge, yet LangGraph runs ${ids.length === 1 ? "it" : "them"}: a router with no path map and no Literal return type, or an untyped Command(goto=...), draws none of its branches. They are read as the branches of the text decision ${quote(decisions)} (a router's choice, never simulable; otherwise the end), so they run and the graph branches; ${why}`;
  const first = targets[0];
  warnings.push(
    guessed(first === undefined ? "" : pointer("nodes", first.index), message, {
      targets: ids,
      decisions,
      from,
      candidates: candidates.map(idOf),
      router: likely ? "likely" : "unknown",
    }),
  );
  declareUnknownSuccessors(hidden.open, plans, idOf, warnings);
}
