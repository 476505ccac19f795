/**
 * agentflow: governance and policy gates for AI-agent sub-workflows embedded in BPMN processes.
 * The root entry holds what a user writes against: parsing, validation, autonomy, simulation and
 * exploration, the BPMN gates, reports, the interchange formats and the rule kit. Each module's
 * subpath (`agentflow/model`, `agentflow/validate`, `agentflow/autonomy`, `agentflow/simulate`,
 * `agentflow/interop`, `agentflow/report`, `agentflow/bpmn`, `agentflow/rules`) has the rest:
 * the type language, conditions, graph views, XState machines and each format's document types.
 * The list is explicit so that a module adding a name does not widen the package's face;
 * test/exports.test.ts holds its size.
 *
 * @packageDocumentation
 */

// The document model and parsing.
export type {
  AgentEdge,
  AgentNode,
  AgentWorkflow,
  AutonomyLevel,
  BinaryDecisionConfig,
  Budget,
  ConditionLanguage,
  DecisionCase,
  DecisionConfig,
  DecisionNode,
  Decorator,
  EdgeType,
  ErrorBoundaryDecorator,
  FieldType,
  JsonSchemaField,
  LlmConfig,
  LlmNode,
  MemoryDecorator,
  MultiwayDecisionConfig,
  NodeBase,
  NodeType,
  PlannerDecorator,
  Route,
  SchemaShape,
  ToolAuthorization,
  ToolConfig,
  ToolContract,
  ToolEffect,
  ToolNode,
  Diagnostic,
  DiagnosticTarget,
  DiagnosticWaiver,
  Severity,
  SeveritySetting,
  SourceLocation,
  ParseResult,
  TextFormat,
  TextParseExtras,
  TextParseOptions,
  ToolContractParseResult,
  WorkflowParseResult,
  Ref,
  RefErrorReason,
  RefParseResult,
  TemplateInfo,
} from "./model/index.js";
export {
  AGENTFLOW_VERSION,
  agentWorkflowSchema,
  canonicalJson,
  contentHash,
  countBySeverity,
  formatRef,
  getTemplate,
  hasErrors,
  isValidRef,
  listTemplates,
  NOT_JSON_DATA,
  parseRef,
  parseToolContract,
  parseToolContractText,
  parseWorkflow,
  parseWorkflowText,
  STRUCTURE_INVALID,
  toolContractSchema,
  UNKNOWN_PROPERTY,
  VERSION_ABBREVIATED,
  VERSION_INVALID,
  WORKFLOW_TARGET,
} from "./model/index.js";

// Validation.
export type {
  PolicyInput,
  PresetName,
  Report,
  Resolution,
  Resolvers,
  Rule,
  RuleContext,
  RuleGroup,
  Validator,
  ValidatorConfig,
} from "./validate/index.js";
export {
  createValidator,
  isPromotable,
  PRESET_NAMES,
  presetSettings,
  validateToolContract,
} from "./validate/index.js";

// Autonomy.
export type {
  AutonomyAssessment,
  AutonomyFeature,
  AutonomyLevelInfo,
  AutonomyReason,
  GateRequirement,
} from "./autonomy/index.js";
export {
  AUTONOMY_SCALE,
  assessAutonomy,
  autonomyLevelInfo,
  effectNeedsGate,
  gateRequirement,
  isAutonomyLevel,
  minCoherentLevel,
  requiresDownstreamGate,
} from "./autonomy/index.js";

// Simulation and exploration.
export type {
  BlockedDecision,
  CostModel,
  ExploredBlock,
  ExploredChoice,
  ExploredEnd,
  ExploredRun,
  ExploreOptions,
  ExploreReport,
  Fixtures,
  NodeCost,
  NodeFixture,
  OptionProblem,
  RouteCoverage,
  SimulateOptions,
  SimulationState,
  TransitionRecord,
  TransitionType,
  Usage,
} from "./simulate/index.js";
export {
  DEFAULT_MAX_STEPS,
  explore,
  finalOutput,
  lintSimulationOptions,
  MAX_STEPS_LIMIT,
  OptionTypeError,
  runUsage,
  sampleFixtures,
  sampleInput,
  simulate,
} from "./simulate/index.js";

// The BPMN gates.
export type {
  AgentGateStatus,
  AgentTaskSource,
  AgentTaskSummary,
  ApprovalGate,
  BpmnReport,
  BpmnRule,
  BpmnRuleContext,
  BpmnRuleMeta,
  GateDecision,
  GateOptions,
  GateStatus,
  HostResolver,
  LookupContext,
  ProcessCheck,
  ReadOptions,
  ReadResult,
  ResolvedDelegate,
  TaskResolution,
  TaskResolvers,
  UnknownLevelPolicy,
  WorkflowResolution,
} from "./bpmn/index.js";
export {
  AGENT_GATE_STATUSES,
  agentGateStatus,
  checkProcess,
  evaluateGates,
  evaluateGatesSync,
  readProcess,
  RegistryConflictError,
  UNKNOWN_LEVEL_POLICIES,
  writeProcess,
} from "./bpmn/index.js";

// Reports: check output formats and the audit report.
export type {
  AuditOptions,
  AuditPolicyOptions,
  AuditReport,
  CheckedFile,
  ChecklistItem,
  ChecklistStatus,
  GitlabFormatOptions,
  JunitFormatOptions,
  ProcessAudit,
  SarifFormatOptions,
  TextFormatOptions,
  WorkflowAudit,
} from "./report/index.js";
export {
  auditProcessReport,
  auditWorkflowReport,
  formatGithub,
  formatGitlab,
  formatJson,
  formatJunit,
  formatSarif,
  formatText,
  oversightChecklist,
  renderAuditHtml,
  renderAuditMarkdown,
} from "./report/index.js";

// Interchange formats.
export type {
  DetectedImport,
  ExportResult,
  Format,
  ImportErrorOptions,
  ImportResult,
  InteropWarning,
} from "./interop/index.js";
export {
  detectFormat,
  exportAgent2Model,
  exportAgentOs,
  exportLangGraph,
  exportLangGraphGen,
  exportLangGraphGraph,
  exportMermaid,
  exportOpenAgentFlow,
  FIELD_DROPPED,
  HEURISTIC,
  importAgent2Model,
  importAgentOs,
  importDocument,
  ImportError,
  importLangGraph,
  importLangGraphGen,
  importLangGraphGraph,
  importOpenAgentFlow,
  NOT_EXPORTABLE,
  VALUE_NORMALIZED,
} from "./interop/index.js";

// The rule kit.
export type {
  AnyRule,
  Plugin,
  ReportBase,
  RuleDefinition,
  RuleMeta,
  RuleScope,
  RuleSetting,
  RuleSettings,
} from "./rules/index.js";
export { defineRule, RULE_CRASHED } from "./rules/index.js";
