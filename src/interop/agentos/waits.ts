/**
 * The edges that only make a choice's target wait. AgentOS 0.9.164 marks skipped every target a
 * choice does not pick (`GraphRuntime.stream`) and never runs a node so marked, even once its
 * other predecessors are done (`NodeScheduler.getReadyNodes` leaves it out). So an edge `x → u`
 * into a target `u` from a node other than the choice's own runs `u` after `x` only on the route
 * that picks `u`. agentflow runs a node after any predecessor on a path, so it would run `u`
 * after `x` on every route: a human step read as guarding what follows it on a route where
 * AgentOS never runs it. Such an edge is read as none, declared with the choice: `u` runs on its
 * own route, and the nodes after it run as AgentOS runs them, which `skipped.ts` leads each
 * route on to. One pass over the edges.
 */
import { own } from "../json.js";
import type { Cycles, SourceGraph } from "./source-graph.js";
import type { Choice, Draft, Edge, MappedNode } from "./types.js";

/** The edges read as none, by source edge index and by the choice that declares each. */
export interface Waits {
  readonly cut: ReadonlySet<number>;
  /** By choice (its index in the list): the edges into its targets read as none. */
  readonly byChoice: readonly (readonly Edge[])[];
}

/** Whether some route of a choice skips a target: its routes lead to two targets at least. */
function skipsSome(choice: Choice): boolean {
  return new Set(choice.routes.map((route) => own(route, "next"))).size > 1;
}

/**
 * The choices AgentOS makes, by index in the list: never one on a cycle (AgentOS never starts
 * it), nor one whose routes lead to one target (it skips none).
 */
export function madeChoices(
  choices: readonly Choice[],
  graph: SourceGraph,
  cycles: Cycles,
): number[] {
  const made: number[] = [];
  choices.forEach((choice, k) => {
    const owner = graph.index.get(choice.node.nodeId);
    if (owner !== undefined && cycles.cyclic[owner] !== 1 && skipsSome(choice)) made.push(k);
  });
  return made;
}

/** A node that two choices AgentOS makes or more have as a target, and those choices. */
export interface SharedTarget {
  readonly node: number;
  /** The choices, by index in the list, in list order. */
  readonly choices: readonly number[];
}

/**
 * The nodes that two choices AgentOS makes or more have as a target, in node order. Each of
 * them marks the node skipped when it picks another target, so AgentOS runs it only when every
 * one of them that it makes picks it; agentflow, which has no "only if both", runs it when any
 * does. One pass over the choices' targets: O(V + targets).
 */
export function sharedTargets(
  choices: readonly Choice[],
  graph: SourceGraph,
  cycles: Cycles,
): SharedTarget[] {
  const by: (number[] | undefined)[] = new Array<number[] | undefined>(graph.ids.length);
  for (const k of madeChoices(choices, graph, cycles)) {
    for (const target of choices[k]?.targets ?? []) {
      const u = graph.index.get(target);
      if (u === undefined) continue;
      const list = (by[u] ??= []);
      // A choice with two routes to one target is one choice of it.
      if (list[list.length - 1] !== k) list.push(k);
    }
  }
  const shared: SharedTarget[] = [];
  by.forEach((list, node) => {
    if (list !== undefined && list.length > 1) shared.push({ node, choices: list });
  });
  return shared;
}

/** Marks: no choice (-1), several (-2). */
const NONE = -1;
const SEVERAL = -2;

/** By node index: the owner of each choice AgentOS makes, and what its targets are chosen by. */
interface Chosen {
  /** 1 for a node whose out-edges are a choice's (routes, never data edges). */
  readonly owners: Uint8Array;
  /** The one choice AgentOS makes that has the node as a target, {@link NONE}, {@link SEVERAL}. */
  readonly parent: Int32Array;
  /** The one choice that has as a target every choosing node the node is a target of. */
  readonly grandparent: Int32Array;
  /** The first choice, in choice order, that has the node as a target; it declares the edge. */
  readonly first: Int32Array;
}

/** Who chooses each node, from every choice AgentOS makes. O(V + targets). */
function chosen(choices: readonly Choice[], graph: SourceGraph, cycles: Cycles): Chosen {
  const size = graph.ids.length;
  const owners = new Uint8Array(size);
  const ownerOf = new Int32Array(choices.length).fill(NONE);
  const parent = new Int32Array(size).fill(NONE);
  const first = new Int32Array(size).fill(NONE);
  choices.forEach((choice, k) => {
    const owner = graph.index.get(choice.node.nodeId);
    if (owner === undefined) return;
    owners[owner] = 1;
    ownerOf[k] = owner;
  });
  const makes = madeChoices(choices, graph, cycles);
  for (const k of makes) {
    for (const target of choices[k]?.targets ?? []) {
      const u = graph.index.get(target);
      if (u === undefined || parent[u] === k) continue;
      parent[u] = parent[u] === NONE ? k : SEVERAL;
      if (first[u] === NONE) first[u] = k;
    }
  }
  const grandparent = new Int32Array(size).fill(NONE);
  for (const k of makes) {
    const p = parent[ownerOf[k] ?? 0] ?? NONE;
    for (const target of choices[k]?.targets ?? []) {
      const u = graph.index.get(target);
      if (u === undefined) continue;
      const was = grandparent[u] ?? NONE;
      grandparent[u] = p >= 0 && (was === NONE || was === p) ? p : SEVERAL;
    }
  }
  return { owners, parent, grandparent, first };
}

/**
 * Whether the edge `x → u` carries a run: `x` runs only when a choice `c` picks it, and every
 * choice that may skip `u` belongs to a node `c` then skips too, so none of them is made and `u`
 * runs after `x` (the import's own steps past a skipped target are such nodes, read back). `c`
 * must be one AgentOS never skips (then `x` would run beside the others).
 */
function carries(
  x: number,
  u: number,
  chosen: Chosen,
  choices: readonly Choice[],
  graph: SourceGraph,
): boolean {
  const c = chosen.parent[x] ?? NONE;
  if (c < 0 || chosen.grandparent[u] !== c) return false;
  const owner = graph.index.get(choices[c]?.node.nodeId ?? "") ?? 0;
  return chosen.parent[owner] === NONE;
}

/**
 * The edges that only make a target wait: from a node that is not a choice's (its out-edges are
 * data edges, never routes) into a target that a choice AgentOS makes may skip. Kept: an edge on
 * a cycle (AgentOS starts no node of it, declared as the cycle), every edge into the targets of a
 * choice on a cycle (AgentOS never makes it), and an edge that {@link carries} a run. Each is
 * declared by the first choice, in choice order, of which its target is a target: once, so the
 * declarations stay linear. O(V + E).
 */
export function findWaits(input: {
  readonly choices: readonly Choice[];
  readonly edges: readonly Edge[];
  readonly nodes: ReadonlyMap<string, MappedNode>;
  readonly graph: SourceGraph;
  readonly cycles: Cycles;
}): Waits {
  const { choices, graph, cycles } = input;
  const at = (sourceId: string): number | undefined =>
    graph.index.get(input.nodes.get(sourceId)?.nodeId ?? "");
  const marks = chosen(choices, graph, cycles);
  const cut = new Set<number>();
  const byChoice: Edge[][] = choices.map(() => []);
  for (const edge of input.edges) {
    const x = at(edge.source);
    const u = at(edge.target);
    if (x === undefined || u === undefined || marks.owners[x] === 1) continue;
    const k = marks.first[u] ?? NONE;
    if (k < 0 || cycles.sccOf[x] === cycles.sccOf[u]) continue;
    if (carries(x, u, marks, choices, graph)) continue;
    cut.add(edge.i);
    byChoice[k]?.push(edge);
  }
  return { cut, byChoice };
}

/**
 * Removes the flow's data edges read as none: those between the workflow ids of a cut edge's
 * ends. Its source is no choice's, so its only out-edges are the data edges of its static edges.
 */
export function dropWaits(
  flow: Draft[],
  edges: readonly Edge[],
  nodes: ReadonlyMap<string, MappedNode>,
  waits: Waits,
): void {
  if (waits.cut.size === 0) return;
  const key = (from: unknown, to: unknown): string => `${String(from)}\n${String(to)}`;
  const pairs = new Set<string>();
  for (const edge of edges) {
    if (!waits.cut.has(edge.i)) continue;
    pairs.add(key(nodes.get(edge.source)?.nodeId, nodes.get(edge.target)?.nodeId));
  }
  const kept = flow.filter((e) => !pairs.has(key(own(e, "from"), own(e, "to"))));
  // Copied back one by one: a spread of 100,000 arguments overflows the stack.
  flow.length = 0;
  for (const edge of kept) flow.push(edge);
}
