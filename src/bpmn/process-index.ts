/**
 * One walk over `bpmn:Definitions` that collects what the gate rules need: every flow node with
 * its container and moddle path, the containers (processes and sub-processes), the sequence
 * flows, boundary attachments and link events. Iterative, so 5,000 nested sub-processes do not
 * exhaust the stack; linear in the number of elements.
 */
import type { ModdleObject } from "./moddle.js";
import {
  boolProp,
  idOf,
  instanceOf,
  isModdleObject,
  listProp,
  objectProp,
  stringProp,
} from "./moddle.js";

/** Type flags of a flow node, computed once per `$type` (moddle's type check is costly). */
export const NodeFlag = {
  flowNode: 1,
  sequenceFlow: 2,
  subProcess: 4,
  adHoc: 8,
  startEvent: 16,
  boundaryEvent: 32,
  catchEvent: 64,
  throwEvent: 128,
} as const;

const FLAG_TYPES: readonly (readonly [number, string])[] = [
  [NodeFlag.flowNode, "bpmn:FlowNode"],
  [NodeFlag.sequenceFlow, "bpmn:SequenceFlow"],
  [NodeFlag.subProcess, "bpmn:SubProcess"],
  [NodeFlag.adHoc, "bpmn:AdHocSubProcess"],
  [NodeFlag.startEvent, "bpmn:StartEvent"],
  [NodeFlag.boundaryEvent, "bpmn:BoundaryEvent"],
  [NodeFlag.catchEvent, "bpmn:IntermediateCatchEvent"],
  [NodeFlag.throwEvent, "bpmn:IntermediateThrowEvent"],
];

/**
 * The flags of an element's type. Typed moddle elements of one `$type` share their type
 * hierarchy, so the answer is cached by `$type`; the cache lives for one walk.
 */
function flagsOf(element: ModdleObject, cache: Map<string, number>): number {
  const type = element.$type;
  let flags = cache.get(type);
  if (flags === undefined) {
    flags = 0;
    for (const [flag, name] of FLAG_TYPES) if (instanceOf(element, name)) flags |= flag;
    cache.set(type, flags);
  }
  return flags;
}

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
}

/** A flow node (task, event, gateway, sub-process, call activity). */
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

/** Everything the process graph is built from. */
export interface ProcessIndex {
  readonly nodes: readonly FlowNodeEntry[];
  readonly containers: readonly ContainerEntry[];
  /** Sequence flows as node indexes (flows whose ends are not flow nodes are left out). */
  readonly flows: readonly (readonly [number, number])[];
  /** Boundary event node → the node it is attached to. */
  readonly attachedTo: ReadonlyMap<number, number>;
  /** Link throw → link catch node pairs, matched by name within a process. */
  readonly links: readonly (readonly [number, number])[];
  readonly nodeOf: ReadonlyMap<ModdleObject, number>;
  /** The ids of the processes, by container index (processes only). */
  readonly processIds: ReadonlyMap<number, string>;
}

function containerKind(element: ModdleObject, flags: number): ContainerKind {
  if ((flags & NodeFlag.adHoc) !== 0) return "ad-hoc";
  return boolProp(element, "triggeredByEvent") ? "event-sub-process" : "sub-process";
}

function linkName(element: ModdleObject): string | undefined {
  const definition = listProp(element, "eventDefinitions").find((d) =>
    instanceOf(d, "bpmn:LinkEventDefinition"),
  );
  return definition === undefined ? undefined : (stringProp(definition, "name") ?? "");
}

interface Pending {
  readonly items: readonly unknown[];
  readonly path: string;
  readonly container: number;
}

/** Walks the definitions once and indexes every process in it. */
export function indexDefinitions(definitions: ModdleObject): ProcessIndex {
  const nodes: FlowNodeEntry[] = [];
  const containers: ContainerEntry[] = [];
  const nodeOf = new Map<ModdleObject, number>();
  const processIds = new Map<number, string>();
  const rawFlows: ModdleObject[] = [];
  const queue: Pending[] = [];
  const typeFlags = new Map<string, number>();
  const roots = Array.isArray(definitions.rootElements)
    ? (definitions.rootElements as unknown[])
    : [];
  roots.forEach((root, i) => {
    if (!isModdleObject(root) || !instanceOf(root, "bpmn:Process")) return;
    const index = containers.length;
    containers.push({ kind: "process", parent: -1, node: -1, process: index });
    processIds.set(index, idOf(root) ?? "");
    const items = Array.isArray(root.flowElements) ? (root.flowElements as unknown[]) : [];
    queue.push({ items, path: `/rootElements/${i}/flowElements`, container: index });
  });
  // A queue, not a stack: processes come out in document order, nested content after them.
  for (let next = 0, pending = queue[0]; pending !== undefined; pending = queue[++next]) {
    const { items, path, container } = pending;
    items.forEach((item, i) => {
      if (!isModdleObject(item)) return;
      const flags = flagsOf(item, typeFlags);
      if ((flags & NodeFlag.sequenceFlow) !== 0) {
        rawFlows.push(item);
        return;
      }
      if ((flags & NodeFlag.flowNode) === 0) return;
      const index = nodes.length;
      let opens = -1;
      if ((flags & NodeFlag.subProcess) !== 0) {
        opens = containers.length;
        const process = containers[container]?.process ?? container;
        const kind = containerKind(item, flags);
        containers.push({ kind, parent: container, node: index, process });
        const children = Array.isArray(item.flowElements) ? (item.flowElements as unknown[]) : [];
        queue.push({ items: children, path: `${path}/${i}/flowElements`, container: opens });
      }
      const id = idOf(item) ?? "";
      nodes.push({ element: item, id, path: `${path}/${i}`, container, opens, flags });
      nodeOf.set(item, index);
    });
  }
  return {
    nodes,
    containers,
    flows: flowPairs(rawFlows, nodeOf),
    attachedTo: attachments(nodes, nodeOf),
    links: linkPairs(nodes, containers),
    nodeOf,
    processIds,
  };
}

function flowPairs(
  flows: readonly ModdleObject[],
  nodeOf: ReadonlyMap<ModdleObject, number>,
): [number, number][] {
  const out: [number, number][] = [];
  for (const flow of flows) {
    const source = objectProp(flow, "sourceRef");
    const target = objectProp(flow, "targetRef");
    const from = source === undefined ? undefined : nodeOf.get(source);
    const to = target === undefined ? undefined : nodeOf.get(target);
    if (from !== undefined && to !== undefined) out.push([from, to]);
  }
  return out;
}

function attachments(
  nodes: readonly FlowNodeEntry[],
  nodeOf: ReadonlyMap<ModdleObject, number>,
): Map<number, number> {
  const out = new Map<number, number>();
  nodes.forEach((node, i) => {
    if ((node.flags & NodeFlag.boundaryEvent) === 0) return;
    const host = objectProp(node.element, "attachedToRef");
    const hostIndex = host === undefined ? undefined : nodeOf.get(host);
    if (hostIndex !== undefined) out.set(i, hostIndex);
  });
  return out;
}

function linkPairs(
  nodes: readonly FlowNodeEntry[],
  containers: readonly ContainerEntry[],
): [number, number][] {
  const catches = new Map<string, number[]>();
  const throws: [string, number][] = [];
  nodes.forEach((node, i) => {
    if ((node.flags & (NodeFlag.catchEvent | NodeFlag.throwEvent)) === 0) return;
    const name = linkName(node.element);
    if (name === undefined) return;
    const key = `${containers[node.container]?.process ?? -1}\u0000${name}`;
    if ((node.flags & NodeFlag.catchEvent) !== 0) {
      const list = catches.get(key) ?? [];
      list.push(i);
      catches.set(key, list);
    } else throws.push([key, i]);
  });
  return throws.flatMap(([key, from]) =>
    (catches.get(key) ?? []).map((to): [number, number] => [from, to]),
  );
}
