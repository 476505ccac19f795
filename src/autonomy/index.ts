/**
 * Autonomy (SPEC 4): the normative scale, the level a graph justifies with its reasons, and the
 * gate each level requires downstream.
 *
 * @packageDocumentation
 */
export type { AutonomyLevelInfo, GateRequirement } from "./scale.js";
export {
  AUTONOMY_SCALE,
  autonomyLevelInfo,
  effectNeedsGate,
  gateRequirement,
  isAutonomyLevel,
  requiresDownstreamGate,
} from "./scale.js";
export type { AutonomyAssessment, AutonomyFeature, AutonomyReason } from "./assess.js";
export { assessAutonomy, minCoherentLevel } from "./assess.js";
