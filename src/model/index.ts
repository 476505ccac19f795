/**
 * The AgentWorkflow model (SPEC 2): types, parsing, refs, the type language, the flow graph view,
 * canonical form and hashes, and the shipped templates.
 *
 * @packageDocumentation
 */
export type * from "./types.js";
export type {
  Diagnostic,
  DiagnosticTarget,
  Severity,
  SeveritySetting,
  SourceLocation,
} from "./diagnostic.js";
export { countBySeverity, hasErrors, WORKFLOW_TARGET } from "./diagnostic.js";
export { escapePointerToken, pointer, pointerTokens } from "./pointer.js";

export type { Ref, RefErrorReason, RefParseResult, VersionParseResult } from "./ref.js";
export { formatRef, isValidId, isValidRef, parseRef, parseVersion } from "./ref.js";

export type { ParseResult, ToolContractParseResult, WorkflowParseResult } from "./parse.js";
export {
  NOT_JSON_DATA,
  parseToolContract,
  parseWorkflow,
  VERSION_ABBREVIATED,
  VERSION_INVALID,
} from "./parse.js";
export { STRUCTURE_INVALID, UNKNOWN_PROPERTY } from "./ajv-errors.js";
export type { TextParseExtras, TextParseOptions } from "./parse-text.js";
export { parseToolContractText, parseWorkflowText, withLocations } from "./parse-text.js";
export type { TextFormat } from "./text/index.js";
export { agentWorkflowSchema, toolContractSchema } from "./schema/workflow.js";

export type {
  AnyTypeNode,
  ArrayTypeNode,
  MemberTypeNode,
  NamedTypeNode,
  ObjectField,
  ObjectTypeNode,
  PrimitiveName,
  PrimitiveTypeNode,
  SchemaTypeNode,
  TypeExpressionError,
  TypeExpressionResult,
  TypeNode,
} from "./type-expr.js";
export { parseTypeExpression } from "./type-expr.js";
export { formatType } from "./type-format.js";
export type { ResolvedShape, ShapeOptions, ShapeProblem, ShapeProblemReason } from "./shape.js";
export { MAX_JSON_SCHEMA_DEPTH, MAX_SHAPE_NODES, resolveShape } from "./shape.js";
export type { CompiledShape, JsonSchemaObject } from "./shape-compile.js";
export { compileShape } from "./shape-compile.js";
export { shapeValidator } from "./shape-validator.js";
export type { TypeMismatch } from "./assignable.js";
export { findMismatch, isAssignable } from "./assignable.js";

export type { DecisionRoute } from "./routes.js";
export { decisionRoutes, isMultiway } from "./routes.js";
export type { FlowGraph, SccResult } from "./graph.js";
export { tarjanScc } from "./scc.js";
export type { Adjacency } from "./adjacency.js";
export {
  adjacencyFromEdges,
  adjacencyFromLists,
  adjacencyToLists,
  neighbours,
  nodeCount,
  reverseAdjacency,
} from "./adjacency.js";
export {
  buildFlowGraph,
  canReachItself,
  flowGraph,
  forwardDataflow,
  isForwardRoute,
  isForwardRouteAt,
  NODE_KIND,
  upstreamOf,
} from "./graph.js";

export { canonicalJson, contentHash } from "./canonical.js";
export { jsonDataProblems, MAX_JSON_VALUES } from "./json-data.js";
export type { JsonDataProblem, JsonDataProblemKind } from "./json-data.js";
export { sha256 } from "./sha256.js";

export type { TemplateInfo } from "./templates/index.js";
export { getTemplate, listTemplates } from "./templates/index.js";

export {
  analyzeCondition,
  compileCondition,
  evaluateCondition,
  MAX_CONDITION_DEPTH,
  MAX_CONDITION_LENGTH,
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
} from "./param-template.js";
export {
  forEachTemplate,
  forEachTemplateString,
  scanTemplates,
  templateStrings,
  wholeTemplate,
} from "./param-template.js";
export type { UpstreamQuery } from "./upstream.js";
export { upstreamAnswers, upstreamAnswersOf } from "./upstream.js";
