/**
 * Interop (SPEC 6): the format contract, the registry of formats, and each format. Every import
 * declares what it dropped or guessed, or fails loudly with an {@link ImportError}.
 *
 * @packageDocumentation
 */
export type {
  ExportResult,
  Format,
  ImportErrorOptions,
  ImportResult,
  InteropWarning,
} from "./types.js";
export {
  FIELD_DROPPED,
  HEURISTIC,
  ImportError,
  NOT_EXPORTABLE,
  VALUE_NORMALIZED,
} from "./types.js";
export type { DetectedImport } from "./registry.js";
export { detectFormat, FORMATS, importDocument } from "./registry.js";
export { WARNINGS_LIMIT } from "./warnings.js";
export * from "./langgraph/index.js";
export * from "./agent2model/index.js";
export * from "./langgraph-graph/index.js";
export * from "./openagentflow/index.js";
export * from "./agentos/index.js";
export {
  exportMermaid,
  clip as mermaidClip,
  edgeLabel as mermaidEdgeLabel,
  label as mermaidLabel,
  quotedEdgeLabel as mermaidQuotedEdgeLabel,
} from "./mermaid/index.js";
export * from "./langgraph-gen/index.js";
