/**
 * What the approved model needs of a parsed BPMN document (bpmn-moddle's object tree, read
 * without depending on the BPMN module): the Zeebe element type each element's records carry,
 * and the workflow snapshots an agent task embeds.
 */
import type { AgentWorkflow } from "../model/index.js";
import { contentHash, parseWorkflowText } from "../model/index.js";

type Node = Readonly<Record<string, unknown>>;

const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null;

const listOf = (value: unknown): readonly Node[] =>
  Array.isArray(value) ? (value as unknown[]).filter(isNode) : [];

/**
 * Zeebe's `bpmnElementType` for each BPMN element type it runs (the protocol's
 * `BpmnElementType`, Camunda 8.10). A sub-process triggered by an event is `EVENT_SUB_PROCESS`.
 */
const ZEEBE_TYPES: Readonly<Record<string, string>> = {
  "bpmn:SubProcess": "SUB_PROCESS",
  "bpmn:AdHocSubProcess": "AD_HOC_SUB_PROCESS",
  "bpmn:StartEvent": "START_EVENT",
  "bpmn:IntermediateCatchEvent": "INTERMEDIATE_CATCH_EVENT",
  "bpmn:IntermediateThrowEvent": "INTERMEDIATE_THROW_EVENT",
  "bpmn:BoundaryEvent": "BOUNDARY_EVENT",
  "bpmn:EndEvent": "END_EVENT",
  "bpmn:ServiceTask": "SERVICE_TASK",
  "bpmn:ReceiveTask": "RECEIVE_TASK",
  "bpmn:UserTask": "USER_TASK",
  "bpmn:ManualTask": "MANUAL_TASK",
  "bpmn:Task": "TASK",
  "bpmn:ExclusiveGateway": "EXCLUSIVE_GATEWAY",
  "bpmn:ParallelGateway": "PARALLEL_GATEWAY",
  "bpmn:EventBasedGateway": "EVENT_BASED_GATEWAY",
  "bpmn:InclusiveGateway": "INCLUSIVE_GATEWAY",
  "bpmn:SequenceFlow": "SEQUENCE_FLOW",
  "bpmn:CallActivity": "CALL_ACTIVITY",
  "bpmn:BusinessRuleTask": "BUSINESS_RULE_TASK",
  "bpmn:ScriptTask": "SCRIPT_TASK",
  "bpmn:SendTask": "SEND_TASK",
};

/** The types one element's records may carry: its own, and those of the instances it holds. */
function typesOf(element: Node): string[] | undefined {
  const kind = element.$type;
  if (typeof kind !== "string") return undefined;
  const own =
    kind === "bpmn:SubProcess" && element.triggeredByEvent === true
      ? "EVENT_SUB_PROCESS"
      : ZEEBE_TYPES[kind];
  if (own === undefined) return undefined;
  const types = [own];
  // An ad-hoc sub-process runs its activated elements in inner instances of its own id.
  if (own === "AD_HOC_SUB_PROCESS") types.push("AD_HOC_SUB_PROCESS_INNER_INSTANCE");
  const loop = element.loopCharacteristics;
  if (isNode(loop) && loop.$type === "bpmn:MultiInstanceLoopCharacteristics") {
    types.push("MULTI_INSTANCE_BODY");
  }
  return types;
}

function* flowElements(container: Node): Generator<Node> {
  for (const element of listOf(container.flowElements)) {
    yield element;
    yield* flowElements(element);
  }
}

function* processesOf(definitions: unknown): Generator<Node> {
  if (!isNode(definitions)) return;
  for (const root of listOf(definitions.rootElements)) {
    if (root.$type === "bpmn:Process") yield root;
  }
}

/**
 * The Zeebe element types each element of the document's processes may carry in its records,
 * by element id; an element of a type Zeebe does not run is left out (not checked).
 */
export function zeebeElementTypes(definitions: unknown): Map<string, readonly string[]> {
  const types = new Map<string, readonly string[]>();
  for (const process of processesOf(definitions)) {
    for (const element of flowElements(process)) {
      const id = element.id;
      const found = typesOf(element);
      if (typeof id === "string" && found !== undefined) types.set(id, found);
    }
  }
  return types;
}

/** The texts of the workflow snapshots (`btv:agentWorkflowSnapshot`) element `elementId` embeds. */
function snapshotBodies(definitions: unknown, elementId: string): string[] {
  for (const process of processesOf(definitions)) {
    for (const element of flowElements(process)) {
      if (element.id !== elementId) continue;
      const extensions = element.extensionElements;
      const values = isNode(extensions) ? listOf(extensions.values) : [];
      return values.flatMap((value) => {
        const kind = typeof value.$type === "string" ? value.$type : "";
        if (!kind.toLowerCase().endsWith(":agentworkflowsnapshot")) return [];
        const body = value.body ?? value.$body;
        return typeof body === "string" ? [body] : [];
      });
    }
  }
  return [];
}

/**
 * The workflow snapshot element `elementId` embeds whose content hash is `hash` (the one the
 * review recorded): the workflow approved for the task, when the registry had none.
 */
export function embeddedWorkflow(
  definitions: unknown,
  elementId: string,
  hash: string,
): AgentWorkflow | undefined {
  for (const body of snapshotBodies(definitions, elementId)) {
    const { workflow } = parseWorkflowText(body);
    if (workflow !== undefined && contentHash(workflow) === hash) return workflow;
  }
  return undefined;
}
