/**
 * What AgentOS 0.9.164 runs after a choice. Its scheduler (`NodeScheduler.getReadyNodes`) runs a
 * node once every predecessor is done or skipped, and a choice (a router's route, a personality
 * or discovery edge) marks skipped only the targets it does not pick (`GraphRuntime.stream`),
 * which then never run, even once their other predecessors are done: the edges into a target
 * from other nodes only make it wait, and are read as none (`waits.ts`). Skipping goes no
 * further: the nodes after a skipped target still run, even when every predecessor of theirs was
 * skipped. A route that reached its target alone would read a human step on another route as
 * guarding the nodes after it, which AgentOS runs without it. So each route leads on to the
 * successors of the targets it skips that its own target does not reach.
 */
import { pointer } from "../../model/index.js";
import { allocateId } from "../ids.js";
import { isRecord, own } from "../json.js";
import type { InteropWarning } from "../types.js";
import { guessed } from "../warnings.js";
import { ASSUMED_VERSION } from "./node-read.js";
import { ROUTER_TOOL } from "./router-fanout.js";
import type { SourceGraph, Work } from "./source-graph.js";
import { cycles, sourceGraph, startWork, unreached } from "./source-graph.js";
import type { Choice, Draft, Edge, MappedNode } from "./types.js";
import { END } from "./types.js";
import type { SharedTarget } from "./waits.js";
import { dropWaits, findWaits, sharedTargets } from "./waits.js";

/** The tool of an inserted step: AgentOS's router that names no node, which runs every target. */
const FORK_TOOL = `tool:${ROUTER_TOOL}@${ASSUMED_VERSION}`;

/** Where the inserted steps and their edges go. */
export interface Sink {
  readonly edges: Draft[];
  readonly steps: Draft[];
}

/** One route a choice now leads on from: its target, and its new `next`, an inserted step. */
interface Lead {
  readonly target: string;
  readonly next: string;
  /** What the step leads to (workflow ids). */
  readonly members: readonly string[];
}

/** What a choice now leads on to: its rewritten routes and the nodes they run besides. */
interface Leads {
  readonly leads: readonly Lead[];
  readonly runs: readonly number[];
}

/**
 * Each node after a target, with the one target it waits for, or -1 when it waits for several
 * (so it runs whichever target is picked, after it or because it was skipped).
 */
function afterTargets(
  choice: Choice,
  graph: SourceGraph,
  targets: ReadonlySet<number>,
): Map<number, number> {
  const owner = graph.index.get(choice.node.nodeId);
  const after = new Map<number, number>();
  for (const u of targets) {
    for (const s of graph.succ[u] ?? []) {
      if (targets.has(s) || s === owner) continue;
      const was = after.get(s);
      after.set(s, was === undefined || was === u ? u : -1);
    }
  }
  return after;
}

function leadOn(
  choice: Choice,
  graph: SourceGraph,
  work: Work,
  used: Set<string>,
  sink: Sink,
): Leads {
  const owner = graph.index.get(choice.node.nodeId) ?? -1;
  const targets = new Set<number>();
  for (const t of choice.targets) {
    const v = graph.index.get(t);
    if (v !== undefined) targets.add(v);
  }
  const after = afterTargets(choice, graph, targets);
  if (after.size === 0) return { leads: [], runs: [] };
  const all = [...after.keys()].sort((a, b) => a - b);
  const step = (wanted: string, members: readonly string[]): string => {
    const id = allocateId(`${choice.decisionId}.${wanted}`, used);
    sink.steps.push({ id, type: "tool", config: { usesTool: FORK_TOOL, params: { expr: "''" } } });
    for (const to of members) sink.edges.push({ from: id, to, edgeType: "data" });
    return id;
  };
  const pairs = choice.routes.length * all.length;
  // Past the budget every route leads to one step before all of them: linear, and stricter.
  const shared =
    pairs > work.leads
      ? step(
          "skipped",
          all.map((v) => graph.ids[v] ?? ""),
        )
      : undefined;
  if (shared === undefined) work.leads -= pairs;
  const leads: Lead[] = [];
  const ran = new Set<number>();
  // Routes to one target (a router with two edges to it) share its step.
  const made = new Map<string, string>();
  for (const route of choice.routes) {
    const target = String(own(route, "next"));
    const again = made.get(target);
    if (again !== undefined) {
      route.next = again;
      continue;
    }
    const t = graph.index.get(target);
    // A node that waits for the picked target alone runs after it, as the target's edges say.
    const candidates = all.filter((s) => t === undefined || after.get(s) !== t);
    if (candidates.length === 0) continue;
    const runs =
      shared === undefined
        ? unreached(graph, t, candidates, (v) => v === owner || (v !== t && targets.has(v)), work)
        : candidates;
    if (runs.length === 0) continue;
    const members = [...(t === undefined ? [] : [t]), ...(shared === undefined ? runs : [])]
      .sort((a, b) => a - b)
      .map((v) => graph.ids[v] ?? "");
    if (shared !== undefined) members.push(shared);
    const next = step(target, members);
    route.next = next;
    made.set(target, next);
    if (choice.documentedAt !== undefined) {
      const edge = { from: choice.decisionId, to: next, edgeType: "data" };
      work.docs.push({ at: choice.documentedAt, edge });
    }
    leads.push({ target, next, members });
    for (const v of runs) ran.add(v);
  }
  return { leads, runs: [...ran].sort((a, b) => a - b) };
}

/** Items a message lists before it counts the rest (the warning's data holds them all). */
const LISTED = 10;

/** The first {@link LISTED} items, joined, then how many more there are. */
function listed(items: readonly string[], join: string): string {
  const more = items.length - LISTED;
  return items.slice(0, LISTED).join(join) + (more > 0 ? `${join}and ${String(more)} more` : "");
}

function declare(
  choice: Choice,
  graph: SourceGraph,
  found: Leads,
  cut: readonly Edge[],
): InteropWarning {
  // Nodes are named as the source writes them; an inserted step by its workflow id.
  const name = (id: string): string => {
    const v = graph.index.get(id);
    return v === undefined ? (id === "end" ? END : id) : (graph.names[v] ?? id);
  };
  const runs = found.runs.map((v) => graph.names[v] ?? "");
  const routes = found.leads.map((l) => ({
    target: name(l.target),
    next: l.next,
    leadsTo: l.members.map(name),
  }));
  const told = routes.map(
    (r) =>
      `its route to '${r.target}' leads to the inserted step '${r.next}', which leads to ${listed(
        r.leadsTo.map((n) => `'${n}'`),
        ", ",
      )}`,
  );
  const waits = cut.map((e) => ({ from: e.source, to: e.target }));
  const leading =
    routes.length === 0
      ? ""
      : `; AgentOS runs a node once each predecessor is done or skipped, so the nodes after a skipped target still run, and these run whichever way it routes: ${listed(
          runs.map((n) => `'${n}'`),
          ", ",
        )}. So ${listed(told, "; ")}`;
  const waiting =
    waits.length === 0
      ? ""
      : `${routes.length === 0 ? ";" : "."} AgentOS never runs a target it skips, even once the target's other predecessors are done, so these edges into its targets only make a target wait, and are read as none: ${listed(
          waits.map((w) => `'${w.from}' -> '${w.to}'`),
          ", ",
        )}`;
  return guessed(
    pointer("nodes", choice.node.index),
    `${choice.label} runs the target it picks and skips only its other targets${leading}${waiting}`,
    { nodeId: choice.node.sourceId, decisionId: choice.decisionId, runs, routes, waits },
  );
}

/** A node several choices AgentOS makes have as a target: the workflow runs it when any picks it. */
function declareShared(
  shared: SharedTarget,
  choices: readonly Choice[],
  graph: SourceGraph,
  nodes: ReadonlyMap<string, MappedNode>,
): InteropWarning {
  const nodeId = graph.names[shared.node] ?? "";
  const made = shared.choices.flatMap((k) => choices[k] ?? []);
  return guessed(
    pointer("nodes", nodes.get(nodeId)?.index ?? shared.node),
    `'${nodeId}' is a target of ${listed(
      made.map((c) => c.label),
      ", ",
    )}: AgentOS runs it only when every one of these choices that it makes picks it (each marks it skipped when it picks another target, and never runs a node so marked), while the workflow runs it when any of them does`,
    { nodeId, choices: made.map((c) => c.decisionId) },
  );
}

/**
 * Reads the edges that only make a choice's target wait as none ({@link findWaits}), then leads
 * each route of each choice on to the nodes AgentOS runs because the route skips the other
 * targets: through an inserted step on {@link FORK_TOOL} with an edge to the target and to each
 * of them, in the order AgentOS starts them (the nodes'). A step even for one node: a node made
 * a route's target would be skipped, when an export is run, on the routes not taking it.
 * Declared per choice, and per node that several choices have as a target
 * ({@link sharedTargets}): agentflow cannot say that it runs only when all of them pick it. A
 * graph with a `__CONDITIONAL__` edge is left as read: AgentOS's
 * scheduler makes that edge's source a predecessor of every node, the entry too, so it runs none.
 */
export function leadOnPastSkips(input: {
  readonly choices: readonly Choice[];
  readonly edges: readonly Edge[];
  readonly nodes: ReadonlyMap<string, MappedNode>;
  readonly used: Set<string>;
  readonly sink: Sink;
  readonly warnings: InteropWarning[];
}): void {
  const { choices, used, sink, warnings } = input;
  if (choices.length === 0) return;
  const read = sourceGraph(input.edges, input.nodes);
  if (read.wild) return;
  const found = cycles(read);
  const waits = findWaits({ ...input, graph: read, cycles: found });
  const shared = sharedTargets(choices, read, found);
  // What the routes lead on to is searched without the edges read as none.
  const graph =
    waits.cut.size === 0
      ? read
      : sourceGraph(
          input.edges.filter((e) => !waits.cut.has(e.i)),
          input.nodes,
        );
  const work = startWork(graph);
  choices.forEach((choice, k) => {
    if (found.cyclic[graph.index.get(choice.node.nodeId) ?? -1] === 1) return;
    const leads = leadOn(choice, graph, work, used, sink);
    const cut = waits.byChoice[k] ?? [];
    if (leads.leads.length > 0 || cut.length > 0) warnings.push(declare(choice, graph, leads, cut));
  });
  for (const node of shared) warnings.push(declareShared(node, choices, read, input.nodes));
  insertDocs(sink.edges, work.docs);
  dropWaits(sink.edges, input.edges, input.nodes, waits);
}

/**
 * Puts each documenting edge beside the decision's others (so an export read back, which
 * documents every route in route order, gives the same edges), in one pass over the edges.
 */
function insertDocs(edges: Draft[], docs: readonly { at: number; edge: Draft }[]): void {
  if (docs.length === 0) return;
  const sorted = [...docs].sort((a, b) => a.at - b.at);
  const merged: Draft[] = [];
  let k = 0;
  edges.forEach((edge, i) => {
    for (; k < sorted.length && (sorted[k]?.at ?? 0) <= i; k++) merged.push(sorted[k]?.edge ?? {});
    merged.push(edge);
  });
  for (; k < sorted.length; k++) merged.push(sorted[k]?.edge ?? {});
  // Copied back one by one: a spread of 100,000 arguments overflows the stack.
  edges.length = 0;
  for (const edge of merged) edges.push(edge);
}

/** The two routes of an inserted binary decision (`onTrue`, `onFalse`), as drafts. */
export function binaryRoutes(decision: Draft): Draft[] {
  const config = own(decision, "config");
  if (!isRecord(config)) return [];
  return ["onTrue", "onFalse"].flatMap((key) => {
    const route = own(config, key);
    return isRecord(route) ? [route] : [];
  });
}
