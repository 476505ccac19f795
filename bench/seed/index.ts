/**
 * @buildtovalue/agentflow — headless model of a governed AI-agent
 * sub-workflow (Handoff 12 A-1). Schema (3 nodes + decorators), versioned ref
 * parsing, graph validation and the normative autonomy scale. Zero ecosystem
 * imports; integrations arrive by injection.
 */

export * from './types.js';
export {
  type AgentRef,
  type RefInput,
  type ParsedRef,
  AgentRefError,
  parseRef,
  toRef,
  formatRef,
  isValidRef,
} from './ref.js';
export {
  type ValidationIssue,
  type ValidateOptions,
  validateGraph,
  isValid,
} from './validate.js';
export {
  type ToolEffect,
  type ToolAuthorization,
  type ToolSchemaField,
  type ToolSchema,
  type ToolContract,
  type ToolParamsMismatch,
  type ResolveTool,
  effectRequiresGate,
  isToolRef,
  matchToolParams,
} from './toolContract.js';
export {
  SUPPORTED_SCHEMA_KEYWORDS,
  isSchemaNode,
  normalizeSchemaField,
  normalizeSchema,
  unsupportedKeywords,
  requiredKeys,
} from './schema.js';
export { promptVariables, promptCoverage } from './promptCoverage.js';
export {
  type SquadDynamic,
  type SquadEdgeKind,
  type ContextPurpose,
  type ContextMerge,
  type SquadMember,
  type SquadEdge,
  type SquadGate,
  type SquadManifest,
  type ContextKey,
  type ContextContract,
  type ValidateSquadOptions,
  type SquadFlowOptions,
  SQUAD_DYNAMICS,
  SQUAD_EDGE_KINDS,
  validateContextContract,
  validateSquad,
  validateSquadFlow,
  squadAutonomy,
} from './squad.js';
export { type AgentRunner, defaultAgentRunner } from './agentRunner.js';
export {
  type FactSource,
  type FactKind,
  type MaskingPolicy,
  type SquadFact,
  type SquadBlock,
  type SquadSimOptions,
  type SquadSimResult,
  MASKED_VALUE,
  simulateSquad,
} from './squadSim.js';
export {
  type ReadinessState,
  type ReadinessContext,
  readinessState,
} from './readinessState.js';
export {
  type GateRequirement,
  type AutonomyDefinition,
  AUTONOMY_SCALE,
  gateRequirement,
  requiresDownstreamGate,
  minCoherentLevel,
  autonomyCoherence,
} from './autonomy.js';
export {
  nodeIndex,
  hasDelegateEdge,
  decisionRoutes,
  internalSuccessors,
  canReach,
  loopComponents,
  hasRetryLoop,
  isBranchingDecision,
} from './graph.js';
export {
  APPROVAL_GATE_AGENT,
  RESEARCH_AGENT,
  DOCUMENT_REVIEW_AGENT,
  DEFAULT_TEMPLATE_ID,
  TEMPLATES,
} from './templates.js';
export {
  type Token,
  type GatewayKind,
  type PendingChoice,
  type BoundaryOption,
  type PendingDecisionInput,
  type TransitionRecord,
  type BlockedDecision,
  type SimulationState,
  type NodeFixture,
  type Fixtures,
  type SimulateOptions,
  type CostModel,
  DEFAULT_COST_MODEL,
} from './simTypes.js';
export { simulate, finalOutput } from './simulate.js';
export {
  type AssertionKind,
  type Assertion,
  type EvalCase,
  type EvalSet,
  type AssertionResult,
  type EvalCaseResult,
  type EvalReport,
  runEvalSet,
} from './evalSet.js';
export {
  type LangGraphNode,
  type LangGraphEdge,
  type LangGraphJson,
  type LangGraphImportResult,
  type LangGraphExportResult,
  LangGraphImportError,
  importLangGraph,
  exportLangGraph,
} from './langgraph.js';
