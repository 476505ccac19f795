/**
 * LangGraph's native drawable graph as an interop {@link Format}: detection, and the import of
 * `graph-import.ts`, and the export of `export.ts` (what the graph cannot hold is declared).
 */
import type { Format } from "../types.js";
import { isRecord, own } from "../json.js";
import { exportLangGraphGraph } from "./export.js";
import { importLangGraphGraph } from "./graph-import.js";
import type { LangGraphGraphDocument } from "./graph-types.js";
import { LANGGRAPH_GRAPH_ID } from "./graph-types.js";

/** Node `type`s of the drawable graph. */
const NATIVE_TYPES = new Set(["runnable", "schema", "unknown"]);
/** The start and end sentinels, lower case (AgentOS writes `__START__` / `__END__`). */
const SENTINELS = new Set(["__start__", "__end__"]);

function isSentinel(value: unknown): boolean {
  return typeof value === "string" && SENTINELS.has(value);
}

/** A node this format could read: an id, and no `type` outside the native three. */
function isNativeShaped(node: unknown): boolean {
  if (!isRecord(node)) return false;
  const id = own(node, "id");
  const type = own(node, "type");
  return (
    (typeof id === "string" || typeof id === "number") &&
    (type === undefined || (typeof type === "string" && NATIVE_TYPES.has(type)))
  );
}

/** What only the drawable graph has: a sentinel, a native node type, a boolean `conditional`. */
function hasNativeMark(nodes: readonly unknown[], edges: readonly unknown[]): boolean {
  return (
    nodes.some(
      (n) => isRecord(n) && (isSentinel(own(n, "id")) || NATIVE_TYPES.has(String(own(n, "type")))),
    ) ||
    edges.some(
      (e) =>
        isRecord(e) &&
        (isSentinel(own(e, "source")) ||
          isSentinel(own(e, "target")) ||
          typeof own(e, "conditional") === "boolean"),
    )
  );
}

/**
 * Whether a decoded document is a drawable graph: an object without `kind` whose only keys are
 * `nodes` and `edges` (both arrays), every node shaped like a native node, and some mark only the
 * native graph has. Other formats with nodes and edges (the LangGraph subset, AgentOS graphs)
 * have types or top-level keys this never accepts. Never throws.
 *
 * @example
 * ```ts
 * import { detectLangGraphGraph } from "agentflow/interop";
 *
 * // what `graph.get_graph().to_json()` prints for a tool-calling agent
 * const drawable = {
 *   nodes: [
 *     { id: "__start__", type: "schema", data: "__start__" },
 *     { id: "agent", type: "runnable", data: { id: ["langgraph", "utils", "RunnableCallable"], name: "agent" } },
 *     { id: "__end__", type: "schema", data: "__end__" },
 *   ],
 *   edges: [
 *     { source: "__start__", target: "agent" },
 *     { source: "agent", target: "__end__" },
 *   ],
 * };
 * detectLangGraphGraph(drawable); // → true
 * ```
 */
export function detectLangGraphGraph(doc: unknown): boolean {
  if (!isRecord(doc)) return false;
  if (Object.keys(doc).some((k) => k !== "nodes" && k !== "edges")) return false;
  const nodes = own(doc, "nodes");
  const edges = own(doc, "edges");
  if (!Array.isArray(nodes) || !Array.isArray(edges)) return false;
  return nodes.every(isNativeShaped) && hasNativeMark(nodes, edges);
}

/** LangGraph's native drawable graph, import and export. */
export const langGraphGraph: Format<LangGraphGraphDocument> = Object.freeze({
  id: LANGGRAPH_GRAPH_ID,
  title: "LangGraph drawable graph (get_graph().to_json())",
  detect: detectLangGraphGraph,
  import: importLangGraphGraph,
  export: exportLangGraphGraph,
});
