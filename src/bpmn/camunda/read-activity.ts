/**
 * One element of a tool container as plain data: its type, template, job type, inputs and
 * properties, its `btv:toolEffect`, and its nature (what decides its effect when no mapping does).
 */
import type { ModdleObject } from "../moddle.js";
import { extensionValues, idOf, listProp, stringProp } from "../moddle.js";
import type { ActivityNature, CamundaActivity } from "./types.js";
import {
  jobTypeOf,
  scriptExpressionOf,
  templateOf,
  zeebeHeaders,
  zeebeInputs,
  zeebeProperties,
  zeebeValue,
} from "./zeebe.js";

/** The zeebe property that makes a tool an MCP or A2A gateway (several tools at run time). */
export const GATEWAY_PROPERTY = "io.camunda.agenticai.gateway.type";

const PASS_THROUGH_TYPES = new Set([
  "bpmn:Task",
  "bpmn:ManualTask",
  "bpmn:ReceiveTask",
  "bpmn:IntermediateCatchEvent",
  "bpmn:ExclusiveGateway",
  "bpmn:InclusiveGateway",
  "bpmn:ParallelGateway",
  "bpmn:EventBasedGateway",
  "bpmn:ComplexGateway",
  "bpmn:BoundaryEvent",
  "bpmn:StartEvent",
]);

/** Event definitions a throw event may carry and still only route inside the process. */
const ROUTING_THROWS = new Set([
  "bpmn:LinkEventDefinition",
  "bpmn:ErrorEventDefinition",
  "bpmn:EscalationEventDefinition",
  "bpmn:TerminateEventDefinition",
  "bpmn:CompensateEventDefinition",
]);

function isRoutingThrow(element: ModdleObject): boolean {
  const type = element.$type;
  if (type !== "bpmn:IntermediateThrowEvent" && type !== "bpmn:EndEvent") return false;
  return listProp(element, "eventDefinitions").every((d) => ROUTING_THROWS.has(d.$type));
}

function natureOf(
  element: ModdleObject,
  values: readonly ModdleObject[],
  jobType: string | undefined,
  properties: Readonly<Record<string, string>>,
): ActivityNature {
  const type = element.$type;
  if (Object.hasOwn(properties, GATEWAY_PROPERTY)) return "gateway";
  // Zeebe honours <zeebe:userTask/> on a user task only: elsewhere it makes no person of a job.
  if (type === "bpmn:UserTask") return "user-task";
  if (jobType !== undefined && jobType !== "") return "connector";
  if (type === "bpmn:ScriptTask" && scriptExpressionOf(values) !== undefined) return "engine";
  if (type === "bpmn:BusinessRuleTask" && zeebeValue(values, "calleddecision") !== undefined) {
    return "engine";
  }
  if (type === "bpmn:CallActivity") return "call-activity";
  if (type === "bpmn:SubProcess" || type === "bpmn:AdHocSubProcess") return "sub-process";
  if (type === "bpmn:Transaction") return "sub-process";
  if (PASS_THROUGH_TYPES.has(type) || isRoutingThrow(element)) return "pass-through";
  return "other";
}

/** Reads one element; `values` are its extension values when the caller has them. */
export function readActivity(
  element: ModdleObject,
  values: readonly ModdleObject[] = extensionValues(element),
): CamundaActivity {
  const headers = zeebeHeaders(values);
  const template = templateOf(element, headers);
  const jobType = jobTypeOf(values);
  const properties = zeebeProperties(values);
  const btvToolEffect = stringProp(element, "toolEffect");
  return {
    id: idOf(element) ?? "",
    elementType: element.$type,
    ...(template.id === undefined ? {} : { templateId: template.id }),
    ...(template.version === undefined ? {} : { templateVersion: template.version }),
    ...(jobType === undefined || jobType === "" ? {} : { jobType }),
    inputs: Object.fromEntries(zeebeInputs(values)),
    properties,
    ...(btvToolEffect === undefined ? {} : { btvToolEffect }),
    nature: natureOf(element, values, jobType, properties),
  };
}
