/**
 * The "Agent governance" group for bpmn-js-properties-panel (`agentflow/bpmn-js/properties-panel`):
 * agent workflow ref, autonomy level, gate marker and approver role, written as `btv` extension
 * elements through the modeller's command stack (undoable). A separate entry point from
 * `agentflow/bpmn-js`, so that a modeller without the properties panel does not need it.
 *
 * @packageDocumentation
 */
import { AgentflowPropertiesProvider } from "./provider.js";

export type { Injector, PanelGroup, PropertiesPanel } from "./provider.js";
export { AgentflowPropertiesProvider, GROUP_ID } from "./provider.js";

/**
 * The provider module:
 * `additionalModules: [BpmnPropertiesPanelModule, BpmnPropertiesProviderModule, AgentflowPropertiesProviderModule]`.
 */
const AgentflowPropertiesProviderModule: {
  readonly __init__: readonly string[];
  readonly agentflowPropertiesProvider: readonly ["type", typeof AgentflowPropertiesProvider];
} = {
  __init__: ["agentflowPropertiesProvider"],
  agentflowPropertiesProvider: ["type", AgentflowPropertiesProvider],
};

export default AgentflowPropertiesProviderModule;
