/**
 * The `langgraph-gen` spec YAML (input of LangGraph's stub generator), import and export. The
 * documented subset lives in `../langgraph/`, the drawable graph in `../langgraph-graph/`.
 *
 * @packageDocumentation
 */
export { detectLangGraphGen, langGraphGen } from "./gen.js";
export { importLangGraphGen } from "./gen-import.js";
export { exportLangGraphGen } from "./export.js";
export type { LangGraphGenDocument, LangGraphGenEdge, LangGraphGenNode } from "./gen-types.js";
export { LANGGRAPH_GEN_FORMAT_ID } from "./gen-types.js";
