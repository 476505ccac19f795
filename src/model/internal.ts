/**
 * What the library's other modules (`validate/` above all) share with the model but users do
 * not: the decision-route walk, the scratch arrays of the graph algorithms, the loop search of
 * the loop rules (`trappedNodes`, `cyclesAmong`), the param template
 * walk with its JSON Pointers, a condition's compiled comparison with the exact numbers it holds
 * (for exporters that write it in another engine's expression language), the reading of a FEEL
 * string literal (a Camunda input fixed to one literal), and FEEL text read whole with
 * lezer-feel (a Camunda context mapping or input collection), and the model names importers
 * write for a model their format does not state. Not a package entry point and not
 * in the API reference; outside `model/`, everything else comes from `model/index.ts`.
 */
export type { RouteVisitor, Take } from "./graph/index.js";
export {
  cyclesAmong,
  forEachRoute,
  ROUTE_SOURCE,
  routeLabel,
  routePointerSuffix,
  scratchScope,
  trappedNodes,
} from "./graph/index.js";
export { forEachTemplateEntry } from "./params/index.js";
export {
  compareRationals,
  conditionComparison,
  decodeFeelString,
  fromNumber,
} from "./condition/index.js";
export type { CompareOperator, CompiledComparison, Expr, Rational } from "./condition/index.js";
// The BPMN reader reads Camunda's FEEL literals (context mappings, input collections) with the
// grammar conditions are read with, lezer-feel, rather than a scanner of its own.
export { childrenOf, feelExpressionNode } from "./condition/index.js";
export type { FeelNode } from "./condition/index.js";
// A shape's top-level names and the field a condition reads, for the workflow rules and the replay.
export { shapeNames, topField } from "./shape/index.js";
// Policy packs are read like workflows (the same YAML/JSON reader, its limits and positions).
export { locatePointers, readDocumentText } from "./text/index.js";
// The BPMN reader says a wide encoding as the document readers do.
export { wideEncoding } from "./text/index.js";
// The Modeler plug-in reads agentflow.config.json as the CLI does, byte-order mark and all.
export { stripBom } from "./text/index.js";
// The gate evaluation reads embedded snapshots so, fetching the YAML reader only for YAML text.
export { parseWorkflowTextAsync } from "./parse/index.js";
// An approval hashes every input file's raw bytes (the same native path as text under Node).
export { sha256Bytes } from "./canonical/index.js";
// A signed payload that repeats a key is refused: another reader may keep the other value.
export { keyCount, memberCount } from "./text/index.js";
// The route keywords no node may take as its id: validation refuses them, importers rename them.
export { isReservedNodeId, RESERVED_NODE_IDS } from "./ref.js";
export {
  AGENT2MODEL_MODEL_PREFIX,
  AGENTOS_HOST_MODEL,
  isOpaqueStepRef,
  isUnstatedModel,
  LANGGRAPH_NODE_TOOL_PREFIX,
  LANGGRAPH_UNSTATED_MODEL,
  OAF_RUNTIME_DEFAULT_MODEL,
} from "./unstated-model.js";
