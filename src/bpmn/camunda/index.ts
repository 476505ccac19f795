/**
 * Camunda AI agents read from the BPMN (docs/bpmn.md): the agent's model, provider, prompt
 * hash, limits and tools, each tool's effect with where it came from, and the agent workflow
 * derived from them, assessed like any other.
 *
 * @packageDocumentation
 */
export type {
  ActivityNature,
  CamundaActivity,
  CamundaAgent,
  CamundaAgentVariant,
  CamundaJob,
  CamundaLimit,
  CamundaLimits,
  CamundaTool,
  CamundaToolContainer,
  DerivedAgent,
  EffectedTool,
  ToolEffectSource,
} from "./types.js";
export type { ContainerLookup } from "./read-agent.js";
export { containerLookup, readCamundaAgent } from "./read-agent.js";
export { isOpaqueAgent, opaqueMarker } from "./opaque.js";
export type { ToolEffectRule, ToolEffectsMapping } from "./effect-mapping.js";
export { SELECTOR_KEY, TOOL_EFFECTS, toolEffectsProblems } from "./effect-mapping.js";
export type { DefaultEffect, DefaultEffectCase } from "./effect-defaults.js";
export { DEFAULT_EFFECTS, defaultEffectOf } from "./effect-defaults.js";
export type { ActivityEffect } from "./types.js";
export { activityEffect } from "./effects.js";
export type { Derivation } from "./derive.js";
export type { AgentReading } from "./read-hash.js";
export { DERIVED_VERSION, deriveWorkflow, derivedToolRef, derivedWorkflowId } from "./derive.js";
export type { CamundaResolution } from "./resolution.js";
export { readFromBpmn, resolveCamundaAgent } from "./resolution.js";
export { fromAiParameters } from "./from-ai.js";
