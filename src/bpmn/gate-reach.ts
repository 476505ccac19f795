/**
 * Gate reachability and bypass for every vertex at once (SPEC 7): two backward sweeps over the
 * process graph, O(V+E) in all, after which each agent task's verdict is a look at its direct
 * downstream vertices. A per-task search would make a process with many agent tasks quadratic.
 */
import { neighbours, reverseAdjacency } from "../model/index.js";
import { agentExits } from "./agent-exits.js";
import type { ProcessGraph } from "./process-graph.js";
import { nodeId } from "./process-index.js";
import type { GateStatus } from "./types.js";

/** The two sweeps' results, by vertex. */
export interface GateReach {
  readonly isGate: Uint8Array;
  /**
   * 1 for the vertices a path leaves only by a step that does not pass a gate: an atomic gate, a
   * sub-process gate's exit, and a sub-process gate's non-interrupting boundary events.
   */
  readonly blocks: Uint8Array;
  /** 1 when some path from the vertex (itself included) meets a gate. */
  readonly canReachGate: Uint8Array;
  /**
   * Length of the shortest gate-free path from the vertex to a sink (an end of the process), or
   * -1 when every path to a sink passes a gate. A gate that completes on every path is -1; one
   * that an interrupting boundary event, a terminate or an uncaught error can cancel has the
   * length of the path through the cancellation.
   */
  readonly toSink: Int32Array;
}

/** Runs both sweeps; `gates` lists the flow-node indexes that are gates (each once). */
export function computeGateReach(graph: ProcessGraph, gates: readonly number[]): GateReach {
  const count = graph.kinds.length;
  const predecessors = reverseAdjacency(graph.successors);
  const isGate = new Uint8Array(count);
  const canReachGate = new Uint8Array(count);
  const queue = new Int32Array(count);
  let head = 0;
  let tail = 0;
  for (const g of gates) {
    isGate[g] = 1;
    canReachGate[g] = 1;
    queue[tail++] = g;
  }
  // Index loops over the CSR arrays: a subarray view per vertex was most of this file's garbage.
  const { offsets, targets } = predecessors;
  // A gate reached after a cancellation (a terminated sub-process's successors) is reachable too.
  const cancelled = reverseAdjacency(graph.cancels);
  while (head < tail) {
    const v = queue[head++] ?? 0;
    for (let e = offsets[v] ?? 0, end = offsets[v + 1] ?? 0; e < end; e++) {
      const p = targets[e] ?? 0;
      if (canReachGate[p] === 1) continue;
      canReachGate[p] = 1;
      queue[tail++] = p;
    }
    for (let e = cancelled.offsets[v] ?? 0; e < (cancelled.offsets[v + 1] ?? 0); e++) {
      const p = cancelled.targets[e] ?? 0;
      if (canReachGate[p] === 1) continue;
      canReachGate[p] = 1;
      queue[tail++] = p;
    }
  }
  // A gate is passed when it completes: an atomic gate along its outgoing flows (and the
  // boundary events that leave it running), never along an interrupting boundary event, which
  // cancels it; a sub-process gate at its exit.
  const { opens, attachedTo, events } = graph.index;
  const blocks = new Uint8Array(count);
  for (const g of gates) {
    const opened = opens[g] ?? -1;
    blocks[opened >= 0 ? (graph.exitOf[opened] ?? g) : g] = 1;
  }
  const nodeCount = graph.index.flags.length;
  // A non-interrupting boundary event leaves a sub-process gate running too: its path has
  // passed the gate as surely as an atomic gate's does, unless it goes on to cancel the gate
  // (a terminate, an uncaught error): that is a step of `graph.cancels` from the gate.
  for (let b = 0; b < nodeCount; b++) {
    const host = attachedTo[b] ?? -1;
    if (
      host >= 0 &&
      (opens[host] ?? -1) >= 0 &&
      isGate[host] === 1 &&
      events.interrupting[b] === 0
    ) {
      blocks[b] = 1;
    }
  }
  const toSink = new Int32Array(count).fill(-1);
  head = 0;
  tail = 0;
  for (let v = 0; v < count; v++) {
    if (blocks[v] === 0 && graph.sinks[v] === 1) {
      toSink[v] = 0;
      queue[tail++] = v;
    }
  }
  while (head < tail) {
    const v = queue[head++] ?? 0;
    const cancels = v < nodeCount && events.interrupting[v] === 1 ? (attachedTo[v] ?? -1) : -1;
    for (let e = offsets[v] ?? 0, end = offsets[v + 1] ?? 0; e < end; e++) {
      const p = targets[e] ?? 0;
      if (toSink[p] !== -1 || (blocks[p] === 1 && p !== cancels)) continue;
      toSink[p] = (toSink[v] ?? 0) + 1;
      queue[tail++] = p;
    }
    // Whatever cancels a running node leaves it unpassed, a gate too.
    for (let e = cancelled.offsets[v] ?? 0; e < (cancelled.offsets[v + 1] ?? 0); e++) {
      const p = cancelled.targets[e] ?? 0;
      if (toSink[p] !== -1) continue;
      toSink[p] = (toSink[v] ?? 0) + 1;
      queue[tail++] = p;
    }
  }
  return { isGate, blocks, canReachGate, toSink };
}

/** Whether a path may step from `v` to `next` along a successor edge without passing a gate. */
export function unpassed(graph: ProcessGraph, reach: GateReach, v: number, next: number): boolean {
  if (reach.blocks[v] !== 1) return true;
  const { attachedTo, events, flags } = graph.index;
  return next < flags.length && attachedTo[next] === v && events.interrupting[next] === 1;
}

/**
 * The vertices right after an agent task: its successors, or for an agent that is a sub-process
 * (a Camunda AI agent's ad-hoc tool container) its exit and interrupt vertices; and wherever else
 * a path goes on after its work (`agentExits`: a catcher outside it of what it throws, the exit of
 * a parallel body that may cut its instance short).
 */
export function downstreamOf(graph: ProcessGraph, node: number): number[] {
  const opens = graph.index.opens[node] ?? -1;
  const next =
    opens >= 0
      ? [graph.exitOf[opens] ?? node, graph.interruptOf[opens] ?? node]
      : [...neighbours(graph.successors, node)];
  const more = agentExits(graph, node);
  return more.length === 0 ? next : [...new Set([...next, ...more])];
}

/** An agent task's gate verdict, and for a bypass one gate-free path to an end. */
export interface GateVerdict {
  readonly status: GateStatus;
  /** Element ids from the task to the end reached without a gate (bypass only). */
  readonly bypassPath: readonly string[];
}

/** Flow nodes only (they come first): a sub-process's exit is implied by the path leaving it. */
function label(graph: ProcessGraph, v: number): string | undefined {
  return v < graph.index.flags.length ? nodeId(graph.index, v) : undefined;
}

/**
 * The element ids of a path from the agent task at flow node `node` through `vertices`, as a
 * bypass path names them: flow nodes only, each once where the path stays on it.
 */
export function pathLabels(
  graph: ProcessGraph,
  node: number,
  vertices: Iterable<number>,
): string[] {
  const path = [nodeId(graph.index, node)];
  for (const v of vertices) {
    const name = label(graph, v);
    if (name !== undefined && path[path.length - 1] !== name) path.push(name);
  }
  return path;
}

/**
 * One step of a path: the vertex entered, and whether a cancellation (a `graph.cancels` edge,
 * along which no token flows) led there rather than a successor edge. A cancelled gate is not
 * passed, so a caller counting gates along a path must know which edge it took.
 */
export interface PathStep {
  readonly vertex: number;
  readonly cancel: boolean;
}

/** The shortest gate-free walk from `start` (first) to an end, along `reach.toSink`. */
export function gateFreeWalk(graph: ProcessGraph, reach: GateReach, start: number): PathStep[] {
  const steps: PathStep[] = [{ vertex: start, cancel: false }];
  let v = start;
  for (;;) {
    const d = reach.toSink[v] ?? 0;
    if (d <= 0) return steps;
    const flowing = neighbours(graph.successors, v).find(
      (s) => reach.toSink[s] === d - 1 && unpassed(graph, reach, v, s),
    );
    const next = flowing ?? neighbours(graph.cancels, v).find((s) => reach.toSink[s] === d - 1);
    if (next === undefined) return steps;
    steps.push({ vertex: next, cancel: flowing === undefined });
    v = next;
  }
}

/**
 * The vertex right after the agent task at `node` that a bypass leaves by: the nearest to an end
 * without a gate, the first on a tie; `undefined` when every path from it passes a gate.
 */
export function bypassStart(
  graph: ProcessGraph,
  reach: GateReach,
  node: number,
): number | undefined {
  let open: number | undefined;
  for (const s of downstreamOf(graph, node)) {
    const d = reach.toSink[s] ?? -1;
    if (d >= 0 && (open === undefined || d < (reach.toSink[open] ?? 0))) open = s;
  }
  return open;
}

/** The verdict for the agent task at flow node `node`. */
export function gateVerdict(graph: ProcessGraph, reach: GateReach, node: number): GateVerdict {
  const starts = downstreamOf(graph, node);
  if (!starts.some((s) => reach.canReachGate[s] === 1))
    return { status: "missing", bypassPath: [] };
  // An agent task with no outgoing flow ends the process itself when it completes.
  if (graph.sinks[node] === 1) {
    return { status: "bypassed", bypassPath: [nodeId(graph.index, node)] };
  }
  const open = bypassStart(graph, reach, node);
  if (open === undefined) return { status: "reached", bypassPath: [] };
  const walk = gateFreeWalk(graph, reach, open).map((step) => step.vertex);
  return { status: "bypassed", bypassPath: pathLabels(graph, node, walk) };
}
