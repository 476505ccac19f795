/**
 * A Camunda agent's resolution: the derived workflow, its tools as dependencies (so the gate
 * rules read them as they read a registry's tool contracts), and the derived agent as plain data.
 * Nothing is looked up: everything comes from the reading made before any resolver ran.
 */
import { contentHash } from "../../model/index.js";
import type { Dependency } from "../dependency.js";
import type { Derivation } from "./derive.js";
import { derivedToolRef, deriveWorkflow } from "./derive.js";
import type { ToolEffectsMapping } from "./effect-mapping.js";
import { effectedTools } from "./tool-effects.js";
import type { CamundaAgent, DerivedAgent, EffectedTool } from "./types.js";

/** What deriving one agent gives. */
export interface CamundaResolution extends Derivation {
  readonly derived: DerivedAgent;
  readonly dependencies: readonly Dependency[];
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

/** The agent without its tools and container graph (the derived agent lists effected tools). */
function readingOf(agent: CamundaAgent): Omit<CamundaAgent, "tools" | "steps" | "flows"> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(agent)) {
    if (key !== "tools" && key !== "steps" && key !== "flows") out[key] = value;
  }
  return out as Omit<CamundaAgent, "tools" | "steps" | "flows">;
}

/** Derives the agent with the organisation's mapping. */
export function resolveCamundaAgent(
  agent: CamundaAgent,
  mapping: ToolEffectsMapping,
): CamundaResolution {
  const tools = effectedTools(agent, mapping);
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
    readHash: contentHash(agent),
  };
  return {
    ...derivation,
    derived,
    dependencies: [...tools.map(toolDependency), ...containerDependency(agent)],
  };
}
