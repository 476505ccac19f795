/**
 * A Camunda agent's resolution: the derived workflow, its tools as dependencies (so the gate
 * rules read them as they read a registry's tool contracts), and the derived agent as plain data.
 * Nothing is looked up: everything comes from the reading made before any resolver ran.
 */
import { readingHash } from "./read-hash.js";
import type { Dependency } from "../dependency.js";
import type { Derivation } from "./derive.js";
import { derivedToolRef, deriveWorkflow } from "./derive.js";
import type { ToolEffectsMapping } from "./effect-mapping.js";
import type { EventEffect } from "./tool-effects.js";
import { agentEffects } from "./tool-effects.js";
import type { CamundaAgent, DerivedAgent, EffectedTool } from "./types.js";

/** What deriving one agent gives. */
export interface CamundaResolution extends Derivation {
  readonly derived: DerivedAgent;
  readonly dependencies: readonly Dependency[];
}

/**
 * True when the dependency was read from a Camunda agent's BPMN (a tool, the event
 * sub-processes, an unreadable container): only those carry where their effect came from. A btv
 * task on such an agent has these beside the ones its workflow looked up.
 */
export function readFromBpmn(dependency: Dependency): boolean {
  return dependency.effectSource !== undefined;
}

function toolDependency(tool: EffectedTool): Dependency {
  const base = {
    kind: "tool",
    ref: derivedToolRef(tool.id),
    nodeId: tool.id,
    contentHash: tool.contentHash,
    effectSource: tool.effectSource,
    ...(tool.effectKey === undefined ? {} : { effectKey: tool.effectKey }),
  } as const;
  if (tool.effect !== undefined) return { ...base, effect: tool.effect };
  const detail = tool.unknownReason ?? "its effect is unknown";
  return { ...base, failure: { reason: "unmapped", detail } };
}

function containerDependency(agent: CamundaAgent): Dependency[] {
  const container = agent.container;
  if (container === undefined || container.found) return [];
  return [
    {
      kind: "tool",
      ref: derivedToolRef(container.id),
      nodeId: container.id,
      effectSource: "unknown",
      failure: { reason: "missing", detail: container.problem ?? "the tools cannot be read" },
    },
  ];
}

/**
 * An agent without tools whose container has event sub-processes: nothing carries their effect
 * (with tools, every tool's does), so it is a dependency of its own, never dropped.
 */
function eventDependency(
  tools: readonly EffectedTool[],
  events: EventEffect | undefined,
): Dependency[] {
  if (tools.length > 0 || events === undefined) return [];
  const base = {
    kind: "tool",
    ref: derivedToolRef(events.id),
    nodeId: events.id,
    effectSource: events.source,
    ...(events.key === undefined ? {} : { effectKey: events.key }),
  } as const;
  if (events.effect !== undefined) return [{ ...base, effect: events.effect }];
  const detail = `${events.decidedBy} in the event sub-process ${events.id}: ${events.reason ?? "its effect is unknown"}`;
  return [{ ...base, failure: { reason: "unmapped", detail } }];
}

/** The parts of the reading the derived agent does not carry: its effected tools stand for them. */
const UNCARRIED = new Set(["tools", "steps", "flows", "eventSubProcesses"]);
type Reading = Omit<CamundaAgent, "tools" | "steps" | "flows" | "eventSubProcesses">;

/** The agent without its tools and container graph (the derived agent lists effected tools). */
function readingOf(agent: CamundaAgent): Reading {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(agent)) if (!UNCARRIED.has(key)) out[key] = value;
  return out as Reading;
}

/** Derives the agent with the organisation's mapping. */
export function resolveCamundaAgent(
  agent: CamundaAgent,
  mapping: ToolEffectsMapping,
): CamundaResolution {
  const { tools, events } = agentEffects(agent, mapping);
  const derivation = deriveWorkflow(agent, tools);
  const reading = readingOf(agent);
  const derived: DerivedAgent = {
    ...reading,
    tools,
    people: tools.filter((t) => t.nature === "user-task").map((t) => t.id),
    level: derivation.level,
    reasons: derivation.reasons,
    unbounded: derivation.unbounded,
    workflowRef: `${derivation.workflow.id}@${derivation.workflow.version}`,
    readHash: readingHash(agent),
  };
  return {
    ...derivation,
    derived,
    dependencies: [
      ...tools.map(toolDependency),
      ...eventDependency(tools, events),
      ...containerDependency(agent),
    ],
  };
}
