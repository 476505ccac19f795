import type { GateOptions, ToolEffectsMapping, UnknownLevelPolicy } from "../bpmn/index.js";
import type { FolderRegistry } from "./registry.js";

/** The gate options for a folder registry, a policy and the organisation's tool effects. */
export function gateOptions(
  registry: FolderRegistry | undefined,
  camundaAgents: UnknownLevelPolicy = "gate-required",
  toolEffects: ToolEffectsMapping = {},
): GateOptions {
  const effects = Object.keys(toolEffects).length === 0 ? {} : { toolEffects };
  if (registry === undefined) return { policy: { camundaAgents }, ...effects };
  const { resolveTool, resolveDelegate } = registry.resolvers;
  return {
    policy: { camundaAgents },
    ...effects,
    ...(resolveTool === undefined ? {} : { resolveTool }),
    ...(resolveDelegate === undefined ? {} : { resolveWorkflow: resolveDelegate }),
  };
}
