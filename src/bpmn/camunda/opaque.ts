/**
 * The Camunda agents agentflow cannot derive, and the attribute that makes each one: an external
 * agent, an A2A client or AWS Bedrock AgentCore Runtime (a remote agent), a `zeebe:agentDefinition` of no known kind, a FEEL job type, and an ad-hoc
 * sub-process whose elements something the BPMN does not describe activates at run time (a job
 * worker of its own, or an `activeElementsCollection` read from variables). Nothing in the BPMN
 * says what such an agent decides, so the `camundaAgents` policy governs it; the attribute is what
 * the findings name (docs/bpmn.md, "What is recognised").
 */
import {
  CAMUNDA_AGENT_TEMPLATES,
  CAMUNDA_REMOTE_AGENT_JOB_TYPES,
  CAMUNDA_REMOTE_AGENT_TEMPLATES,
  CAMUNDA_TOOL_CONTAINER_PROPERTY,
} from "../camunda-agents.js";
import type { ModdleObject } from "../moddle.js";
import { stringProp } from "../moddle.js";
import { modelerTemplate } from "../zeebe-names.js";
import { feelStringList } from "./feel-context.js";
import {
  agentTypeOf,
  jobTypeReading,
  templateOf,
  zeebeHeaders,
  zeebeProperties,
  zeebeValue,
} from "./zeebe.js";

const startsWithAny = (text: string | undefined, prefixes: readonly string[]): boolean =>
  text !== undefined && prefixes.some((prefix) => text.startsWith(prefix));
const AI_AGENT_TYPES = new Set(["aiAgentTask", "aiAgentSubProcess"]);
const AI_AGENT_JOB_TYPES = [
  "io.camunda.agenticai:aiagent:",
  "io.camunda.agenticai:aiagent-job-worker:",
];

/** The attribute, as the XML holds it, that names a template: the element's own or a header. */
function templateAttribute(element: ModdleObject, id: string): string {
  return modelerTemplate(element) === id
    ? `zeebe:modelerTemplate="${id}"`
    : `zeebe:header elementTemplateId="${id}"`;
}

const taskDefinition = (type: string): string => `zeebe:taskDefinition type="${type}"`;

/**
 * The `activeElementsCollection` of an ad-hoc sub-process when it is read at run time: anything
 * but a FEEL list of string literals (`=["Refund", "Notify"]`, which names the elements in the
 * BPMN itself). `undefined` when there is none, or it is such a list.
 */
export function runTimeCollection(values: readonly ModdleObject[]): string | undefined {
  const adHoc = zeebeValue(values, "adhoc");
  const raw = adHoc === undefined ? undefined : stringProp(adHoc, "activeElementsCollection");
  const text = raw?.trim() ?? "";
  if (text === "") return undefined;
  const fixed = text.startsWith("=") && feelStringList(text.slice(1)) !== undefined;
  return fixed ? undefined : text;
}

/**
 * What drives an ad-hoc sub-process that no AI Agent identifies (template, job type, `agentType`)
 * from outside the BPMN: a job worker of its own (`zeebe:taskDefinition`), which decides which
 * elements to activate and when the sub-process completes, or, without one and without the
 * tool-container property (an AI agent's container, read as one), an `activeElementsCollection`
 * read at run time. `undefined` when neither does: its elements are then activated by a fixed
 * list, or through Zeebe's API by a client, as any process instance is driven from outside.
 */
function adHocDriver(
  element: ModdleObject,
  values: readonly ModdleObject[],
  identified: boolean,
): string | undefined {
  if (element.$type !== "bpmn:AdHocSubProcess" || identified) return undefined;
  const definition = zeebeValue(values, "taskdefinition");
  const type = definition === undefined ? undefined : stringProp(definition, "type");
  if (type !== undefined) return taskDefinition(type.trim());
  if (Object.hasOwn(zeebeProperties(values), CAMUNDA_TOOL_CONTAINER_PROPERTY)) return undefined;
  const collection = runTimeCollection(values);
  return collection === undefined
    ? undefined
    : `zeebe:adHoc activeElementsCollection="${collection}"`;
}

/**
 * The attribute that makes the element a Camunda agent with nothing in the BPMN to derive a
 * workflow from, or `undefined` when agentflow reads it: an external agent
 * (`zeebe:agentDefinition agentType="external"`), a remote agent's connector (the A2A client, AWS
 * Bedrock AgentCore Runtime), a `zeebe:agentDefinition` whose
 * `agentType` is missing or unknown on an element that no AI Agent template or job type
 * identifies (the engine would reject it; its kind is unknown), a job type written as FEEL other
 * than a string literal that no AI Agent template or `agentType` backs (what runs is decided at
 * run time), or an ad-hoc sub-process that no AI Agent identifies and whose elements a job worker
 * of its own or a run-time `activeElementsCollection` activates.
 */
export function opaqueMarker(
  element: ModdleObject,
  values: readonly ModdleObject[],
): string | undefined {
  const agentType = agentTypeOf(values);
  if (agentType === "external") return 'zeebe:agentDefinition agentType="external"';
  const template = templateOf(element, zeebeHeaders(values)).id;
  if (template !== undefined && startsWithAny(template, CAMUNDA_REMOTE_AGENT_TEMPLATES))
    return templateAttribute(element, template);
  const aiTemplate = CAMUNDA_AGENT_TEMPLATES.some(
    (prefix) => template?.startsWith(prefix) === true,
  );
  const reading = jobTypeReading(values);
  if (reading?.expression === true) {
    // The job type is known at run time only: it may run any agent. Read it as an AI Agent
    // only where its template or marker says it is one.
    const backed = agentType === undefined ? aiTemplate : AI_AGENT_TYPES.has(agentType);
    return backed ? undefined : taskDefinition(reading.type);
  }
  const jobType = reading?.type ?? "";
  if (startsWithAny(jobType, CAMUNDA_REMOTE_AGENT_JOB_TYPES)) return taskDefinition(jobType);
  const aiJobType = AI_AGENT_JOB_TYPES.some((prefix) => jobType.startsWith(prefix));
  const aiType = agentType !== undefined && AI_AGENT_TYPES.has(agentType);
  const driver = adHocDriver(element, values, aiTemplate || aiJobType || aiType);
  if (driver !== undefined) return driver;
  if (agentType === undefined || aiType) return undefined;
  const identified = template?.startsWith("io.camunda.connectors.agenticai.") === true || aiJobType;
  if (identified) return undefined;
  return agentType === ""
    ? "zeebe:agentDefinition"
    : `zeebe:agentDefinition agentType="${agentType}"`;
}

/**
 * True when the element is a Camunda agent with nothing in the BPMN to derive a workflow from
 * ({@link opaqueMarker} says which attribute makes it one).
 */
export function isOpaqueAgent(element: ModdleObject, values: readonly ModdleObject[]): boolean {
  return opaqueMarker(element, values) !== undefined;
}
