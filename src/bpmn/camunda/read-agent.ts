/**
 * Reading a Camunda AI agent from the moddle tree: the element's template, job type, provider,
 * model, system prompt (hashed), limits, and its tool container's tools. Both variants: the AI
 * Agent sub-process (an ad-hoc sub-process whose children are the tools) and the AI Agent task
 * (its tools are the children of the ad-hoc sub-process its `data.tools.containerElementId`
 * names). External agents and A2A clients have nothing to read and are not derived.
 */
import { sha256 } from "../../model/index.js";
import type { ModdleObject } from "../moddle.js";
import { idOf, stringProp } from "../moddle.js";
import type { ContainerContent } from "./read-tools.js";
import { readContainer } from "./read-tools.js";
import type { CamundaAgent, CamundaLimit, CamundaLimits, CamundaToolContainer } from "./types.js";
import { agentTypeOf, jobTypeOf, templateOf, zeebeHeaders, zeebeInputs } from "./zeebe.js";

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

function limit(inputs: ReadonlyMap<string, string>, targets: readonly string[]) {
  for (const input of targets) {
    const source = inputs.get(input);
    if (source === undefined) continue;
    const value = staticInteger(source);
    const out: CamundaLimit = { input, source, ...(value === undefined ? {} : { value }) };
    return out;
  }
  return undefined;
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

function modelAndTokens(inputs: ReadonlyMap<string, string>): {
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
  const tokens = limit(inputs, targets);
  return {
    provider: name,
    ...(model === undefined || model === "" ? {} : { model }),
    ...(tokens === undefined ? {} : { tokens }),
  };
}

/** The container id a task names: static text or a FEEL string literal; else why not. */
function namedContainer(source: string): { id: string } | { problem: string } {
  const text = source.trim();
  if (!text.startsWith("=")) return { id: text };
  const literal = /^=\s*"([^"\\]*)"\s*$/.exec(text);
  if (literal?.[1] !== undefined) return { id: literal[1] };
  return { problem: `the container id is the FEEL expression '${text}', which cannot be read` };
}

function containerOf(
  element: ModdleObject,
  variant: CamundaAgent["variant"],
  inputs: ReadonlyMap<string, string>,
  lookup: ContainerLookup,
): { container?: CamundaToolContainer; content?: ContainerContent } {
  const own = idOf(element) ?? "";
  if (variant === "sub-process") {
    return { container: { id: own, found: true }, content: lookup.read(element) };
  }
  const source = inputs.get("data.tools.containerElementId");
  if (source === undefined || source.trim() === "") return {};
  const named = namedContainer(source);
  if ("problem" in named) {
    return { container: { id: source.trim(), found: false, problem: named.problem } };
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
 * template or job type identifies (the engine would reject it; its kind is unknown).
 */
export function isOpaqueAgent(element: ModdleObject, values: readonly ModdleObject[]): boolean {
  const agentType = agentTypeOf(values);
  if (agentType === "external") return true;
  const template = templateOf(element, zeebeHeaders(values)).id;
  if (template?.startsWith(A2A_TEMPLATE) === true) return true;
  const jobType = jobTypeOf(values) ?? "";
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
  const inputs = zeebeInputs(values);
  const template = templateOf(element, zeebeHeaders(values));
  const jobType = jobTypeOf(values);
  const variant = element.$type === "bpmn:AdHocSubProcess" ? "sub-process" : "task";
  const { provider, model, tokens } = modelAndTokens(inputs);
  const prompt = inputs.get("data.systemPrompt.prompt");
  const calls = limit(inputs, ["data.limits.maxModelCalls", "data.guardrails.maxModelCalls"]);
  const limits: CamundaLimits = {
    ...(calls === undefined ? {} : { maxModelCalls: calls }),
    ...(tokens === undefined ? {} : { maxTokensPerResponse: tokens }),
  };
  const { container, content } = containerOf(element, variant, inputs, lookup);
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
  };
}
