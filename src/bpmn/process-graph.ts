/**
 * The process graph the gate rules walk (SPEC 7), built once per definitions from the
 * {@link ProcessIndex}. Vertex `i < nodes.length` is flow node `i`; each sub-process adds an
 * `exit` vertex (it has completed) and an `interrupt` vertex (something inside it is running, so a
 * boundary event or event sub-process may fire); each ad-hoc sub-process adds a `hub` through
 * which any child may follow any other; each process adds an `interrupt` vertex for its event
 * sub-processes. Edges:
 *
 * - a sequence flow `a → b` leaves `a` (or `a`'s exit, for a sub-process) and enters `b`;
 *   flows between containers are not in the index (they never run);
 * - a sub-process enters its start events (or, without any, its children without incoming flow);
 *   a child without outgoing flow leads to the sub-process's exit, except an error end event,
 *   which leads to its catchers (`catchers.ts`) or, uncaught, is an end of the process, and an
 *   escalation end event, which leads to its catchers and, unless one interrupts, to the exit;
 * - compensation boundary events and handlers have no edges: they are not the normal flow; a
 *   handler sub-process's content has its flow, and its exit is an end (where the flow goes on
 *   after compensation is not in the drawing);
 * - an ad-hoc sub-process enters its hub; the hub enters every child and the exit; every child
 *   returns to the hub (children are unordered);
 * - a sub-process that may run no instance (a multi-instance over a collection that may be
 *   empty, a cardinality not proven at least 1, a loop that tests before its first turn:
 *   `loopDiscount`, as for a gate) leads straight to its exit too: Zeebe completes an empty
 *   multi-instance body at once, so the flow passes it with nothing inside run. Only its entry
 *   has this edge: a path inside one instance still goes through that instance's content;
 * - an activity leads to its boundary events (a sub-process from its interrupt vertex) that may
 *   fire any time (`triggers.ts`); one only a throw event inside can trigger is led to by that
 *   throw event, and one nothing triggers is no path;
 * - every flow node leads to its container's interrupt vertex, which leads to the container's
 *   boundary events and event sub-processes that may fire any time and to the enclosing
 *   container's interrupt vertex;
 * - an escalation intermediate throw event leads to its catchers too, and when one of them
 *   interrupts, only to them: its scope is cancelled;
 * - a link throw event leads to the catch events of the same name in its process.
 *
 * Besides, {@link ProcessGraph.cancels} says what a running node may be cancelled by: a terminate
 * end event or an uncaught error on another branch (`cancellation.ts`).
 *
 * Message flows are not followed: another participant's process is not this one's control flow.
 */
import type { Adjacency } from "../model/index.js";
import { adjacencyFromEdges } from "../model/index.js";
import { findCancellations } from "./cancellation.js";
import type { Caught } from "./catchers.js";
import { throwCatchers } from "./catchers.js";
import { EventKind } from "./event-facts.js";
import { mayRunNone as loopMayRunNone } from "./loop-runs.js";
import type { LevelGraph } from "./level-graph.js";
import { buildLevelGraph } from "./level-graph.js";
import type { ModdleObject } from "./moddle.js";
import type { ProcessIndex } from "./process-index.js";
import { NodeFlag } from "./process-index.js";
import { readTriggers, Trigger } from "./triggers.js";

/** What a vertex stands for. */
export type VertexKind = "node" | "exit" | "interrupt" | "hub";

/** Vertex kinds by their code in {@link ProcessGraph.kinds}. */
export const VERTEX_KINDS: readonly VertexKind[] = ["node", "exit", "interrupt", "hub"];

const EXIT = 1;
const INTERRUPT = 2;
const HUB = 3;

/** The directed process graph, with per-container synthetic vertices. */
export interface ProcessGraph {
  readonly index: ProcessIndex;
  readonly successors: Adjacency;
  /** Per vertex: the index of its kind in {@link VERTEX_KINDS}; flow nodes come first. */
  readonly kinds: Uint8Array;
  /** Node index a vertex belongs to (its sub-process for exit/hub, -1 for a process's). */
  readonly owner: Int32Array;
  /**
   * 1 for the vertices where a path ends: a flow node of a process without outgoing flow (or,
   * for a sub-process, its exit). Nodes inside a sub-process lead to its exit instead.
   */
  readonly sinks: Uint8Array;
  /** Per container: its exit, interrupt and hub vertices (-1 where it has none). */
  readonly exitOf: Int32Array;
  readonly interruptOf: Int32Array;
  /**
   * From a flow node (and, for a sub-process, its interrupt vertex) to the terminate end event or
   * uncaught error end event that may cancel it while it runs: a step that leaves the node
   * without completing it, so a gate on it is not passed. Not among {@link successors}: no token
   * flows along it.
   */
  readonly cancels: Adjacency;
}

/** Parallel edge columns, sized for the edges most graphs have and grown past that. */
interface Edges {
  from: Int32Array;
  to: Int32Array;
  count: number;
}

/**
 * Whether a sub-process may complete with no instance of its content run: read once per
 * container, where only a few carry loop characteristics.
 */
function mayRunNone(element: ModdleObject | undefined): boolean {
  return element !== undefined && loopMayRunNone(element);
}

/** Builds the graph in O(nodes + flows). */
export function buildProcessGraph(index: ProcessIndex): ProcessGraph {
  const { containers, flags, opens, attachedTo } = index;
  const nodeCount = flags.length;
  let vertexCount = nodeCount + containers.length;
  for (const c of containers) {
    if (c.kind !== "process") vertexCount += c.kind === "ad-hoc" ? 2 : 1;
  }
  const kinds = new Uint8Array(vertexCount);
  const owner = new Int32Array(vertexCount);
  for (let i = 0; i < nodeCount; i++) owner[i] = i;
  const exitOf = new Int32Array(containers.length).fill(-1);
  const interruptOf = new Int32Array(containers.length);
  const hubOf = new Int32Array(containers.length).fill(-1);
  let vertices = nodeCount;
  const addVertex = (kind: number, node: number): number => {
    kinds[vertices] = kind;
    owner[vertices] = node;
    return vertices++;
  };
  containers.forEach((c, i) => {
    interruptOf[i] = addVertex(INTERRUPT, c.node);
    if (c.kind === "process") return;
    exitOf[i] = addVertex(EXIT, c.node);
    if (c.kind === "ad-hoc") hubOf[i] = addVertex(HUB, c.node);
  });
  // Per flow or link one edge; per node at most 5, per boundary event 2; per ad-hoc container 2,
  // per container that may run no instance 1; a thrown error or escalation adds one per catcher,
  // which only a crafted process has many of.
  const bound =
    index.flowSources.length + index.links.length + 7 * nodeCount + 3 * containers.length;
  const edges: Edges = { from: new Int32Array(bound), to: new Int32Array(bound), count: 0 };
  const edge = (a: number, b: number): void => {
    if (edges.count === edges.from.length) {
      const from = new Int32Array(2 * edges.count + 16);
      const to = new Int32Array(from.length);
      from.set(edges.from);
      to.set(edges.to);
      edges.from = from;
      edges.to = to;
    }
    edges.from[edges.count] = a;
    edges.to[edges.count++] = b;
  };
  const out = (n: number): number => {
    const opened = opens[n] ?? -1;
    return opened >= 0 ? (exitOf[opened] ?? n) : n;
  };
  const { kind: eventKind, compensation } = index.events;
  const catchers = throwCatchers(index);
  const triggers = readTriggers(index, catchers);
  /** An escalation throw event: it leads to its catchers too, and when one interrupts, only there. */
  const escalates = (i: number): boolean =>
    ((flags[i] ?? 0) & NodeFlag.throwEvent) !== 0 && eventKind[i] === EventKind.escalation;
  /**
   * Whether the token of an escalation throw event goes on past it: unless a catcher interrupts,
   * and surely catches it (a code written as FEEL may match none of its catchers).
   */
  const goesOn = (caught: Caught): boolean => !caught.interrupting || caught.mayEscape;
  const hasIn = new Uint8Array(nodeCount);
  const hasOut = new Uint8Array(nodeCount);
  for (let k = 0; k < index.flowSources.length; k++) {
    const a = index.flowSources[k] ?? 0;
    const b = index.flowTargets[k] ?? 0;
    hasOut[a] = 1;
    hasIn[b] = 1;
    if (!escalates(a) || goesOn(catchers(a))) edge(out(a), b);
  }
  const linked = new Uint8Array(nodeCount);
  for (const [a, b] of index.links) {
    edge(a, b);
    linked[a] = 1;
  }
  const hasStart = new Uint8Array(containers.length);
  for (let i = 0; i < nodeCount; i++) {
    if (((flags[i] ?? 0) & NodeFlag.startEvent) !== 0) hasStart[index.container[i] ?? 0] = 1;
  }
  /** Error end events nothing catches: each ends the process. */
  const uncaught: number[] = [];
  /** Where a path ends at node `i` (no outgoing flow): its container's exit, or a catcher. */
  /** The error or escalation an end event throws; `none` for any other node. */
  const thrownKind = (i: number): number => {
    if (((flags[i] ?? 0) & NodeFlag.endEvent) === 0) return EventKind.none;
    const kind = eventKind[i] ?? EventKind.none;
    return kind === EventKind.error || kind === EventKind.escalation ? kind : EventKind.none;
  };
  const ending = (i: number, within: number): void => {
    const kind = thrownKind(i);
    if (kind !== EventKind.none) {
      const caught = catchers(i);
      for (const catcher of caught.nodes) edge(i, catcher);
      // A caught error never completes the scope; an escalation does unless its catcher
      // interrupts; an uncaught escalation is a plain end, an uncaught error ends the process.
      // One whose code is computed may also match no catcher (`mayEscape`): both ways are paths.
      if (kind === EventKind.error && caught.nodes.length > 0 && !caught.mayEscape) return;
      if (kind === EventKind.escalation && caught.interrupting && !caught.mayEscape) return;
      if (kind === EventKind.error) {
        uncaught.push(i);
        return;
      }
    }
    // An escalation throw event with no flow on: its token ends there, or with its scope.
    if (escalates(i) && !goesOn(catchers(i))) return;
    const exit = exitOf[within] ?? -1;
    if (exit >= 0) edge(out(i), exit);
  };
  for (let i = 0; i < nodeCount; i++) {
    const within = index.container[i] ?? 0;
    const c = containers[within];
    if (c === undefined) continue;
    // Compensation handlers and boundaries run only when compensation is thrown: not the flow.
    if (compensation[i] === 1) continue;
    const opened = opens[i] ?? -1;
    const boundary = (attachedTo[i] ?? -1) >= 0;
    const eventSub = opened >= 0 && containers[opened]?.kind === "event-sub-process";
    const interrupt = interruptOf[within] ?? i;
    edge(i, interrupt);
    if (eventSub && triggers.eventSub[opened] === Trigger.anyTime) edge(interrupt, i);
    if (escalates(i)) for (const catcher of catchers(i).nodes) edge(i, catcher);
    if (opened >= 0) edge(interruptOf[opened] ?? i, interrupt);
    if (c.kind === "process" || boundary || eventSub) {
      if (hasOut[i] === 0 && linked[i] === 0) ending(i, within);
      continue;
    }
    if (c.kind === "ad-hoc") {
      const hub = hubOf[within] ?? i;
      edge(hub, i);
      edge(out(i), hub);
      continue;
    }
    const isStart = ((flags[i] ?? 0) & NodeFlag.startEvent) !== 0;
    // Read lazily: a moddle property read is costly and only start candidates need it.
    const entered =
      hasStart[within] === 1
        ? isStart
        : hasIn[i] === 0 && index.elements[i]?.isForCompensation !== true;
    if (entered) edge(c.node, i);
    if (hasOut[i] === 0 && linked[i] === 0) ending(i, within);
  }
  containers.forEach((c, i) => {
    if (c.kind === "process") return;
    if (mayRunNone(index.elements[c.node])) edge(c.node, exitOf[i] ?? c.node);
    if (c.kind !== "ad-hoc") return;
    edge(c.node, hubOf[i] ?? c.node);
    edge(hubOf[i] ?? c.node, exitOf[i] ?? c.node);
  });
  const levels = (): LevelGraph => buildLevelGraph(index, triggers);
  const found = findCancellations(index, levels, uncaught, catchers);
  // Past the analysis's budget, a catcher only a throw inside triggers fires any time.
  const fires = (t: number | undefined): boolean =>
    t === Trigger.anyTime || (!found.complete && t === Trigger.thrown);
  containers.forEach((c, e) => {
    if (c.kind !== "event-sub-process" || found.complete) return;
    if (triggers.eventSub[e] === Trigger.thrown) edge(interruptOf[c.parent] ?? c.node, c.node);
  });
  for (let boundary = 0; boundary < nodeCount; boundary++) {
    const host = attachedTo[boundary] ?? -1;
    if (host < 0 || compensation[boundary] === 1) continue;
    if (!fires(triggers.node[boundary])) continue;
    edge(host, boundary);
    const opened = opens[host] ?? -1;
    if (opened >= 0) edge(interruptOf[opened] ?? host, boundary);
  }
  const sinks = new Uint8Array(vertexCount);
  for (let i = 0; i < nodeCount; i++) {
    const process = containers[index.container[i] ?? 0]?.kind === "process";
    if (process && hasOut[i] === 0 && linked[i] === 0 && compensation[i] === 0) {
      // An error or escalation caught at the process level goes on in its handler.
      const kind = thrownKind(i);
      const caught = kind === EventKind.none ? undefined : catchers(i);
      if (
        caught === undefined ||
        caught.nodes.length === 0 ||
        (kind === EventKind.escalation && !caught.interrupting)
      )
        sinks[out(i)] = 1;
    }
  }
  for (const i of uncaught) sinks[i] = 1;
  // A compensation handler runs when compensation is thrown, and where the flow goes after it
  // cannot be read from the drawing: its completion is an end, so a path inside it that misses
  // its gate is a bypass, not a path that never ends.
  containers.forEach((c, i) => {
    if (c.node >= 0 && compensation[c.node] === 1) sinks[exitOf[i] ?? 0] = 1;
  });
  const cancelFrom: number[] = [];
  const cancelTo: number[] = [];
  found.source.forEach((node, k) => {
    const by = found.witness[k] ?? node;
    cancelFrom.push(node);
    cancelTo.push(by);
    const opened = opens[node] ?? -1;
    if (opened < 0) return;
    cancelFrom.push(interruptOf[opened] ?? node);
    cancelTo.push(by);
  });
  const { from, to, count } = edges;
  return {
    index,
    sinks,
    successors: adjacencyFromEdges(vertexCount, from.subarray(0, count), to.subarray(0, count)),
    kinds,
    owner,
    exitOf,
    interruptOf,
    cancels: adjacencyFromEdges(vertexCount, cancelFrom, cancelTo),
  };
}
