/**
 * Policy packs (`agentflow/policy`): an organisation's rules written as data — YAML or JSON, a
 * FEEL `when` over a documented fact model, gate path predicates — read, checked and compiled
 * into rules of the kit (`agentflow/rules`); and waivers, the findings an organisation accepts
 * for a time. See docs/policies.md.
 *
 * @packageDocumentation
 */
export type {
  AgentTaskFacts,
  BudgetFacts,
  GateFacts,
  NodeFacts,
  PolicySubject,
  ProcessFacts,
  KnownToolFacts,
  ToolFacts,
  UnreadFact,
  WorkflowFacts,
} from "./facts.js";
export { POLICY_SUBJECTS, UNKNOWN_TOOL } from "./facts.js";
export { POLICY_PACK_SCHEMA, WAIVER_SCHEMA } from "./pack-schema.js";
export { compilePolicyPack, formatPolicyProblem, PolicyPackError, readPolicyPack } from "./read.js";
export type {
  CompiledPack,
  ElementPlace,
  GatePathRequirement,
  GatePathResult,
  PackProcessContext,
  PackProcessReport,
  PackProcessRule,
  PackReading,
  PackRuleSpec,
  PackWorkflowContext,
  PackWorkflowReport,
  PackWorkflowRule,
  PolicyPackSpec,
  PolicyProblem,
  ProcessView,
  Waiver,
  WorkflowView,
} from "./types.js";
export type {
  SubjectsPresent,
  UnnamedWaivers,
  UnnamedWorkflow,
  WaiverOutcome,
  WaiverSubject,
} from "./waive.js";
export { applyWaivers, waiversForUnnamed } from "./waive.js";
export { WAIVER_EXPIRED, WAIVER_FINDINGS, WAIVER_SUBJECT_MISSING } from "./waiver-meta.js";
export { ambiguousWaiverProblems, waiverProblems } from "./waivers.js";
export { duplicatePackProblems } from "./waiver-packs.js";
export type { NamedPack } from "./waiver-packs.js";
export type { WaiverPack } from "./waivers.js";
