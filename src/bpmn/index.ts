/**
 * BPMN governance (SPEC 7): the `btv` moddle extension, reading and writing processes, the gate
 * rules over the process graph, and the promotion decision.
 *
 * @packageDocumentation
 */
export type { BpmnModdleInstance, ModdleExtensions, ModdleObject } from "./moddle.js";
export { BTV_PACKAGE, BTV_URI, createModdle, instanceOf } from "./moddle.js";
export type { ReadOptions, ReadResult } from "./read.js";
export { readProcess, writeProcess } from "./read.js";
export type { SourceIndex } from "./source-index.js";
export type { AgentDeclaration, AgentTaskElement, WorkflowSnapshot } from "./agents.js";
export { hasGateMarker } from "./agents.js";
export { isBtvLookalike } from "./namespace-check.js";
export {
  CAMUNDA_AGENT_JOB_TYPES,
  CAMUNDA_AGENT_TEMPLATES,
  CAMUNDA_TOOL_CONTAINER_PROPERTY,
} from "./camunda-agents.js";
export { ZEEBE_URI } from "./zeebe-names.js";
export type { GatePredicate } from "./analysis.js";
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
  DefaultEffect,
  DefaultEffectCase,
  DerivedAgent,
  EffectedTool,
  ToolEffectRule,
  ToolEffectsMapping,
  ToolEffectSource,
} from "./camunda/index.js";
export type { DiscountedGate, GateDiscount, GateNode } from "./gate-collect.js";
export type { LoopDiscount } from "./loop-runs.js";
export type { NamedElement, SubjectReading } from "./view/subjects.js";
export { DEFAULT_EFFECTS, TOOL_EFFECTS, toolEffectsProblems } from "./camunda/index.js";
export type { AgentTaskSummary, GateDecision, ProcessCheck } from "./evaluate.js";
export type { GateOptions } from "./gate-options.js";
export type { ApprovalGate } from "./decision.js";
export type { AgentGateStatus } from "./gate-status.js";
export { AGENT_GATE_STATUSES, agentGateStatus } from "./gate-status.js";
export { checkProcess, evaluateGates, evaluateGatesSync } from "./evaluate.js";
export type { BpmnRule, BpmnRuleContext } from "./rule.js";
export { BPMN_RULES } from "./rules/index.js";
export type { ParseIssue, ParseIssueKind } from "./types.js";
export type {
  AgentTaskSource,
  BpmnReport,
  BpmnRuleMeta,
  GateStatus,
  UnknownLevelPolicy,
  WorkflowResolution,
} from "./types.js";
export { UNKNOWN_LEVEL_POLICIES, unknownPolicyProblem } from "./types.js";
export type { AgentTaskFacts, GateAnalysis, PreparedAgent, PreparedProcess } from "./analysis.js";
export type { GateReach, GateVerdict } from "./gate-reach.js";
export type { ProcessGraph, VertexKind } from "./process-graph.js";
export { VERTEX_KINDS } from "./process-graph.js";
export type {
  ContainerEntry,
  ContainerKind,
  CrossingFlow,
  FlowNodeEntry,
  ProcessIndex,
} from "./process-index.js";
export type { EventFacts, EventKindCode } from "./event-facts.js";
export { EventKind } from "./event-facts.js";
export type { NamespaceMismatch } from "./namespace-check.js";
export type { UnreadDeclaration, UnreadKind } from "./btv-declarations.js";
export { NodeFlag } from "./node-flags.js";
export type { TaskResolution, TaskResolvers } from "./resolve-tasks.js";
export type { ResolvedDelegate } from "./resolve-dependencies.js";
export type { Dependency, FailedLookup, LookupFailure } from "./dependency.js";
export { needsGate } from "./dependency.js";
export type { HostResolver, LookupContext } from "./lookup.js";
export { DEFAULT_LOOKUP_TIMEOUT_MS } from "./lookup.js";
export type { ChangedRule, RuleSet, RuleSetExtension, RuleSetSettings } from "./rule-set.js";
export { describeRuleSet } from "./rule-set.js";
export type { GateSelection, GateSelector } from "./gate-select.js";
export { candidateGroups, gateSelectorProblems, selectGate } from "./gate-select.js";
export type { RegistryConflict, RegistryDefinition } from "./registry-conflict.js";
export { conflictOf, describeDefinitions, RegistryConflictError } from "./registry-conflict.js";
export type {
  DiagramBounds,
  DiagramFlow,
  DiagramLane,
  DiagramNode,
  DiagramPoint,
  DiagramPool,
  ProcessDiagram,
} from "./diagram-read.js";
export { readProcessDiagrams } from "./diagram-read.js";
export type { ProcessTopology, TaskGates } from "./task-gates.js";
export { processTopology } from "./task-gates.js";
