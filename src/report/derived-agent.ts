/**
 * A Camunda agent read from the BPMN (`AgentTaskSummary.derived`), as the rows every output shows:
 * its facts, each tool with its effect and where the effect came from, and the reasons for its
 * level. One structure feeds `agentflow gate`'s text, the Markdown and the HTML report, so the
 * three name the same facts in the same words.
 */
import type { AutonomyReason } from "../autonomy/index.js";
import type { DerivedAgent, EffectedTool } from "../bpmn/index.js";
import { visibleText } from "../model/index.js";

/** One fact of a derived agent: a label and its value as text. */
export interface DerivedFact {
  readonly label: string;
  readonly value: string;
}

/** One tool of a derived agent, as a row. */
export interface DerivedToolRow {
  readonly id: string;
  /** The element type, then the template (with version) or else the job type. */
  readonly kind: string;
  /** The effect, or `unknown` (which counts as needing a gate). */
  readonly effect: string;
  readonly source: EffectedTool["effectSource"];
  /** What matched (`btv:toolEffect`, a mapping or default key with its selector value). */
  readonly key: string | undefined;
  /** Where the effect came from, in words; for an unknown effect, why and how to map it. */
  readonly origin: string;
  /** A user task: a person the model may consult, never a gate. */
  readonly person: boolean;
  /** The element whose effect decided, when it is not the tool itself. */
  readonly decidedBy: string | undefined;
}

/** A reason for the derived level, in words: `level 3: branching-decision at Agent.next, A, B`. */
export function reasonText(reason: AutonomyReason): string {
  const at = reason.nodeIds.map(visibleText).join(", ") || `edges ${reason.edgeIndexes.join(", ")}`;
  return `level ${String(reason.level)}: ${reason.feature} at ${at}`;
}

function templateText(id: string | undefined, version: number | undefined): string | undefined {
  if (id === undefined) return undefined;
  return version === undefined ? id : `${id} v${String(version)}`;
}

/** The maximum of model calls as the outputs show it: the number, the FEEL kept, or unbounded. */
function callsText(agent: DerivedAgent): string {
  const calls = agent.limits.maxModelCalls;
  if (calls?.value !== undefined) return String(calls.value);
  if (calls !== undefined) return `unbounded ('${calls.source}' cannot be evaluated)`;
  return agent.tools.length === 0 && agent.container === undefined
    ? "none (no tools)"
    : "unbounded";
}

function originText(tool: EffectedTool): string {
  const key = tool.effectKey === undefined ? "" : ` ${tool.effectKey}`;
  switch (tool.effectSource) {
    case "btv":
      return "btv:toolEffect attribute";
    case "config":
      return `toolEffects mapping${key}`;
    case "default":
      return `agentflow default${key}`;
    case "unknown":
      return `unknown: ${tool.unknownReason ?? "nothing states its effect"}; map it with "toolEffects" in agentflow.config.json or btv:toolEffect on the element`;
  }
}

/**
 * Each tool of the agent as a row, in the agent's order. Internal to the outputs (not exported
 * from agentflow/report): the data is `AgentTaskSummary.derived`, this only words it.
 */
export function derivedToolRows(agent: DerivedAgent): DerivedToolRow[] {
  const people = new Set(agent.people);
  return agent.tools.map((tool) => {
    const kind = templateText(tool.templateId, tool.templateVersion) ?? tool.jobType;
    return {
      id: visibleText(tool.id),
      kind: kind === undefined ? tool.elementType : `${tool.elementType} ${visibleText(kind)}`,
      effect: tool.effect ?? "unknown",
      source: tool.effectSource,
      key: tool.effectKey,
      origin: originText(tool),
      person: people.has(tool.id),
      decidedBy: tool.decidedBy === tool.id ? undefined : visibleText(tool.decidedBy),
    };
  });
}

/**
 * The agent's facts, in a fixed order: element, variant, template, job type, provider and
 * model, prompt hash, limits, tool container, level. `hashLength` shortens the hashes.
 */
export function derivedAgentFacts(
  agent: DerivedAgent,
  options: { readonly hashLength?: number } = {},
): DerivedFact[] {
  const short = (h: string): string =>
    options.hashLength === undefined ? h : h.slice(0, options.hashLength);
  const name = agent.name === "" ? "" : ` "${visibleText(agent.name)}"`;
  const model = `${agent.provider ?? "unknown provider"} / ${agent.model ?? "unknown model"}`;
  const tokens = agent.limits.maxTokensPerResponse;
  const container = agent.container;
  const facts: DerivedFact[] = [
    { label: "element", value: `${visibleText(agent.elementId)}${name}` },
    { label: "variant", value: agent.variant },
    {
      label: "template",
      value: templateText(agent.templateId, agent.templateVersion) ?? "none",
    },
    { label: "job type", value: agent.jobType ?? "none" },
    { label: "model", value: model },
    {
      label: "system prompt",
      value: agent.systemPromptHash === undefined ? "none" : short(agent.systemPromptHash),
    },
    { label: "max model calls", value: callsText(agent) },
    {
      label: "max tokens per response",
      value: tokens === undefined ? "none" : (tokens.value?.toString() ?? `'${tokens.source}'`),
    },
    {
      label: "tool container",
      value:
        container === undefined
          ? "none"
          : container.found
            ? visibleText(container.id)
            : `${visibleText(container.id)} (not read: ${container.problem ?? "not found"})`,
    },
    { label: "derived workflow", value: visibleText(agent.workflowRef) },
    { label: "level", value: String(agent.level) },
    { label: "read hash", value: short(agent.readHash) },
  ];
  return facts;
}

/** The people among the tools, in words, or `undefined` when there are none. */
export function peopleNote(agent: DerivedAgent): string | undefined {
  if (agent.people.length === 0) return undefined;
  const ids = agent.people.map(visibleText).join(", ");
  return `${ids}: a person the model may consult, or not; not a gate on any path`;
}
