import type {
  GateOptions,
  GateSelector,
  ToolEffectsMapping,
  UnknownLevelPolicy,
} from "../bpmn/index.js";
import type { FolderRegistry } from "./registry.js";

/** The organisation's settings a gate evaluation takes from the config. */
export interface GateSettings {
  readonly camundaAgents?: UnknownLevelPolicy;
  readonly toolEffects?: ToolEffectsMapping | undefined;
  readonly gates?: readonly GateSelector[] | undefined;
}

/**
 * The gate options for a folder registry and the organisation's settings: the Camunda policy,
 * the tool effects and the gate selectors (each left out when empty, so the rule set's digest
 * of a run without them stays what it was).
 */
export function gateOptions(
  registry: Pick<FolderRegistry, "resolvers"> | undefined,
  settings: GateSettings = {},
): GateOptions {
  const { camundaAgents = "gate-required", toolEffects = {}, gates = [] } = settings;
  const effects = Object.keys(toolEffects).length === 0 ? {} : { toolEffects };
  const selected = gates.length === 0 ? {} : { gates };
  const resolvers =
    registry === undefined
      ? {}
      : {
          ...(registry.resolvers.resolveTool === undefined
            ? {}
            : { resolveTool: registry.resolvers.resolveTool }),
          ...(registry.resolvers.resolveDelegate === undefined
            ? {}
            : { resolveWorkflow: registry.resolvers.resolveDelegate }),
        };
  return { policy: { camundaAgents }, ...effects, ...selected, ...resolvers };
}
