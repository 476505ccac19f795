/**
 * The list of interop formats and the detection that picks one. The list is explicit (no
 * globbing, no self-registration) so that bundlers keep the core tree-shakeable and the order in
 * which formats are asked is visible in one place.
 */
import { isRecord, own } from "./json.js";
import { agent2Model } from "./agent2model/index.js";
import { agentOs } from "./agentos/index.js";
import { langGraphSubset } from "./langgraph/index.js";
import { langGraphGen } from "./langgraph-gen/index.js";
import { langGraphGraph } from "./langgraph-graph/index.js";
import { openAgentFlow } from "./openagentflow/index.js";
import type { Format, ImportResult } from "./types.js";

/** Every format, in the order `detectFormat` asks them; the first that claims a document wins. */
export const FORMATS: readonly Format[] = Object.freeze([
  // Each detect rejects the others' documents (tested per format), so the order only decides
  // ties that cannot occur; AgentOS stays first as the most specific.
  agentOs,
  langGraphSubset,
  langGraphGraph,
  langGraphGen,
  agent2Model,
  openAgentFlow,
]);

/** A document that is already agentflow's own needs no importer, whatever else it looks like. */
function isAgentWorkflowDocument(doc: unknown): boolean {
  return isRecord(doc) && own(doc, "kind") === "AgentWorkflow";
}

/**
 * The first format that claims the document; `undefined` for an AgentWorkflow or no match.
 *
 * @example
 * ```ts
 * import { detectFormat } from "agentflow/interop";
 * import { getTemplate } from "agentflow/model";
 *
 * const spec = {
 *   name: "AgenticRag",
 *   entrypoint: "agent",
 *   nodes: [{ name: "agent" }, { name: "generate" }],
 *   edges: [{ from: "agent", to: "generate" }],
 * };
 * detectFormat(spec)?.id; // → "langgraph-gen"
 * // an AgentWorkflow needs no importer
 * detectFormat(getTemplate("research")); // → undefined
 * ```
 */
export function detectFormat(doc: unknown): Format | undefined {
  if (isAgentWorkflowDocument(doc)) return undefined;
  return FORMATS.find((format) => format.detect(doc));
}

/** A detected format and what its import returned. */
export interface DetectedImport {
  readonly format: Format;
  readonly result: ImportResult;
}

/**
 * Detects the format and imports with it. `undefined` when no format claims the document;
 * throws only {@link ImportError} when the claiming format refuses it.
 *
 * @example
 * ```ts
 * import { ImportError, importDocument } from "agentflow/interop";
 *
 * const spec = {
 *   name: "AgenticRag",
 *   entrypoint: "agent",
 *   nodes: [{ name: "agent" }, { name: "retrieve" }, { name: "generate" }],
 *   edges: [
 *     { from: "agent", to: "retrieve" },
 *     { from: "retrieve", to: "generate" },
 *   ],
 * };
 * try {
 *   const detected = importDocument(spec);
 *   detected?.format.id; // → "langgraph-gen"
 *   detected?.result.workflow.nodes.map((n) => n.id); // → ["agent", "retrieve", "generate"]
 * } catch (error) {
 *   // the format claimed the document but cannot convert it: `path` says where
 *   if (error instanceof ImportError) console.error(error.format, error.path, error.reason);
 *   else throw error;
 * }
 * ```
 */
export function importDocument(doc: unknown): DetectedImport | undefined {
  const format = detectFormat(doc);
  return format === undefined ? undefined : { format, result: format.import(doc) };
}
