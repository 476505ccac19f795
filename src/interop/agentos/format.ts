/**
 * The AgentOS CompiledExecutionGraph as an interop {@link Format}: detection and import.
 */
import { isRecord, own } from "../json.js";
import type { Format } from "../types.js";
import { exportAgentOs } from "./export.js";
import { importAgentOs } from "./import.js";
import { AGENTOS_ID } from "./types.js";

/** Node types of the IR (the seed's table). */
const NODE_TYPES = new Set([
  "gmi",
  "tool",
  "extension",
  "human",
  "guardrail",
  "router",
  "subgraph",
  "voice",
]);

/** A node the IR's builders emit: a known `type` and an `executorConfig` of the same type. */
function isIrNode(node: unknown): boolean {
  if (!isRecord(node)) return false;
  const type = own(node, "type");
  const cfg = own(node, "executorConfig");
  return (
    typeof type === "string" && NODE_TYPES.has(type) && isRecord(cfg) && own(cfg, "type") === type
  );
}

/**
 * Whether a decoded document is a CompiledExecutionGraph: an object without `kind`, with `nodes`
 * and `edges` arrays, where some node carries an `executorConfig` of its own type. The
 * `executorConfig` is what no other format has (the docs' YAML workflow has `steps`, LangGraph
 * has `data`). Never throws.
 *
 * @example
 * ```ts
 * import { detectAgentOs } from "agentflow/interop";
 *
 * const graph = {
 *   id: "summarize",
 *   name: "Summarize",
 *   nodes: [{ id: "summarize", type: "gmi", executorConfig: { type: "gmi", instructions: "Summarise the article." } }],
 *   edges: [{ id: "e1", source: "__START__", target: "summarize", type: "static" }],
 * };
 * detectAgentOs(graph); // → true
 * ```
 */
export function detectAgentOs(doc: unknown): boolean {
  if (!isRecord(doc) || Object.hasOwn(doc, "kind")) return false;
  const nodes = own(doc, "nodes");
  return Array.isArray(nodes) && Array.isArray(own(doc, "edges")) && nodes.some(isIrNode);
}

/** The AgentOS CompiledExecutionGraph: import, and export of the mapped subset. */
export const agentOs: Format<Record<string, unknown>> = Object.freeze({
  id: AGENTOS_ID,
  title: "AgentOS CompiledExecutionGraph",
  detect: detectAgentOs,
  import: importAgentOs,
  export: exportAgentOs,
});
