/**
 * The AgentWorkflow model (SPEC 2): types, parsing, refs, the type language, the flow graph view,
 * canonical form and hashes, and the shipped templates. Each room of the folder has its own
 * face: `json/` (pointers, JSON data), `parse/`, `text/` (JSON and YAML reading), `schema/`,
 * `shape/` (the type language), `graph/` (the flow graph), `condition/`, `params/` (param
 * templates), `canonical/` (canonical form, hashes) and `templates/`.
 *
 * @packageDocumentation
 */
export type * from "./types.js";
export type {
  Diagnostic,
  DiagnosticTarget,
  DiagnosticWaiver,
  Severity,
  SeveritySetting,
  SourceLocation,
} from "./diagnostic.js";
export { countBySeverity, hasErrors, WORKFLOW_TARGET } from "./diagnostic.js";
export { escapePointerToken, pointer, pointerTokens } from "./json/index.js";

export type { Ref, RefErrorReason, RefParseResult, VersionParseResult } from "./ref.js";
export { formatRef, isValidId, isValidRef, parseRef, parseVersion } from "./ref.js";

export type { ParseResult, ToolContractParseResult, WorkflowParseResult } from "./parse/index.js";
export {
  NOT_JSON_DATA,
  parseToolContract,
  parseToolContractText,
  parseWorkflow,
  parseWorkflowText,
  STRUCTURE_INVALID,
  UNKNOWN_PROPERTY,
  VERSION_ABBREVIATED,
  VERSION_INVALID,
  withLocations,
} from "./parse/index.js";
export type { TextParseExtras, TextParseOptions } from "./parse/index.js";
export type { TextFormat } from "./text/index.js";
export { hasInvisibleCharacters, invisibleCharacters, visibleText } from "./text/index.js";
export { agentWorkflowSchema, toolContractSchema } from "./schema/index.js";

export type {
  AnyTypeNode,
  ArrayTypeNode,
  CompiledShape,
  JsonSchemaObject,
  MemberTypeNode,
  NamedTypeNode,
  ObjectField,
  ObjectTypeNode,
  PrimitiveName,
  PrimitiveTypeNode,
  ResolvedShape,
  SchemaTypeNode,
  ShapeOptions,
  ShapeProblem,
  ShapeProblemReason,
  TypeExpressionError,
  TypeExpressionResult,
  TypeMismatch,
  TypeNode,
} from "./shape/index.js";
export {
  compileShape,
  findMismatch,
  formatType,
  isAssignable,
  MAX_JSON_SCHEMA_DEPTH,
  MAX_SHAPE_NODES,
  parseTypeExpression,
  resolveShape,
  shapeValidator,
} from "./shape/index.js";

export type {
  Adjacency,
  DecisionRoute,
  FlowGraph,
  SccResult,
  UpstreamQuery,
} from "./graph/index.js";
export {
  adjacencyFromEdges,
  adjacencyFromLists,
  adjacencyToLists,
  buildFlowGraph,
  canReachItself,
  decisionRoutes,
  flowGraph,
  forwardDataflow,
  isForwardRoute,
  isForwardRouteAt,
  isMultiway,
  neighbours,
  NODE_KIND,
  nodeCount,
  reverseAdjacency,
  tarjanScc,
  upstreamAnswers,
  upstreamAnswersOf,
  upstreamOf,
} from "./graph/index.js";

export { canonicalJson, contentHash, sha256 } from "./canonical/index.js";
export { AGENTFLOW_VERSION } from "./version.js";
export { jsonDataProblems, MAX_JSON_VALUES } from "./json/index.js";
export type { JsonDataProblem, JsonDataProblemKind } from "./json/index.js";

export type { TemplateInfo } from "./templates/index.js";
export { getTemplate, listTemplates } from "./templates/index.js";

export {
  analyzeCondition,
  compileCondition,
  evaluateCondition,
  MAX_CONDITION_DEPTH,
  MAX_CONDITION_LENGTH,
  applyRewrites,
  rewriteJsDialect,
  rewriteJsOperators,
} from "./condition/index.js";
export type {
  CompiledCondition,
  ConditionAnalysis,
  ConditionEvaluation,
  ConditionOptions,
  ConditionProblem,
  ConditionProblemKind,
  OperatorRewrite,
  RewriteResult,
} from "./condition/index.js";

export type {
  TemplateKind,
  TemplateRef,
  TemplateSyntaxProblem,
  TemplateTarget,
} from "./params/index.js";
export {
  forEachTemplate,
  forEachTemplateString,
  scanTemplates,
  templateStrings,
  wholeTemplate,
} from "./params/index.js";
