/**
 * Camunda 8's AI agents, recognised by what a modeller leaves in the XML: the element template
 * an element was made from, the job type its `zeebe:taskDefinition` names (kept when a modeller
 * unlinks the template), the `zeebe:agentDefinition` element, or the tool-container property.
 * The lists come from the element templates Camunda publishes for its agentic-ai connectors
 * (`connectors/agentic-ai/.../element-templates` in camunda/connectors, versions 0 to 11 and v2).
 * Only the agents are listed: the MCP clients, the ad-hoc tools schema resolver and the sandbox
 * are tools an agent calls, and the A2A inbound events wait for an answer; none of them decides.
 * Of Camunda's other connectors (camunda/connectors at 9b30630f) one runs an agent: AWS Bedrock
 * AgentCore Runtime ("Invoke an external agent running in AWS Bedrock AgentCore Runtime"). Its
 * siblings are not agents: AgentCore Long-Term Memory reads a memory store, the Bedrock Code
 * Interpreter runs code in a sandbox, the Knowledge Base retrieves documents, and Bedrock,
 * OpenAI, Azure OpenAI, Gemini and SageMaker make one model call each.
 */
import type { ModdleObject } from "./moddle.js";
import { genericChildren, listProp, stringProp } from "./moddle.js";
import { staticText } from "./camunda/static-text.js";
import { isZeebe, modelerTemplate } from "./zeebe-names.js";

/**
 * Element-template ids of the connectors that hand the work to an agent running elsewhere, as
 * prefixes: the A2A client, and AWS Bedrock AgentCore Runtime (`…agentcore.runtime.v1`, and its
 * `-hybrid` copy). Nothing in the BPMN describes that agent: it is not derived.
 */
export const CAMUNDA_REMOTE_AGENT_TEMPLATES: readonly string[] = [
  "io.camunda.connectors.agenticai.a2a.client.v",
  "io.camunda.connectors.aws.bedrock.agentcore.runtime.v",
];

/** Job types of the same connectors, as prefixes: `a2aclient:0`, `aws-bedrock-agentcore-runtime:1`. */
export const CAMUNDA_REMOTE_AGENT_JOB_TYPES: readonly string[] = [
  "io.camunda.agenticai:a2aclient:",
  "io.camunda:aws-bedrock-agentcore-runtime:",
];

/**
 * Element-template ids of Camunda's agents, as prefixes: the AI Agent task and sub-process (v0,
 * v1, the job worker, v2), and the connectors that run a remote agent
 * (`CAMUNDA_REMOTE_AGENT_TEMPLATES`).
 */
export const CAMUNDA_AGENT_TEMPLATES: readonly string[] = [
  "io.camunda.connectors.agenticai.aiagent.",
  "io.camunda.connectors.agenticai.ai-agent-task.",
  "io.camunda.connectors.agenticai.ai-agent-subprocess.",
  ...CAMUNDA_REMOTE_AGENT_TEMPLATES,
];

/**
 * Job types (`zeebe:taskDefinition type`) of the same agents, as prefixes: `aiagent:1` (the AI
 * Agent task), `aiagent-job-worker:1` (the AI Agent sub-process), `aiagent:task:2` and
 * `aiagent:subprocess:2` (v2), and the remote agents' (`CAMUNDA_REMOTE_AGENT_JOB_TYPES`).
 */
export const CAMUNDA_AGENT_JOB_TYPES: readonly string[] = [
  "io.camunda.agenticai:aiagent:",
  "io.camunda.agenticai:aiagent-job-worker:",
  ...CAMUNDA_REMOTE_AGENT_JOB_TYPES,
];

/** The Zeebe property that marks an ad-hoc sub-process as an AI agent's tool container. */
export const CAMUNDA_TOOL_CONTAINER_PROPERTY = "io.camunda.agenticai.toolContainer";

function zeebePropertyNames(properties: ModdleObject): string[] {
  const typed = listProp(properties, "properties");
  const items = typed.length > 0 ? typed : genericChildren(properties);
  return items.flatMap((p) => {
    const name = stringProp(p, "name");
    return name === undefined ? [] : [name];
  });
}

/** The `elementTemplateId` task header connectors write beside the template attributes. */
function templateHeader(values: readonly ModdleObject[]): string | undefined {
  for (const value of values) {
    if (!isZeebe(value, "taskheaders")) continue;
    const typed = listProp(value, "values");
    for (const header of typed.length > 0 ? typed : genericChildren(value)) {
      if (stringProp(header, "key") === "elementTemplateId") return stringProp(header, "value");
    }
  }
  return undefined;
}

/** A job type as the engine will read it. */
export interface JobTypeReading {
  /** The job type, trimmed: static text, or a FEEL string literal decoded; else as written. */
  readonly type: string;
  /** True when it is FEEL other than one string literal: its value is known only at run time. */
  readonly expression: boolean;
}

/**
 * Reads a `zeebe:taskDefinition type`: Zeebe evaluates a type that starts with `=` as FEEL, so
 * `="io.camunda.agenticai:aiagent:1"` runs the AI Agent as surely as the plain text does.
 */
export function readJobType(raw: string): JobTypeReading {
  const text = raw.trim();
  const value = staticText(text);
  return value === undefined
    ? { type: text, expression: true }
    : { type: value.trim(), expression: false };
}

const startsWithAny = (text: string, prefixes: readonly string[]): boolean =>
  prefixes.some((prefix) => text.startsWith(prefix));

/**
 * What marks the element as a Camunda agent (the template id, the job type, or the marker
 * element's name), or `undefined` for an ordinary element. A job type written as FEEL other
 * than one string literal marks it too: what it evaluates to is known only at run time, and it
 * may be an agent's.
 */
export function camundaAgentMarker(
  element: ModdleObject,
  values: readonly ModdleObject[],
): string | undefined {
  // An unlinked (or hybrid) template leaves its id in a task header: still the same agent.
  const template = modelerTemplate(element) ?? templateHeader(values);
  if (template !== undefined && startsWithAny(template, CAMUNDA_AGENT_TEMPLATES)) return template;
  for (const value of values) {
    if (isZeebe(value, "agentdefinition")) return "zeebe:agentDefinition";
    if (isZeebe(value, "taskdefinition")) {
      const type = stringProp(value, "type");
      const reading = type === undefined ? undefined : readJobType(type);
      // A FEEL job type may name an agent's at run time: the element may be one (fail closed).
      if (reading?.expression === true) return type;
      if (type !== undefined && startsWithAny(reading?.type ?? "", CAMUNDA_AGENT_JOB_TYPES)) {
        return type;
      }
    }
    if (
      isZeebe(value, "properties") &&
      zeebePropertyNames(value).includes(CAMUNDA_TOOL_CONTAINER_PROPERTY)
    ) {
      return CAMUNDA_TOOL_CONTAINER_PROPERTY;
    }
  }
  return undefined;
}
