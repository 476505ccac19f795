/**
 * Reading a Camunda AI agent from the moddle tree: the element's template, job type, provider,
 * model, system prompt (hashed), limits, and its tool container's tools. Both variants: the AI
 * Agent sub-process (an ad-hoc sub-process whose children are the tools) and the AI Agent task
 * (its tools are the children of the ad-hoc sub-process its `data.tools.containerElementId`
 * names). External agents and A2A clients have nothing to read and are not derived.
 */
import { sha256 } from "../../model/index.js";
import type { JobTypeReading } from "../camunda-agents.js";
import { CAMUNDA_AGENT_TEMPLATES } from "../camunda-agents.js";
import type { ModdleObject } from "../moddle.js";
import { idOf, stringProp } from "../moddle.js";
import type { ContainerContent } from "./read-tools.js";
import { readContainer } from "./read-tools.js";
import type { CamundaAgent, CamundaLimit, CamundaLimits, CamundaToolContainer } from "./types.js";
import { staticText } from "./static-text.js";
import type { FieldSource, TemplateRef } from "./zeebe.js";
import {
  agentTypeOf,
  fieldSource,
  jobTypeReading,
  templateOf,
  zeebeHeaders,
  zeebeInputList,
} from "./zeebe.js";

/** Finds an ad-hoc sub-process by id, and reads each container once. */
export interface ContainerLookup {
  readonly find: (id: string) => ModdleObject | undefined;
  readonly read: (container: ModdleObject) => ContainerContent;
}

/** A lookup over these ad-hoc sub-processes, caching each container's reading. */
export function containerLookup(adHoc: ReadonlyMap<string, ModdleObject>): ContainerLookup {
  const cache = new Map<ModdleObject, ContainerContent>();
  return {
    find: (id) => adHoc.get(id),
    read: (container) => {
      let content = cache.get(container);
      if (content === undefined) {
        content = readContainer(container);
        cache.set(container, content);
      }
      return content;
    },
  };
}

const A2A_TEMPLATE = "io.camunda.connectors.agenticai.a2a.client.v";
const A2A_JOB_TYPE = "io.camunda.agenticai:a2aclient:";
/** The alpha AI Agent (template version 0), the one connector with `data.guardrails`. */
const V0_TEMPLATE = "io.camunda.connectors.agenticai.aiagent.v0";
const V0_JOB_TYPE = "io.camunda.agenticai:aiagent:0";

/** The per-provider model binding and per-response token limit binding(s). */
const PROVIDERS: Readonly<Record<string, { model: string; tokens: readonly string[] }>> = {
  anthropic: { model: "model.model", tokens: ["maxTokens", "maxOutputTokens"] },
  bedrock: { model: "model.model", tokens: ["maxTokens", "maxOutputTokens"] },
  azureOpenAi: { model: "model.deploymentName", tokens: ["maxTokens"] },
  googleVertexAi: { model: "model.model", tokens: ["maxOutputTokens"] },
  openai: { model: "model.model", tokens: ["maxCompletionTokens", "maxOutputTokens"] },
  openaiCompatible: { model: "model.model", tokens: ["maxCompletionTokens"] },
};

/** The binding prefix of a `provider.type` value (`google-vertex-ai` → `googleVertexAi`). */
const PREFIX_OF: Readonly<Record<string, string>> = { "google-vertex-ai": "googleVertexAi" };

/** A number written as `=10` (static FEEL) or `10`; anything else is not static. */
export function staticInteger(source: string): number | undefined {
  const text = source.trim().replace(/^=\s*/, "").trim();
  if (!/^\d{1,15}$/.test(text)) return undefined;
  return Number(text);
}

type Mappings = readonly (readonly [string, string])[];

/** The first of `fields` the mappings give, as a limit: static when its own source is a number. */
function limit(mappings: Mappings, fields: readonly string[]): CamundaLimit | undefined {
  for (const name of fields) {
    const found = fieldSource(mappings, name);
    if (found === undefined) continue;
    const value = found.field === undefined ? undefined : staticInteger(found.field);
    return { input: found.input, source: found.source, ...(value === undefined ? {} : { value }) };
  }
  return undefined;
}

/**
 * The input the running connector reads its maximum of model calls from: the alpha connector
 * (job type `…aiagent:0`, template `…aiagent.v0`) reads `data.guardrails.maxModelCalls`, every
 * later one `data.limits.maxModelCalls` and nothing else — a guardrails input left on a newer
 * agent bounds nothing. The job type decides (it names the connector that runs); the template
 * only when the job type is absent or cannot be read.
 */
function modelCallsField(jobType: JobTypeReading | undefined, template: TemplateRef): string {
  const known = jobType !== undefined && !jobType.expression && jobType.type !== "";
  const alpha = known
    ? jobType.type === V0_JOB_TYPE
    : template.id?.startsWith(V0_TEMPLATE) === true;
  return alpha ? "data.guardrails.maxModelCalls" : "data.limits.maxModelCalls";
}

/** The provider (as written) and the binding prefix its model is read under. */
function providerOf(inputs: ReadonlyMap<string, string>): { name?: string; prefix?: string } {
  const type = inputs.get("provider.type");
  if (type !== undefined && type !== "") {
    return { name: type, prefix: PREFIX_OF[type] ?? type };
  }
  // No provider.type: the provider whose model binding is present, if exactly one is.
  const present = Object.keys(PROVIDERS).filter((p) => inputs.has(`provider.${p}.model.model`));
  const only = present.length === 1 ? present[0] : undefined;
  return only === undefined ? {} : { name: only, prefix: only };
}

function modelAndTokens(
  inputs: ReadonlyMap<string, string>,
  mappings: Mappings,
): {
  provider?: string;
  model?: string;
  tokens?: CamundaLimit;
} {
  const { name, prefix } = providerOf(inputs);
  if (name === "custom" || (name === undefined && inputs.has("provider.model"))) {
    const model = inputs.get("provider.model");
    const custom = inputs.get("provider.providerType");
    return {
      provider: custom === undefined || custom === "" ? (name ?? "custom") : `custom:${custom}`,
      ...(model === undefined || model === "" ? {} : { model }),
    };
  }
  const binding = prefix === undefined ? undefined : PROVIDERS[prefix];
  if (name === undefined || prefix === undefined) return {};
  const model =
    binding === undefined ? undefined : inputs.get(`provider.${prefix}.${binding.model}`);
  const targets = (binding?.tokens ?? []).map((t) => `provider.${prefix}.model.parameters.${t}`);
  const tokens = limit(mappings, targets);
  return {
    provider: name,
    ...(model === undefined || model === "" ? {} : { model }),
    ...(tokens === undefined ? {} : { tokens }),
  };
}

/** The container id a task names: static text or a FEEL string literal; else why not. */
function namedContainer(found: FieldSource): { id: string } | { problem: string } {
  const text = found.field?.trim();
  const id = text === undefined ? undefined : staticText(text);
  if (id !== undefined) return { id: id.trim() };
  const problem =
    text === undefined
      ? `the container id is in the FEEL expression '${found.source.trim()}' given to ${found.input}, which cannot be read`
      : `the container id is the FEEL expression '${text}', which cannot be read`;
  return { problem };
}

function containerOf(
  element: ModdleObject,
  variant: CamundaAgent["variant"],
  mappings: Mappings,
  lookup: ContainerLookup,
): { container?: CamundaToolContainer; content?: ContainerContent } {
  const own = idOf(element) ?? "";
  if (variant === "sub-process") {
    return { container: { id: own, found: true }, content: lookup.read(element) };
  }
  const source = fieldSource(mappings, "data.tools.containerElementId");
  if (source === undefined || source.field?.trim() === "") return {};
  const named = namedContainer(source);
  if ("problem" in named) {
    const id = (source.field ?? source.source).trim();
    return { container: { id, found: false, problem: named.problem } };
  }
  const found = lookup.find(named.id);
  if (found === undefined) {
    const problem = `no ad-hoc sub-process "${named.id}" is in the definitions`;
    return { container: { id: named.id, found: false, problem } };
  }
  return { container: { id: named.id, found: true }, content: lookup.read(found) };
}

const AI_AGENT_TYPES = new Set(["aiAgentTask", "aiAgentSubProcess"]);
const AI_AGENT_JOB_TYPES = [
  "io.camunda.agenticai:aiagent:",
  "io.camunda.agenticai:aiagent-job-worker:",
];

/**
 * True when the element is a Camunda agent with nothing in the BPMN to derive a workflow from:
 * an external agent (`zeebe:agentDefinition agentType="external"`), an A2A client, or a
 * `zeebe:agentDefinition` whose `agentType` is missing or unknown on an element that no AI Agent
 * template or job type identifies (the engine would reject it; its kind is unknown), or a job
 * type written as FEEL other than a string literal that no AI Agent template or `agentType`
 * backs (what runs is decided at run time).
 */
export function isOpaqueAgent(element: ModdleObject, values: readonly ModdleObject[]): boolean {
  const agentType = agentTypeOf(values);
  if (agentType === "external") return true;
  const template = templateOf(element, zeebeHeaders(values)).id;
  if (template?.startsWith(A2A_TEMPLATE) === true) return true;
  const reading = jobTypeReading(values);
  if (reading?.expression === true) {
    // The job type is known at run time only: it may run any agent. Read it as an AI Agent
    // only where its template or marker says it is one.
    if (agentType !== undefined) return !AI_AGENT_TYPES.has(agentType);
    return !CAMUNDA_AGENT_TEMPLATES.some((prefix) => template?.startsWith(prefix) === true);
  }
  const jobType = reading?.type ?? "";
  if (jobType.startsWith(A2A_JOB_TYPE)) return true;
  if (agentType === undefined || AI_AGENT_TYPES.has(agentType)) return false;
  const identified =
    template?.startsWith("io.camunda.connectors.agenticai.") === true ||
    AI_AGENT_JOB_TYPES.some((prefix) => jobType.startsWith(prefix));
  return !identified;
}

/** Reads the agent; `undefined` for an opaque one ({@link isOpaqueAgent}). */
export function readCamundaAgent(
  element: ModdleObject,
  values: readonly ModdleObject[],
  lookup: ContainerLookup,
): CamundaAgent | undefined {
  if (isOpaqueAgent(element, values)) return undefined;
  const mappings = zeebeInputList(values);
  const inputs = new Map(mappings);
  const template = templateOf(element, zeebeHeaders(values));
  const reading = jobTypeReading(values);
  const jobType = reading?.type;
  const variant = element.$type === "bpmn:AdHocSubProcess" ? "sub-process" : "task";
  const { provider, model, tokens } = modelAndTokens(inputs, mappings);
  const prompt = inputs.get("data.systemPrompt.prompt");
  const calls = limit(mappings, [modelCallsField(reading, template)]);
  const limits: CamundaLimits = {
    ...(calls === undefined ? {} : { maxModelCalls: calls }),
    ...(tokens === undefined ? {} : { maxTokensPerResponse: tokens }),
  };
  const { container, content } = containerOf(element, variant, mappings, lookup);
  return {
    elementId: idOf(element) ?? "",
    name: stringProp(element, "name") ?? "",
    variant,
    ...(template.id === undefined ? {} : { templateId: template.id }),
    ...(template.version === undefined ? {} : { templateVersion: template.version }),
    ...(jobType === undefined || jobType === "" ? {} : { jobType }),
    ...(provider === undefined ? {} : { provider }),
    ...(model === undefined ? {} : { model }),
    ...(prompt === undefined ? {} : { systemPromptHash: `sha256:${sha256(prompt)}` }),
    limits,
    ...(container === undefined ? {} : { container }),
    tools: content?.tools ?? [],
    steps: content?.steps ?? [],
    flows: content?.flows ?? [],
    ...(content?.eventSubProcesses === undefined
      ? {}
      : { eventSubProcesses: content.eventSubProcesses }),
  };
}
