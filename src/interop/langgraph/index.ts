/**
 * LangGraph interop: the seed's documented JSON subset. LangGraph's native drawable graph and the
 * `langgraph-gen` spec are formats of their own (`../langgraph-graph`, `../langgraph-gen`).
 *
 * @packageDocumentation
 */
export { detectLangGraph, langGraphSubset } from "./subset.js";
export { importLangGraph } from "./subset-import.js";
export { exportLangGraph } from "./subset-export.js";
export type {
  LangGraphSubsetDocument,
  LangGraphSubsetEdge,
  LangGraphSubsetEdgeData,
  LangGraphSubsetNode,
} from "./subset-types.js";
export { LANGGRAPH_SUBSET_ID } from "./subset-types.js";
