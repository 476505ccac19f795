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
  /** By flow node index: the innermost lane it is in. */
  readonly lanes: ReadonlyMap<number, NamedElement>;
  /** By flow node index, for the nodes asked for: its id, name and BPMN type. */
  readonly elements: ReadonlyMap<number, NamedElement & { readonly type: string }>;
}

function named(element: ModdleObject): NamedElement {
  const name = stringProp(element, "name");
  return { id: idOf(element) ?? "", name: name === undefined || name === "" ? null : name };
}

/** The lanes of one process, innermost last, iteratively (lane sets nest without bound). */
function readLanes(
  process: ModdleObject,
  nodeOf: ReadonlyMap<ModdleObject, number>,
  out: Map<number, NamedElement>,
): void {
  const pending = [...listProp(process, "laneSets")];
  for (let set = pending.pop(); set !== undefined; set = pending.pop()) {
    for (const lane of listProp(set, "lanes")) {
      const facts = named(lane);
      for (const ref of listProp(lane, "flowNodeRef")) {
        const node = nodeOf.get(ref);
        // A child lane set is read after its parent's: the innermost lane is the last written.
        if (node !== undefined) out.set(node, facts);
      }
      const child = objectProp(lane, "childLaneSet");
      if (child !== undefined) pending.push(child);
    }
  }
}

/** Reads the processes, the lanes and the named `nodes` of the definitions. */
export function readSubjects(
  definitions: ModdleObject,
  index: ProcessIndex,
  nodes: Iterable<number>,
): SubjectReading {
  const processes = new Map<number, NamedElement & { path: string }>();
  const lanes = new Map<number, NamedElement>();
  const nodeOf = new Map<ModdleObject, number>();
  index.elements.forEach((element, i) => nodeOf.set(element, i));
  const roots: unknown = definitions.rootElements;
  let container = 0;
  (Array.isArray(roots) ? (roots as unknown[]) : []).forEach((root, i) => {
    if (!isModdleObject(root) || !instanceOf(root, "bpmn:Process")) return;
    // Processes take the first container indexes, in document order (process-index.ts).
    processes.set(container++, { ...named(root), path: `/rootElements/${String(i)}` });
    readLanes(root, nodeOf, lanes);
  });
  const elements = new Map<number, NamedElement & { type: string }>();
  for (const node of nodes) {
    const element = index.elements[node];
    if (element === undefined) continue;
    elements.set(node, { ...named(element), type: element.$type });
  }
  return { processes, lanes, elements };
}
