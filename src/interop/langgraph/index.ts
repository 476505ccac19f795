/**
 * LangGraph interop. For now the seed's documented JSON subset; LangGraph's native drawable graph
 * and the `langgraph-gen` spec are separate formats to come.
 *
 * @packageDocumentation
 */
export { detectLangGraph, langGraphSubset } from "./subset.js";
export { importLangGraph } from "./subset-import.js";
export { exportLangGraph } from "./subset-export.js";
export type {
  LangGraphImportErrorOptions,
  LangGraphSubsetDocument,
  LangGraphSubsetEdge,
  LangGraphSubsetEdgeData,
  LangGraphSubsetNode,
} from "./subset-types.js";
export { LANGGRAPH_SUBSET_ID, LangGraphImportError } from "./subset-types.js";
