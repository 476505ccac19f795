/**
 * LangGraph's native drawable graph (`get_graph().to_json()`, `getGraphAsync().toJSON()`, the
 * Platform's graph endpoint), import and export. The documented subset lives in `../langgraph/`.
 *
 * @packageDocumentation
 */
export { detectLangGraphGraph, langGraphGraph } from "./graph.js";
export { importLangGraphGraph } from "./graph-import.js";
export { exportLangGraphGraph } from "./export.js";
export type {
  LangGraphGraphDocument,
  LangGraphGraphEdge,
  LangGraphGraphNode,
} from "./graph-types.js";
export { LANGGRAPH_GEN_ID, LANGGRAPH_GRAPH_ID } from "./graph-types.js";
