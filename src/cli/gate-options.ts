import type { GateOptions, UnknownLevelPolicy } from "../bpmn/index.js";
import type { FolderRegistry } from "./registry.js";

/** The gate options for a folder registry and a policy. */
export function gateOptions(
  registry: FolderRegistry | undefined,
  camundaAgents: UnknownLevelPolicy = "gate-required",
): GateOptions {
  if (registry === undefined) return { policy: { camundaAgents } };
  const { resolveTool, resolveDelegate } = registry.resolvers;
  return {
    policy: { camundaAgents },
    ...(resolveTool === undefined ? {} : { resolveTool }),
    ...(resolveDelegate === undefined ? {} : { resolveWorkflow: resolveDelegate }),
  };
}
