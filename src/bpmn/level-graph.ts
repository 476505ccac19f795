/**
 * One scope's own flow, for telling which of its nodes may run at the same time (docs/bpmn.md,
 * "What cancels a gate"): the nodes of each process or sub-process with the edges between them —
 * sequence flows, link events and the boundary events their hosts lead to (those that can fire,
 * `triggers.ts`) — and the scope's parallel splits. A sub-process is one node here: what runs in
 * it is the next scope's business.
 *
 * A split is where one token becomes several, each a branch: a node with two or more outgoing
 * sequence flows that is not an exclusive or event-based gateway (one branch per flow); an
 * activity with non-interrupting boundary events (the activity itself, and each event); and the
 * start of a scope, where every start event of a sub-process (or, without any, every node
 * without incoming flow) starts a branch, every child of an ad-hoc sub-process does, and so does
 * every non-interrupting event sub-process. A process's start events are alternatives: one of
 * them starts an instance.
 */
import type { Adjacency } from "../model/index.js";
import { adjacencyFromEdges, neighbours } from "../model/index.js";
import type { ProcessIndex } from "./process-index.js";
import { NodeFlag } from "./process-index.js";
import type { Triggers } from "./triggers.js";
import { Trigger } from "./triggers.js";

/** A parallel split: its branches, each a list of head nodes. */
export interface Split {
  readonly branches: readonly (readonly number[])[];
  /**
   * For an activity's split by its non-interrupting boundary events, the activity: its own branch
   * (the first) is the activity and what follows it, never the boundary events, which are the
   * other branches. Else -1.
   */
  readonly host: number;
  /**
   * True when a branch may start again while the others run: a non-interrupting boundary event
   * that can fire more than once (a cycle timer, a message…). No join then waits for all of that
   * branch, so none closes the split.
   */
  readonly repeats: boolean;
}

/** The scopes' own flows and splits. */
export interface LevelGraph {
  /** Edges between nodes of one scope. */
  readonly next: Adjacency;
  /** Per node: 1 for a parallel or inclusive gateway with two or more incoming flows. */
  readonly join: Uint8Array;
  /** Per node: 1 for such a join that is an inclusive gateway. */
  readonly inclusive: Uint8Array;
  /** Per node: 1 for a boundary event that can fire and leaves its host running. */
  readonly nonInterrupting: Uint8Array;
  readonly splits: readonly Split[];
}

/** Builds the level graph of every scope of `index` in O(nodes + flows). */
export function buildLevelGraph(index: ProcessIndex, triggers: Triggers): LevelGraph {
  const { flags, container, attachedTo } = index;
  const { interrupting, compensation } = index.events;
  const compensationFree = (node: number): boolean => compensation[node] !== 1;
  const count = flags.length;
  const from: number[] = [];
  const to: number[] = [];
  const flowFrom: number[] = [];
  const flowTo: number[] = [];
  const flowIn = new Int32Array(count);
  const entered = new Uint8Array(count);
  for (let k = 0; k < index.flowSources.length; k++) {
    const a = index.flowSources[k] ?? 0;
    const b = index.flowTargets[k] ?? 0;
    if (!compensationFree(a) || !compensationFree(b)) continue;
    flowFrom.push(a);
    flowTo.push(b);
    from.push(a);
    to.push(b);
    flowIn[b] = (flowIn[b] ?? 0) + 1;
  }
  for (const [a, b] of index.links) {
    entered[b] = 1;
    if (container[a] !== container[b]) continue;
    from.push(a);
    to.push(b);
  }
  const nonInterrupting = new Uint8Array(count);
  const hostOf: number[] = [];
  const ownBoundary: number[] = [];
  for (let b = 0; b < count; b++) {
    const host = attachedTo[b] ?? -1;
    if (host < 0 || !compensationFree(b) || triggers.node[b] === Trigger.never) continue;
    from.push(host);
    to.push(b);
    if (interrupting[b] === 0) {
      nonInterrupting[b] = 1;
      hostOf.push(host);
      ownBoundary.push(b);
    }
  }
  const flows = adjacencyFromEdges(count, flowFrom, flowTo);
  const boundaries = adjacencyFromEdges(count, hostOf, ownBoundary);
  const join = new Uint8Array(count);
  const inclusive = new Uint8Array(count);
  const splits: Split[] = [];
  for (let i = 0; i < count; i++) {
    const f = flags[i] ?? 0;
    // A complex gateway may fire before every branch has come: it waits for no split.
    const waits = (f & NodeFlag.syncGateway) !== 0 && (f & NodeFlag.complexGateway) === 0;
    if (waits && (flowIn[i] ?? 0) >= 2) {
      join[i] = 1;
      if ((f & NodeFlag.inclusiveGateway) !== 0) inclusive[i] = 1;
    }
    const targets = neighbours(flows, i);
    if (targets.length >= 2 && (f & NodeFlag.choiceGateway) === 0) {
      splits.push({ branches: Array.from(targets, (t) => [t]), host: -1, repeats: false });
    }
    const own = neighbours(boundaries, i);
    if (own.length > 0) {
      const repeats = Array.from(own).some((b) => index.events.once[b] !== 1);
      splits.push({ branches: [[i], ...Array.from(own, (b) => [b])], host: i, repeats });
    }
  }
  for (let i = 0; i < count; i++) if ((flowIn[i] ?? 0) > 0) entered[i] = 1;
  for (const split of scopeStarts(index, triggers, entered)) splits.push(split);
  return { next: adjacencyFromEdges(count, from, to), join, inclusive, nonInterrupting, splits };
}

/**
 * The splits at the start of each scope. `entered[i]` is 1 for a node a flow or a link leads
 * to, which therefore does not start its scope.
 */
function scopeStarts(index: ProcessIndex, triggers: Triggers, entered: Uint8Array): Split[] {
  const { flags, container, opens, containers } = index;
  const { compensation, interrupting } = index.events;
  const starts: number[][] = containers.map(() => []);
  const loose: number[][] = containers.map(() => []);
  const eventSubs: number[][] = containers.map(() => []);
  const leavesRunning = new Uint8Array(containers.length);
  for (let i = 0; i < flags.length; i++) {
    const f = flags[i] ?? 0;
    const c = container[i] ?? 0;
    if ((f & NodeFlag.startEvent) !== 0 && interrupting[i] === 0) leavesRunning[c] = 1;
  }
  for (let i = 0; i < flags.length; i++) {
    const f = flags[i] ?? 0;
    const c = container[i] ?? 0;
    const opened = opens[i] ?? -1;
    if (opened >= 0 && containers[opened]?.kind === "event-sub-process") {
      const fires = (triggers.eventSub[opened] ?? 0) !== Trigger.never;
      if (fires && leavesRunning[opened] === 1) eventSubs[c]?.push(i);
      continue;
    }
    if ((f & NodeFlag.boundaryEvent) !== 0 || compensation[i] === 1) continue;
    // Any child of an ad-hoc sub-process may start, flows into it or not.
    if ((f & NodeFlag.startEvent) !== 0) starts[c]?.push(i);
    else if (entered[i] === 0 || containers[c]?.kind === "ad-hoc") loose[c]?.push(i);
  }
  const out: Split[] = [];
  containers.forEach((c, i) => {
    const own = starts[i] ?? [];
    const free = loose[i] ?? [];
    let entries: number[][];
    if (c.kind === "ad-hoc") entries = [...own, ...free].map((n) => [n]);
    else if (own.length === 0) entries = free.map((n) => [n]);
    else entries = c.kind === "process" ? [own] : own.map((n) => [n]);
    const branches = [...entries, ...(eventSubs[i] ?? []).map((n) => [n])];
    // An event sub-process that fires again has no flow into a join: none waits for it anyway.
    if (branches.length >= 2) out.push({ branches, host: -1, repeats: false });
  });
  return out;
}
