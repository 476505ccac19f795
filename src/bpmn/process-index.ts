/**
 * One walk over `bpmn:Definitions` that collects what the gate rules need: every flow node with
 * its container, the containers (processes and sub-processes), the sequence flows, boundary
 * attachments and link events. Iterative, so 5,000 nested sub-processes do not exhaust the
 * stack; linear in the number of elements.
 *
 * On a large tree the walk is bound by memory, not by work: moddle elements are dictionary-mode
 * objects of about 1.5 kB spread over the heap, so each property read is a cache miss once the
 * tree outgrows the cache. The walk therefore reads every element in one visit (a caller's
 * {@link NodeVisitor} reads its extensions while it is at hand), takes type facts from the
 * element's prototype instead of its `$type`, leaves ids and paths to be read for the few nodes
 * a report names, keeps per-node facts in typed columns rather than objects, and resolves
 * references without a `Map` where it can (see `node-refs.ts`).
 */
import type { ModdleObject } from "./moddle.js";
import { boolProp, idOf, instanceOf, isModdleObject, listProp, stringProp } from "./moddle.js";
import type { EventFacts } from "./event-facts.js";
import { readEventFacts } from "./event-facts.js";
import { flagsOf, NodeFlag } from "./node-flags.js";
import type { Deferred, NodeRanges } from "./node-refs.js";
import {
  attachments,
  column,
  done,
  fillTo,
  findNear,
  flowPairs,
  lateLookup,
  linkPairs,
  put,
  reserve,
} from "./node-refs.js";

export { NodeFlag } from "./node-flags.js";

/** How a container orders its children. */
export type ContainerKind = "process" | "sub-process" | "ad-hoc" | "event-sub-process";

/** A process or a sub-process. */
export interface ContainerEntry {
  readonly kind: ContainerKind;
  /** Index of the enclosing container; -1 for a process. */
  readonly parent: number;
  /** Index of the container's own flow node; -1 for a process. */
  readonly node: number;
  /** Index of the process this container belongs to (itself for a process). */
  readonly process: number;
  /** JSON Pointer of its `flowElements` from `bpmn:Definitions`. */
  readonly path: string;
}

/** One flow node (task, event, gateway, sub-process, call activity), as a report names it. */
export interface FlowNodeEntry {
  readonly element: ModdleObject;
  readonly id: string;
  /** JSON Pointer from `bpmn:Definitions`. */
  readonly path: string;
  readonly container: number;
  /** The container this node opens, if it is a sub-process; else -1. */
  readonly opens: number;
  /** {@link NodeFlag} bits of its type. */
  readonly flags: number;
}

/**
 * Everything the process graph is built from, one column per fact, by node index (document
 * order per container, nested content after its process).
 */
export interface ProcessIndex {
  /** The flow nodes' moddle elements. */
  readonly elements: readonly ModdleObject[];
  /** Per node: {@link NodeFlag} bits of its type. */
  readonly flags: Int32Array;
  /** Per node: the index of its container. */
  readonly container: Int32Array;
  /** Per node: the container it opens if it is a sub-process, else -1. */
  readonly opens: Int32Array;
  /** Per node: its index in its container's `flowElements`. */
  readonly position: Int32Array;
  readonly containers: readonly ContainerEntry[];
  /** Sequence flows as node indexes, flow `k` from `flowSources[k]` to `flowTargets[k]`. */
  readonly flowSources: Int32Array;
  readonly flowTargets: Int32Array;
  /** Per node: the node a boundary event is attached to, or -1. */
  readonly attachedTo: Int32Array;
  /** Link throw → link catch node pairs, matched by name within a process. */
  readonly links: readonly (readonly [number, number])[];
  /**
   * Sequence flows whose source or target is not in the flow's own container (another process,
   * or across a sub-process's border) or is no flow node at all: invalid BPMN, reported and left
   * out of the graph.
   */
  readonly crossingFlows: readonly CrossingFlow[];
  /** What each node's events do to the flow (boundary, end and start events, compensation). */
  readonly events: EventFacts;
  /** Per container index of a process: the process's id (`""` without one); others `""`. */
  readonly processIds: readonly string[];
}

/** A sequence flow that leaves its container (see {@link ProcessIndex.crossingFlows}). */
export interface CrossingFlow {
  readonly element: ModdleObject;
  /** JSON Pointer of the flow from `bpmn:Definitions`. */
  readonly path: string;
  /** The container the flow is written in. */
  readonly container: number;
  /** The source node; -1 when the flow's `sourceRef` is missing or names no flow node. */
  readonly source: number;
  /** The target node; -1 as for {@link source}. */
  readonly target: number;
}

/** Called once per flow node, while the walk is at its element, in node index order. */
export type NodeVisitor = (element: ModdleObject, node: number, flags: number) => void;

/** The node's id, read when a report needs it (`""` without a string id). */
export function nodeId(index: ProcessIndex, node: number): string {
  const element = index.elements[node];
  return element === undefined ? "" : (idOf(element) ?? "");
}

/** The node's JSON Pointer from `bpmn:Definitions`. */
export function nodePath(index: ProcessIndex, node: number): string {
  return `${index.containers[index.container[node] ?? 0]?.path ?? ""}/${index.position[node] ?? 0}`;
}

/** The node as one object, for the facts of an agent task. */
export function nodeEntry(index: ProcessIndex, node: number): FlowNodeEntry {
  const element = index.elements[node];
  if (element === undefined) throw new RangeError(`no flow node ${node}`);
  return {
    element,
    id: nodeId(index, node),
    path: nodePath(index, node),
    container: index.container[node] ?? -1,
    opens: index.opens[node] ?? -1,
    flags: index.flags[node] ?? 0,
  };
}

function containerKind(element: ModdleObject, flags: number): ContainerKind {
  if ((flags & NodeFlag.adHoc) !== 0) return "ad-hoc";
  return boolProp(element, "triggeredByEvent") ? "event-sub-process" : "sub-process";
}

/** The link name of a link throw or catch event, else `undefined`. */
export function linkName(element: ModdleObject): string | undefined {
  const definition = listProp(element, "eventDefinitions").find((d) =>
    instanceOf(d, "bpmn:LinkEventDefinition"),
  );
  return definition === undefined ? undefined : (stringProp(definition, "name") ?? "");
}

interface Pending {
  readonly items: readonly unknown[];
  readonly container: number;
}

/**
 * Walks the definitions once and indexes every process in it; `visit` sees each flow node's
 * element during the walk.
 */
export function indexDefinitions(definitions: ModdleObject, visit?: NodeVisitor): ProcessIndex {
  const elements: ModdleObject[] = [];
  const flagColumn = column();
  const containerColumn = column();
  const opensColumn = column();
  const positionColumn = column();
  const containers: ContainerEntry[] = [];
  const processIds: string[] = [];
  const sources = column();
  const targets = column();
  const flowScopes = column();
  const flowPositions = column();
  const flowItems: ModdleObject[] = [];
  const later: Deferred = { flows: [], boundaries: [], linkEvents: [] };
  const ranges: NodeRanges = { start: column(), end: column() };
  const queue: Pending[] = [];
  const byType = new Map<string, number>();
  const roots = Array.isArray(definitions.rootElements)
    ? (definitions.rootElements as unknown[])
    : [];
  roots.forEach((root, i) => {
    if (!isModdleObject(root) || !instanceOf(root, "bpmn:Process")) return;
    const index = containers.length;
    const path = `/rootElements/${i}/flowElements`;
    containers.push({ kind: "process", parent: -1, node: -1, process: index, path });
    processIds[index] = idOf(root) ?? "";
    const items: unknown = root.flowElements;
    queue.push({ items: Array.isArray(items) ? (items as unknown[]) : [], container: index });
  });
  const columns = [
    ...[flagColumn, containerColumn, opensColumn, positionColumn],
    ...[sources, targets, flowScopes, flowPositions],
  ];
  // A queue, not a stack: processes come out in document order, nested content after them.
  for (let next = 0, pending = queue[0]; pending !== undefined; pending = queue[++next]) {
    const { items, container } = pending;
    const parent = containers[container];
    // A container's nodes take consecutive indexes: its flows' ends are searched among them.
    const start = elements.length;
    let hint = start;
    for (const c of columns) reserve(c, items.length);
    for (let i = 0; i < items.length; i++) {
      const raw = items[i];
      const flags = flagsOf(raw, byType);
      if (flags < 0) continue;
      const item = raw as ModdleObject;
      if ((flags & NodeFlag.sequenceFlow) !== 0) {
        // Resolved at once when both ends precede the flow nearby, as they usually do.
        const source = item.sourceRef;
        const target = item.targetRef;
        const from = findNear(elements, source, start, elements.length, hint);
        const to = findNear(elements, target, start, elements.length, from < 0 ? hint : from);
        if (from < 0 || to < 0) later.flows.push([sources.length, source, target, container, hint]);
        else hint = to;
        put(sources, from);
        put(targets, to);
        put(flowScopes, container);
        put(flowPositions, i);
        flowItems.push(item);
        continue;
      }
      if ((flags & NodeFlag.flowNode) === 0) continue;
      const index = elements.length;
      let opens = -1;
      if ((flags & NodeFlag.subProcess) !== 0) {
        opens = containers.length;
        const process = parent?.process ?? container;
        const kind = containerKind(item, flags);
        const path = `${parent?.path ?? ""}/${i}/flowElements`;
        containers.push({ kind, parent: container, node: index, process, path });
        const children: unknown = item.flowElements;
        queue.push({
          items: Array.isArray(children) ? (children as unknown[]) : [],
          container: opens,
        });
      }
      elements.push(item);
      put(flagColumn, flags);
      put(containerColumn, container);
      put(opensColumn, opens);
      put(positionColumn, i);
      if ((flags & NodeFlag.boundaryEvent) !== 0) {
        const host = item.attachedToRef;
        const found = findNear(elements, host, start, elements.length, index);
        later.boundaries.push([index, found, host, container]);
      }
      if ((flags & (NodeFlag.catchEvent | NodeFlag.throwEvent)) !== 0) {
        const name = linkName(item);
        const key = `${parent?.process ?? -1}\u0000${name ?? ""}`;
        if (name !== undefined)
          later.linkEvents.push([index, key, (flags & NodeFlag.catchEvent) !== 0]);
      }
      visit?.(item, index, flags);
    }
    fillTo(ranges.start, container, start);
    fillTo(ranges.end, container, elements.length);
  }
  const lookup = lateLookup(elements, ranges);
  const containerOf = done(containerColumn);
  const scopes = done(flowScopes);
  const positions = done(flowPositions);
  const flows = flowPairs(sources, targets, flowScopes, containerOf, later, lookup);
  const flags = done(flagColumn);
  return {
    elements,
    flags,
    container: containerOf,
    opens: done(opensColumn),
    position: done(positionColumn),
    containers,
    flowSources: flows.sources,
    flowTargets: flows.targets,
    attachedTo: attachments(elements.length, later, lookup),
    links: linkPairs(later),
    crossingFlows: flows.crossing.flatMap(({ slot, source, target }): CrossingFlow[] => {
      const element = flowItems[slot];
      const container = scopes[slot] ?? 0;
      const path = `${containers[container]?.path ?? ""}/${positions[slot] ?? 0}`;
      return element === undefined ? [] : [{ element, path, container, source, target }];
    }),
    events: readEventFacts(elements, flags),
    processIds,
  };
}
