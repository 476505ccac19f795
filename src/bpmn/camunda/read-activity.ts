/**
 * One element of a tool container as plain data: its type, template, job type, inputs and
 * properties, its `btv:toolEffect`, its nature (what decides its effect when no mapping does),
 * and the other jobs the engine runs for it (listeners, an inbound connector).
 */
import type { ModdleObject } from "../moddle.js";
import { extensionValues, idOf, listProp, stringProp } from "../moddle.js";
import type { ActivityNature, CamundaActivity } from "./types.js";
import type { JobTypeReading } from "../camunda-agents.js";
import { GATEWAY_JOB_TYPES, GATEWAY_PROPERTY } from "./gateways.js";
import {
  boolProp,
  inboundJob,
  jobTypeReading,
  listenerJobs,
  scriptExpressionOf,
  templateOf,
  zeebeHeaders,
  zeebeInputList,
  zeebeProperties,
  zeebeValue,
} from "./zeebe.js";

// One name for the marker, where the tools are read.
export { GATEWAY_PROPERTY };

/** True when the job type is one of the connectors that act as the `marker` gateway. */
function bearsOut(marker: string, jobType: JobTypeReading | undefined): boolean {
  if (jobType === undefined || jobType.expression) return false;
  const types = Object.hasOwn(GATEWAY_JOB_TYPES, marker) ? GATEWAY_JOB_TYPES[marker] : undefined;
  return types?.includes(jobType.type) === true;
}

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
  reading: JobTypeReading | undefined,
  properties: Readonly<Record<string, string>>,
): ActivityNature {
  const type = element.$type;
  const marker = Object.hasOwn(properties, GATEWAY_PROPERTY)
    ? properties[GATEWAY_PROPERTY]
    : undefined;
  // A marker the job type does not bear out makes no gateway (the effects say why).
  if (marker !== undefined && bearsOut(marker, reading)) return "gateway";
  // Zeebe honours <zeebe:userTask/> on a user task only: elsewhere it makes no person of a job.
  if (type === "bpmn:UserTask") return "user-task";
  if (reading !== undefined && reading.type !== "") return "connector";
  if (type === "bpmn:ScriptTask" && scriptExpressionOf(values) !== undefined) return "engine";
  if (type === "bpmn:BusinessRuleTask" && zeebeValue(values, "calleddecision") !== undefined) {
    return "engine";
  }
  if (type === "bpmn:CallActivity") return "call-activity";
  if (type === "bpmn:SubProcess" && boolProp(element, "triggeredByEvent")) {
    return "event-sub-process";
  }
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
  const reading = jobTypeReading(values);
  const jobType = reading?.type;
  const properties = zeebeProperties(values);
  const btvToolEffect = stringProp(element, "toolEffect");
  const inbound = inboundJob(properties);
  const inputMappings = zeebeInputList(values);
  const jobs = [...listenerJobs(values), ...(inbound === undefined ? [] : [inbound])];
  return {
    id: idOf(element) ?? "",
    elementType: element.$type,
    ...(template.id === undefined ? {} : { templateId: template.id }),
    ...(template.version === undefined ? {} : { templateVersion: template.version }),
    ...(jobType === undefined || jobType === "" ? {} : { jobType }),
    inputs: Object.fromEntries(inputMappings),
    inputMappings,
    properties,
    ...(btvToolEffect === undefined ? {} : { btvToolEffect }),
    nature: natureOf(element, values, reading, properties),
    ...(jobs.length === 0 ? {} : { jobs }),
  };
}
