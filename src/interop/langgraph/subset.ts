/**
 * The documented LangGraph JSON subset (seed A-7) as an interop {@link Format}: detection, and
 * the import and export of `subset-import.ts` / `subset-export.ts`.
 */
import type { Format } from "../types.js";
import { isRecord, own } from "../json.js";
import { exportLangGraph } from "./subset-export.js";
import { importLangGraph } from "./subset-import.js";
import type { LangGraphSubsetDocument } from "./subset-types.js";
import { LANGGRAPH_SUBSET_ID } from "./subset-types.js";

/** Node `type`s of LangGraph's native drawable graph (`get_graph().to_json()`). */
const NATIVE_NODE_TYPES = new Set(["runnable", "schema", "unknown"]);
/** The native graph's start and end sentinels. */
const SENTINELS = new Set(["__start__", "__end__"]);

function isSentinel(value: unknown): boolean {
  return typeof value === "string" && SENTINELS.has(value);
}

/**
 * Tells of the native drawable graph, which a separate format reads: sentinel ids, native node
 * types, numeric ids, a boolean `conditional` on edges. Claiming it here would fail on import
 * (its types are not llm / tool / decision) instead of letting the right format read it.
 */
function isNativeNode(node: unknown): boolean {
  if (!isRecord(node)) return false;
  const id = own(node, "id");
  const type = own(node, "type");
  return (
    typeof id === "number" ||
    isSentinel(id) ||
    (typeof type === "string" && NATIVE_NODE_TYPES.has(type))
  );
}

function isNativeEdge(edge: unknown): boolean {
  if (!isRecord(edge)) return false;
  return (
    isSentinel(own(edge, "source")) ||
    isSentinel(own(edge, "target")) ||
    typeof own(edge, "conditional") === "boolean"
  );
}

/** AgentOS's start and end sentinels, upper case; the subset has no sentinels at all. */
const AGENTOS_SENTINELS = new Set(["__START__", "__END__"]);

/**
 * Tells of an AgentOS CompiledExecutionGraph, whose edges also have `source` and `target`: a
 * node carrying an `executorConfig` (what every AgentOS node builder writes, and no subset node
 * has), or an edge from `__START__` / into `__END__`. A positive mark, so that the subset declines
 * these documents whatever order the registry asks the formats in.
 */
function isAgentOs(nodes: readonly unknown[], edges: readonly unknown[]): boolean {
  return (
    nodes.some((n) => isRecord(n) && Object.hasOwn(n, "executorConfig")) ||
    edges.some(
      (e) =>
        isRecord(e) &&
        [own(e, "source"), own(e, "target")].some(
          (end) => typeof end === "string" && AGENTOS_SENTINELS.has(end),
        ),
    )
  );
}

/**
 * Whether a decoded document looks like the subset: an object without `kind` (so never an
 * AgentWorkflow), with a `nodes` array, where some node has `data` or some edge has `source`
 * and `target`, and nothing marks it as LangGraph's native drawable graph or as an AgentOS
 * graph. Never throws.
 *
 * @example
 * ```ts
 * import { detectLangGraph } from "agentflow/interop";
 *
 * const doc = {
 *   id: "agnt-faq",
 *   nodes: [{ id: "llm-1", type: "llm", data: { model: "gpt-4o", promptRef: "prm:faq@1.0.0" } }],
 *   edges: [],
 * };
 * detectLangGraph(doc); // → true
 * detectLangGraph({ kind: "AgentWorkflow", nodes: [] }); // → false
 * ```
 */
export function detectLangGraph(doc: unknown): boolean {
  if (!isRecord(doc) || Object.hasOwn(doc, "kind")) return false;
  const nodes = own(doc, "nodes");
  if (!Array.isArray(nodes)) return false;
  const rawEdges = own(doc, "edges");
  const edges: readonly unknown[] = Array.isArray(rawEdges) ? rawEdges : [];
  if (nodes.some(isNativeNode) || edges.some(isNativeEdge)) return false;
  if (isAgentOs(nodes, edges)) return false;
  return (
    nodes.some((n) => isRecord(n) && Object.hasOwn(n, "data")) ||
    edges.some((e) => isRecord(e) && Object.hasOwn(e, "source") && Object.hasOwn(e, "target"))
  );
}

/** The documented LangGraph JSON subset, import and export. */
export const langGraphSubset: Format<LangGraphSubsetDocument> = Object.freeze({
  id: LANGGRAPH_SUBSET_ID,
  title: "LangGraph JSON (documented subset)",
  detect: detectLangGraph,
  import: importLangGraph,
  export: exportLangGraph,
});
