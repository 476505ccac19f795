/**
 * The tools of a tool container, as Camunda resolves them: the container's flow nodes with no
 * incoming sequence flow, except boundary events and event sub-processes. What a tool's
 * sequence flows lead to inside the container (and the boundary events of those elements) is
 * the tool's own sub-flow: kept as steps and flows, so its effects count for the tool. The
 * container's event sub-processes are no tools, but what runs in them is part of what the agent
 * may do: each is kept as a step, with a flow to every element inside it (nested event
 * sub-processes too), so that their effects count for every tool.
 */
import type { ModdleObject } from "../moddle.js";
import { boolProp, documentationOf } from "./zeebe.js";
import { extensionValues, idOf, listProp, objectProp, stringProp } from "../moddle.js";
import { fromAiParameters } from "./from-ai.js";
import { GATEWAY_PROPERTY, readActivity } from "./read-activity.js";
import type { CamundaActivity, CamundaTool } from "./types.js";

/** What a container holds, read once. */
export interface ContainerContent {
  readonly tools: readonly CamundaTool[];
  readonly steps: readonly CamundaActivity[];
  readonly flows: readonly (readonly [string, string])[];
  /** The container's own event sub-processes (absent when none); their contents are steps. */
  readonly eventSubProcesses?: readonly string[];
}

const refId = (flow: ModdleObject, name: string): string | undefined => {
  const ref = objectProp(flow, name);
  return ref === undefined ? undefined : idOf(ref);
};

function isFlowNode(element: ModdleObject): boolean {
  const type = element.$type;
  if (type === "bpmn:SequenceFlow" || type === "bpmn:DataObject") return false;
  if (type === "bpmn:DataObjectReference" || type === "bpmn:DataStoreReference") return false;
  return type.startsWith("bpmn:");
}

function toolOf(element: ModdleObject): CamundaTool {
  const values = extensionValues(element);
  const activity = readActivity(element, values);
  const name = stringProp(element, "name") ?? "";
  const gateway = activity.properties[GATEWAY_PROPERTY];
  return {
    ...activity,
    name,
    description: documentationOf(element) ?? (name === "" ? activity.id : name),
    // Every mapping is evaluated, a replaced one too: each fromAi call asks the model.
    fromAi: fromAiParameters(activity.inputMappings.map(([, source]) => source)),
    ...(gateway === undefined ? {} : { gateway }),
  };
}

/** True for an event sub-process: an event starts it, never a sequence flow or the model. */
function isEventSubProcess(child: ModdleObject): boolean {
  return child.$type === "bpmn:SubProcess" && boolProp(child, "triggeredByEvent");
}

/** True for a container child the resolver lists or a sequence flow may lead to. */
function isNode(child: ModdleObject): boolean {
  return isFlowNode(child) && !isEventSubProcess(child);
}

/**
 * Reads the event sub-processes among `children` into `steps` and `flows`, breadth first and
 * iteratively (nested ones included, each with a flow from the one it is in): every flow node
 * inside is a step with a flow from its event sub-process, whatever sequence flows join them, so
 * nothing inside is passed over. An element without an id gets a name no XML id can have. Returns
 * the ids of the top-level ones. Linear in the elements inside.
 */
function readEventSubProcesses(
  children: readonly ModdleObject[],
  steps: CamundaActivity[],
  flows: (readonly [string, string])[],
): string[] {
  const top: string[] = [];
  const queue: { readonly element: ModdleObject; readonly parent?: string }[] = children
    .filter(isEventSubProcess)
    .map((element) => ({ element }));
  let unnamed = 0;
  const idFor = (element: ModdleObject, where: string): string => {
    const id = idOf(element);
    if (id !== undefined) return id;
    unnamed += 1;
    return `(unnamed ${String(unnamed)}${where})`;
  };
  // The loop also visits what it pushes: an array iterator reads the length at every step.
  for (const { element, parent } of queue) {
    const id = idFor(element, parent === undefined ? "" : ` in ${parent}`);
    steps.push({ ...readActivity(element), id });
    if (parent === undefined) top.push(id);
    else flows.push([parent, id]);
    for (const inner of listProp(element, "flowElements")) {
      if (isEventSubProcess(inner)) queue.push({ element: inner, parent: id });
      else if (isFlowNode(inner)) {
        const innerId = idFor(inner, ` in ${id}`);
        steps.push({ ...readActivity(inner), id: innerId });
        flows.push([id, innerId]);
      }
    }
  }
  return top;
}

/**
 * The ids of the nodes that are tools, as Camunda lists them: those whose `<bpmn:incoming>` list
 * is empty (Camunda's resolver reads `FlowNode.getIncoming()`, which is that list, not the flows'
 * `targetRef`s, so a node reached only by a flow written without it is a tool too), and those no
 * flow from another node leads to (a retry flow to itself does not make a node a step). Then any
 * node no tool's flows reach: nothing can run it but a call from the model, so it counts as a
 * tool rather than being dropped.
 */
function rootIds(
  nodes: readonly ModdleObject[],
  flows: readonly (readonly [string, string])[],
): ReadonlySet<string> {
  const fromOthers = new Set<string>();
  const next = new Map<string, string[]>();
  for (const [from, to] of flows) {
    if (from !== to) fromOthers.add(to);
    const list = next.get(from);
    if (list === undefined) next.set(from, [to]);
    else list.push(to);
  }
  const roots = new Set<string>();
  const reached = new Set<string>();
  const queue: string[] = [];
  const reach = (id: string): void => {
    if (reached.has(id)) return;
    reached.add(id);
    queue.push(id);
  };
  // Each queued node's flows are followed once, from `head` on: O(V + E) in all.
  let head = 0;
  const drain = (): void => {
    for (; head < queue.length; head += 1) {
      for (const to of next.get(queue[head] ?? "") ?? []) reach(to);
    }
  };
  for (const node of nodes) {
    const id = idOf(node);
    if (id === undefined || node.$type === "bpmn:BoundaryEvent") continue;
    if (!fromOthers.has(id) || listProp(node, "incoming").length === 0) {
      roots.add(id);
      reach(id);
    }
  }
  drain();
  for (const node of nodes) {
    const id = idOf(node);
    if (id === undefined || node.$type === "bpmn:BoundaryEvent" || reached.has(id)) continue;
    roots.add(id);
    reach(id);
    drain();
  }
  return roots;
}

/**
 * Reads a container's tools, steps and inner flows. Linear in the container's direct children
 * and the contents of its event sub-processes; other nested sub-processes are not entered (a
 * sub-process tool's effect is mapped as a whole).
 */
export function readContainer(container: ModdleObject): ContainerContent {
  const children = listProp(container, "flowElements");
  const flows: (readonly [string, string])[] = [];
  for (const child of children) {
    if (child.$type === "bpmn:SequenceFlow") {
      const from = refId(child, "sourceRef");
      const to = refId(child, "targetRef");
      if (from !== undefined && to !== undefined) flows.push([from, to]);
    } else if (child.$type === "bpmn:BoundaryEvent") {
      const host = refId(child, "attachedToRef");
      const id = idOf(child);
      if (host !== undefined && id !== undefined) flows.push([host, id]);
    }
  }
  const nodes = children.filter(isNode);
  const roots = rootIds(nodes, flows);
  const tools: CamundaTool[] = [];
  const steps: CamundaActivity[] = [];
  for (const child of nodes) {
    const id = idOf(child);
    // An element without an id can be no flow's target, so it is a root: a tool the model may
    // call (Camunda would not deploy it, but what it does must still count, never be dropped).
    if (id === undefined)
      tools.push({ ...toolOf(child), id: `unnamed-${String(tools.length + 1)}` });
    else if (roots.has(id)) tools.push(toolOf(child));
    else steps.push(readActivity(child));
  }
  const events = readEventSubProcesses(children, steps, flows);
  return { tools, steps, flows, ...(events.length === 0 ? {} : { eventSubProcesses: events }) };
}
