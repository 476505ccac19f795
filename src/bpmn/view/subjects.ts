/**
 * What the policy fact model needs of the BPMN beyond the graph: each process's name, the lane
 * of each agent task, and the names and types of agent tasks and gates. Read in the one
 * preparation, before any resolver runs (as everything read from the moddle tree is), and only
 * when a rule will read the view.
 */
import type { ModdleObject } from "../moddle.js";
import { idOf, instanceOf, isModdleObject, listProp, objectProp, stringProp } from "../moddle.js";
import type { ProcessIndex } from "../process-index.js";

/** A named element as the fact model shows it. */
export interface NamedElement {
  readonly id: string;
  readonly name: string | null;
}

/** What was read for the view. */
export interface SubjectReading {
  /** By process container index: its id, name and JSON Pointer. */
  readonly processes: ReadonlyMap<number, NamedElement & { readonly path: string }>;
  /**
   * By flow node index, for the nodes asked for: the innermost lane that lists it, else the lane
   * of its nearest enclosing sub-process that has one (`laneOf`); null when lanes
   * that do not nest list it (unknown).
   */
  readonly lanes: ReadonlyMap<number, NamedElement | null>;
  /** By flow node index, for the nodes asked for: its id, name and BPMN type. */
  readonly elements: ReadonlyMap<number, NamedElement & { readonly type: string }>;
}

function named(element: ModdleObject): NamedElement {
  const name = stringProp(element, "name");
  return { id: idOf(element) ?? "", name: name === undefined || name === "" ? null : name };
}

/** A lane, numbered depth first: it nests in another when its `enter`..`exit` lies within. */
interface LaneEntry {
  readonly facts: NamedElement;
  readonly enter: number;
  exit: number;
}

const within = (a: LaneEntry, b: LaneEntry): boolean => b.enter <= a.enter && a.exit <= b.exit;

/**
 * What the lanes of one process or sub-process (lane sets nest without bound: read iteratively)
 * say of each node they list: the innermost lane that lists it when they nest (bpmn-js lists a
 * node in every lane around it), else `null`: lanes that do not nest (two lane sets, or two
 * lanes of one set) both list it, and which it is in is unknown. A later owner (a sub-process)
 * overrides an earlier one's (its process's).
 */
function readLanes(
  owner: ModdleObject,
  nodeOf: ReadonlyMap<ModdleObject, number>,
  out: Map<number, NamedElement | null>,
): void {
  const listed: [number, LaneEntry][] = [];
  let clock = 0;
  // A lane to enter, or an entered lane whose nested lanes are all numbered.
  type Step = { readonly lane: ModdleObject } | { readonly done: LaneEntry };
  const stack: Step[] = listProp(owner, "laneSets")
    .flatMap((set) => listProp(set, "lanes"))
    .map((lane) => ({ lane }))
    .reverse();
  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    if ("done" in step) {
      step.done.exit = clock;
      continue;
    }
    const entry: LaneEntry = { facts: named(step.lane), enter: clock++, exit: clock };
    for (const ref of listProp(step.lane, "flowNodeRef")) {
      const node = nodeOf.get(ref);
      if (node !== undefined) listed.push([node, entry]);
    }
    stack.push({ done: entry });
    const child = objectProp(step.lane, "childLaneSet");
    const nested = child === undefined ? [] : listProp(child, "lanes");
    for (let i = nested.length - 1; i >= 0; i--) {
      const lane = nested[i];
      if (lane !== undefined) stack.push({ lane });
    }
  }
  const inner = new Map<number, LaneEntry | null>();
  for (const [node, entry] of listed) {
    const held = inner.get(node);
    if (held === undefined || (held !== null && within(entry, held))) inner.set(node, entry);
    else if (held !== null && !within(held, entry)) inner.set(node, null);
  }
  for (const [node, entry] of inner) out.set(node, entry === null ? null : entry.facts);
}

/**
 * The lane of `node`: the one that lists it, else that of its nearest enclosing sub-process
 * (ad-hoc, event sub-process, transaction) that has one, walking up iteratively. Modellers write
 * no `flowNodeRef` for what a sub-process holds (bpmn-js stops at `bpmn:SubProcess`): without
 * this, every nested agent would be "in no lane" and a separation-of-duties rule would pass it.
 * A called process is not enclosed by its call activity: its nodes have their own process's lanes.
 */
function laneOf(
  node: number,
  index: ProcessIndex,
  listed: ReadonlyMap<number, NamedElement | null>,
): NamedElement | null | undefined {
  for (let at = node; ;) {
    const lane = listed.get(at);
    if (lane !== undefined) return lane;
    const container = index.containers[index.container[at] ?? -1];
    if (container === undefined || container.node < 0) return undefined;
    at = container.node;
  }
}

/** Reads the processes, and the lanes, names and types of the flow nodes `nodes`. */
export function readSubjects(
  definitions: ModdleObject,
  index: ProcessIndex,
  nodes: Iterable<number>,
): SubjectReading {
  const processes = new Map<number, NamedElement & { path: string }>();
  const listed = new Map<number, NamedElement | null>();
  const nodeOf = new Map<ModdleObject, number>();
  index.elements.forEach((element, i) => nodeOf.set(element, i));
  const roots: unknown = definitions.rootElements;
  let container = 0;
  (Array.isArray(roots) ? (roots as unknown[]) : []).forEach((root, i) => {
    if (!isModdleObject(root) || !instanceOf(root, "bpmn:Process")) return;
    // Processes take the first container indexes, in document order (process-index.ts).
    processes.set(container++, { ...named(root), path: `/rootElements/${String(i)}` });
    readLanes(root, nodeOf, listed);
  });
  // A sub-process may partition its own content into lanes; read after its process's lanes, so
  // that a node listed in both has the inner one.
  for (const { node } of index.containers) {
    const element = index.elements[node];
    if (element !== undefined) readLanes(element, nodeOf, listed);
  }
  const lanes = new Map<number, NamedElement | null>();
  const elements = new Map<number, NamedElement & { type: string }>();
  for (const node of nodes) {
    const element = index.elements[node];
    if (element === undefined) continue;
    elements.set(node, { ...named(element), type: element.$type });
    const lane = laneOf(node, index, listed);
    if (lane !== undefined) lanes.set(node, lane);
  }
  return { processes, lanes, elements };
}
