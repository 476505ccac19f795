/**
 * The process graph the gate rules walk (SPEC 7), built once per definitions from the
 * {@link ProcessIndex}. Vertex `i < nodes.length` is flow node `i`; each sub-process adds an
 * `exit` vertex (it has completed) and an `interrupt` vertex (something inside it is running, so a
 * boundary event or event sub-process may fire); each ad-hoc sub-process adds a `hub` through
 * which any child may follow any other; each process adds an `interrupt` vertex for its event
 * sub-processes. Edges:
 *
 * - a sequence flow `a → b` leaves `a` (or `a`'s exit, for a sub-process) and enters `b`;
 * - a sub-process enters its start events (or, without any, its children without incoming flow);
 *   a child without outgoing flow leads to the sub-process's exit;
 * - an ad-hoc sub-process enters its hub; the hub enters every child and the exit; every child
 *   returns to the hub (children are unordered);
 * - an activity leads to its boundary events (a sub-process from its interrupt vertex);
 * - every flow node leads to its container's interrupt vertex, which leads to the container's
 *   boundary events and event sub-processes and to the enclosing container's interrupt vertex;
 * - a link throw event leads to the catch events of the same name in its process.
 *
 * Message flows are not followed: another participant's process is not this one's control flow.
 */
import type { Adjacency } from "../model/index.js";
import { adjacencyFromEdges } from "../model/index.js";
import type { ProcessIndex } from "./process-index.js";
import { NodeFlag } from "./process-index.js";

/** What a vertex stands for. */
export type VertexKind = "node" | "exit" | "interrupt" | "hub";

/** The directed process graph, with per-container synthetic vertices. */
export interface ProcessGraph {
  readonly index: ProcessIndex;
  readonly successors: Adjacency;
  readonly kinds: readonly VertexKind[];
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
}

/** Builds the graph in O(nodes + flows). */
export function buildProcessGraph(index: ProcessIndex): ProcessGraph {
  const { nodes, containers } = index;
  const kinds: VertexKind[] = nodes.map(() => "node");
  const owner: number[] = nodes.map((_, i) => i);
  const exitOf = new Int32Array(containers.length).fill(-1);
  const interruptOf = new Int32Array(containers.length);
  const hubOf = new Int32Array(containers.length).fill(-1);
  const addVertex = (kind: VertexKind, node: number): number => {
    kinds.push(kind);
    owner.push(node);
    return kinds.length - 1;
  };
  containers.forEach((c, i) => {
    interruptOf[i] = addVertex("interrupt", c.node);
    if (c.kind === "process") return;
    exitOf[i] = addVertex("exit", c.node);
    if (c.kind === "ad-hoc") hubOf[i] = addVertex("hub", c.node);
  });
  const from: number[] = [];
  const to: number[] = [];
  const edge = (a: number, b: number): void => {
    from.push(a);
    to.push(b);
  };
  const out = (n: number): number => {
    const opens = nodes[n]?.opens ?? -1;
    return opens >= 0 ? (exitOf[opens] ?? n) : n;
  };
  const hasIn = new Uint8Array(nodes.length);
  const hasOut = new Uint8Array(nodes.length);
  for (let k = 0; k < index.flowSources.length; k++) {
    const a = index.flowSources[k] ?? 0;
    const b = index.flowTargets[k] ?? 0;
    edge(out(a), b);
    hasOut[a] = 1;
    hasIn[b] = 1;
  }
  const linked = new Uint8Array(nodes.length);
  for (const [a, b] of index.links) {
    edge(a, b);
    linked[a] = 1;
  }
  const hasStart = new Uint8Array(containers.length);
  for (const n of nodes) {
    if ((n.flags & NodeFlag.startEvent) !== 0) hasStart[n.container] = 1;
  }
  nodes.forEach((n, i) => {
    const c = containers[n.container];
    if (c === undefined) return;
    const boundary = (index.attachedTo[i] ?? -1) >= 0;
    const eventSub = n.opens >= 0 && containers[n.opens]?.kind === "event-sub-process";
    edge(i, interruptOf[n.container] ?? i);
    if (eventSub) edge(interruptOf[n.container] ?? i, i);
    if (n.opens >= 0) edge(interruptOf[n.opens] ?? i, interruptOf[n.container] ?? i);
    if (c.kind === "process" || boundary || eventSub) {
      if (c.kind !== "process" && hasOut[i] === 0) edge(out(i), exitOf[n.container] ?? i);
      return;
    }
    const container = c.node;
    if (c.kind === "ad-hoc") {
      const hub = hubOf[n.container] ?? i;
      edge(hub, i);
      edge(out(i), hub);
      return;
    }
    const isStart = (n.flags & NodeFlag.startEvent) !== 0;
    // Read lazily: a moddle property read is costly and only start candidates need it.
    const entered =
      hasStart[n.container] === 1
        ? isStart
        : hasIn[i] === 0 && n.element.isForCompensation !== true;
    if (entered) edge(container, i);
    if (hasOut[i] === 0) edge(out(i), exitOf[n.container] ?? i);
  });
  containers.forEach((c, i) => {
    if (c.kind !== "ad-hoc") return;
    edge(c.node, hubOf[i] ?? c.node);
    edge(hubOf[i] ?? c.node, exitOf[i] ?? c.node);
  });
  for (let boundary = 0; boundary < nodes.length; boundary++) {
    const host = index.attachedTo[boundary] ?? -1;
    if (host < 0) continue;
    edge(host, boundary);
    const opens = nodes[host]?.opens ?? -1;
    if (opens >= 0) edge(interruptOf[opens] ?? host, boundary);
  }
  const sinks = new Uint8Array(kinds.length);
  nodes.forEach((n, i) => {
    if (containers[n.container]?.kind === "process" && hasOut[i] === 0 && linked[i] === 0) {
      sinks[out(i)] = 1;
    }
  });
  return {
    index,
    sinks,
    successors: adjacencyFromEdges(kinds.length, from, to),
    kinds,
    owner: Int32Array.from(owner),
    exitOf,
    interruptOf,
  };
}
