/**
 * The tools of a tool container, as Camunda resolves them: the container's flow nodes with no
 * incoming sequence flow, except boundary events and event sub-processes. What a tool's
 * sequence flows lead to inside the container (and the boundary events of those elements) is
 * the tool's own sub-flow: kept as steps and flows, so its effects count for the tool.
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
    fromAi: fromAiParameters(Object.values(activity.inputs)),
    ...(gateway === undefined ? {} : { gateway }),
  };
}

/**
 * Reads a container's tools, steps and inner flows. Linear in the container's direct children;
 * nested sub-processes are not entered (a sub-process tool's effect is mapped as a whole).
 */
export function readContainer(container: ModdleObject): ContainerContent {
  const children = listProp(container, "flowElements");
  const flows: (readonly [string, string])[] = [];
  const targets = new Set<string>();
  for (const child of children) {
    if (child.$type === "bpmn:SequenceFlow") {
      const from = refId(child, "sourceRef");
      const to = refId(child, "targetRef");
      if (to !== undefined) targets.add(to);
      if (from !== undefined && to !== undefined) flows.push([from, to]);
    } else if (child.$type === "bpmn:BoundaryEvent") {
      const host = refId(child, "attachedToRef");
      const id = idOf(child);
      if (host !== undefined && id !== undefined) flows.push([host, id]);
    }
  }
  const tools: CamundaTool[] = [];
  const steps: CamundaActivity[] = [];
  for (const child of children) {
    if (!isFlowNode(child)) continue;
    if (child.$type === "bpmn:SubProcess" && boolProp(child, "triggeredByEvent")) continue;
    const id = idOf(child);
    // An element without an id can be no flow's target, so it is a root: a tool the model may
    // call (Camunda would not deploy it, but what it does must still count, never be dropped).
    const root = child.$type !== "bpmn:BoundaryEvent" && (id === undefined || !targets.has(id));
    if (!root) steps.push(readActivity(child));
    else if (id !== undefined) tools.push(toolOf(child));
    else tools.push({ ...toolOf(child), id: `unnamed-${String(tools.length + 1)}` });
  }
  return { tools, steps, flows };
}
