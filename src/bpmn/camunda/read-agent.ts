/**
 * Reading a Camunda AI agent from the moddle tree: the element's template, job type, provider,
 * model, system prompt (hashed), limits, and its tool container's tools. Both variants: the AI
 * Agent sub-process (an ad-hoc sub-process whose children are the tools) and the AI Agent task
 * (its tools are the children of the ad-hoc sub-process its `data.tools.containerElementId`
 * names). External agents and A2A clients have nothing to read and are not derived.
 */
import { sha256 } from "../../model/index.js";
import type { JobTypeReading } from "../camunda-agents.js";
import type { ModdleObject } from "../moddle.js";
import { idOf, stringProp } from "../moddle.js";
import type { ContainerContent } from "./read-tools.js";
import { readContainer } from "./read-tools.js";
import type { CamundaAgent, CamundaLimit, CamundaLimits, CamundaToolContainer } from "./types.js";
import { staticText } from "./static-text.js";
import type { FieldSource, TemplateRef } from "./zeebe.js";
import { isOpaqueAgent } from "./opaque.js";
import { fieldSource, jobTypeReading, templateOf, zeebeHeaders, zeebeInputList } from "./zeebe.js";

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

/**
 * What the mappings give `field`, as written: its own source, or its entry in a context literal
 * (`=<entry>`); `null` when it lies in an object input that cannot be split (it may hold
 * anything); `undefined` when no mapping gives it. Read with {@link fieldSource}, as every field.
 */
function written(mappings: Mappings, field: string): string | null | undefined {
  const found = fieldSource(mappings, field);
  return found === undefined ? undefined : (found.field ?? null);
}

/** A provider: its name (static text decoded, FEEL as written) and the binding prefix, if known. */
interface Provider {
  readonly name?: string;
  readonly prefix?: string;
  /** True when `provider.type` lies in an object that cannot be read: any provider may run. */
  readonly unread?: boolean;
}

/** The provider and the binding prefix its model is read under. */
function providerOf(mappings: Mappings): Provider {
  const type = written(mappings, "provider.type");
  if (type === null) return { unread: true };
  if (type !== undefined && type !== "") {
    const text = staticText(type);
    // A FEEL provider is chosen at run time: shown as written, with no binding to read.
    if (text === undefined) return { name: type };
    return { name: text, prefix: PREFIX_OF[text] ?? text };
  }
  // No provider.type: the provider whose model binding is present, if exactly one is.
  const present = Object.keys(PROVIDERS).filter(
    (p) => written(mappings, `provider.${p}.model.model`) !== undefined,
  );
  const only = present.length === 1 ? present[0] : undefined;
  return only === undefined ? {} : { name: only, prefix: only };
}

/** A model as written; none for an empty one or one that cannot be read (an unknown model). */
const modelOf = (text: string | null | undefined): { model?: string } =>
  text === undefined || text === null || text === "" ? {} : { model: text };

function modelAndTokens(mappings: Mappings): {
  provider?: string;
  model?: string;
  tokens?: CamundaLimit;
} {
  const { name, prefix, unread } = providerOf(mappings);
  if (unread === true) return {};
  const custom = written(mappings, "provider.model");
  if (name === "custom" || (name === undefined && custom !== undefined)) {
    const type = written(mappings, "provider.providerType");
    const shown = type === undefined || type === null || type === "" ? undefined : type;
    return {
      provider: shown === undefined ? (name ?? "custom") : `custom:${staticText(shown) ?? shown}`,
      ...modelOf(custom),
    };
  }
  if (name === undefined) return {};
  const binding = prefix === undefined ? undefined : PROVIDERS[prefix];
  if (binding === undefined) return { provider: name };
  const model = written(mappings, `provider.${prefix ?? ""}.${binding.model}`);
  const targets = binding.tokens.map((t) => `provider.${prefix ?? ""}.model.parameters.${t}`);
  const tokens = limit(mappings, targets);
  return {
    provider: name,
    ...modelOf(model),
    ...(tokens === undefined ? {} : { tokens }),
  };
}

/**
 * The text the system prompt's hash is taken of: its own source as written, or its entry in a
 * context literal; in an object that cannot be split, that object's source (what gives it).
 */
function promptText(mappings: Mappings): string | undefined {
  const found = fieldSource(mappings, "data.systemPrompt.prompt");
  return found === undefined ? undefined : (found.field ?? found.source);
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

/** Reads the agent; `undefined` for an opaque one ({@link isOpaqueAgent}). */
export function readCamundaAgent(
  element: ModdleObject,
  values: readonly ModdleObject[],
  lookup: ContainerLookup,
): CamundaAgent | undefined {
  if (isOpaqueAgent(element, values)) return undefined;
  const mappings = zeebeInputList(values);
  const template = templateOf(element, zeebeHeaders(values));
  const reading = jobTypeReading(values);
  const jobType = reading?.type;
  const variant = element.$type === "bpmn:AdHocSubProcess" ? "sub-process" : "task";
  const { provider, model, tokens } = modelAndTokens(mappings);
  const prompt = promptText(mappings);
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
