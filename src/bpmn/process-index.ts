/**
 * One walk over `bpmn:Definitions` that collects what the gate rules need: every flow node with
 * its container and moddle path, the containers (processes and sub-processes), the sequence
 * flows, boundary attachments and link events. Iterative, so 5,000 nested sub-processes do not
 * exhaust the stack; linear in the number of elements.
 */
import type { ModdleObject } from "./moddle.js";
import { boolProp, idOf, instanceOf, isModdleObject, listProp, stringProp } from "./moddle.js";

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
  activity: 256,
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
  [NodeFlag.activity, "bpmn:Activity"],
];

/**
 * The flags of an element's type. Typed moddle elements of one `$type` share their type
 * hierarchy, so the answer is cached by `$type`; the cache lives for one walk.
 */
function flagsOf(element: ModdleObject, type: string, cache: Map<string, number>): number {
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
  /**
   * Sequence flows as node indexes, flow `k` from `flowSources[k]` to `flowTargets[k]` (flows
   * whose ends are not flow nodes are left out). Flat arrays: one tuple per flow was a measurable
   * share of the garbage at 20,000 nodes.
   */
  readonly flowSources: Int32Array;
  readonly flowTargets: Int32Array;
  /** Per node: the node a boundary event is attached to, or -1. */
  readonly attachedTo: Int32Array;
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
    items.forEach((raw, i) => {
      // One read of `$type` (moddle elements are in dictionary mode; every read costs).
      if (typeof raw !== "object" || raw === null) return;
      const type = (raw as { readonly $type?: unknown }).$type;
      if (typeof type !== "string") return;
      const item = raw as ModdleObject;
      const flags = flagsOf(item, type, typeFlags);
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
  const { sources, targets } = flowPairs(rawFlows, nodeOf);
  return {
    nodes,
    containers,
    flowSources: sources,
    flowTargets: targets,
    attachedTo: attachments(nodes, nodeOf),
    links: linkPairs(nodes, containers),
    nodeOf,
    processIds,
  };
}

function flowPairs(
  flows: readonly ModdleObject[],
  nodeOf: ReadonlyMap<ModdleObject, number>,
): { sources: Int32Array; targets: Int32Array } {
  const sources = new Int32Array(flows.length);
  const targets = new Int32Array(flows.length);
  let count = 0;
  for (const flow of flows) {
    // Identity lookups need no type check: anything that is not an indexed node misses.
    const from = nodeOf.get(flow.sourceRef as ModdleObject);
    const to = nodeOf.get(flow.targetRef as ModdleObject);
    if (from === undefined || to === undefined) continue;
    sources[count] = from;
    targets[count] = to;
    count += 1;
  }
  return { sources: sources.subarray(0, count), targets: targets.subarray(0, count) };
}

function attachments(
  nodes: readonly FlowNodeEntry[],
  nodeOf: ReadonlyMap<ModdleObject, number>,
): Int32Array {
  const out = new Int32Array(nodes.length).fill(-1);
  nodes.forEach((node, i) => {
    if ((node.flags & NodeFlag.boundaryEvent) === 0) return;
    const hostIndex = nodeOf.get(node.element.attachedToRef as ModdleObject);
    if (hostIndex !== undefined) out[i] = hostIndex;
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
