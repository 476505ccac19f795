/**
 * Export to the documented LangGraph JSON subset (seed A-7). Only the subset is written; every
 * workflow construct with no LangGraph form is left out and declared, `autonomyLevel` always.
 */
import type { AgentEdge, AgentNode, AgentWorkflow } from "../../model/index.js";
import { pointer } from "../../model/index.js";
import { cloneJson } from "../json.js";
import type { ExportResult } from "../types.js";
import { ExportWarnings, omitted } from "../warnings.js";
import type {
  LangGraphSubsetDocument,
  LangGraphSubsetEdge,
  LangGraphSubsetNode,
} from "./subset-types.js";

/** Workflow keys the subset carries; `kind` is implied by the format and needs no declaration. */
const MAPPED_TOP_LEVEL = new Set([
  "kind",
  "id",
  "name",
  "version",
  "autonomyLevel",
  "inputSchema",
  "outputSchema",
  "nodes",
  "edges",
]);
const MAPPED_NODE_KEYS = new Set(["id", "type", "config"]);
const MAPPED_EDGE_KEYS = new Set(["from", "to", "edgeType", "when"]);

/** Why a top-level key has no LangGraph form, for the messages people read. */
const TOP_LEVEL_REASONS: ReadonlyMap<string, string> = new Map([
  ["description", "the subset has no description"],
  ["types", "the subset has no named types; shapes that use them will not resolve on re-import"],
  ["budget", "run limits have no LangGraph form"],
  ["metadata", "the subset has no metadata"],
  ["$schema", "an editor hint of the agentflow format"],
]);

function exportNode(node: AgentNode, i: number, warnings: ExportWarnings): LangGraphSubsetNode {
  for (const key of Object.keys(node)) {
    if (MAPPED_NODE_KEYS.has(key)) continue;
    warnings.add("node field", () => {
      const why =
        key === "decorators"
          ? "decorators (memory, planner, errorBoundary) have no LangGraph form"
          : "the subset has no such node field";
      return omitted(pointer("nodes", i, key), `node '${node.id}': '${key}' left out: ${why}`, {
        nodeId: node.id,
        key,
      });
    });
  }
  return { id: node.id, type: node.type, data: cloneJson(node.config) };
}

function exportEdge(
  edge: AgentEdge,
  i: number,
  warnings: ExportWarnings,
): LangGraphSubsetEdge | undefined {
  const data = { from: edge.from, to: edge.to };
  if (edge.edgeType === "delegate") {
    warnings.add("delegate edge", () =>
      omitted(
        pointer("edges", i),
        `delegate edge '${edge.from}' -> '${edge.to}' left out: delegation (a2a:1.0 semantics) has no LangGraph form`,
        { ...data, edgeType: edge.edgeType },
      ),
    );
    return undefined;
  }
  for (const key of Object.keys(edge)) {
    if (MAPPED_EDGE_KEYS.has(key)) continue;
    warnings.add("edge field", () =>
      omitted(
        pointer("edges", i, key),
        `edge '${edge.from}' -> '${edge.to}': '${key}' left out: the subset has no such edge field`,
        { ...data, key },
      ),
    );
  }
  return {
    source: edge.from,
    target: edge.to,
    data: {
      edgeType: edge.edgeType,
      ...(edge.when === undefined ? {} : { when: edge.when }),
    },
  };
}

/**
 * Exports a workflow to the documented LangGraph JSON subset. Never throws. Warnings come in a
 * fixed order: `autonomyLevel`, other top-level keys, then nodes and edges in document order.
 *
 * @example
 * ```ts
 * import { exportLangGraph } from "agentflow/interop";
 * import { getTemplate } from "agentflow/model";
 *
 * const wf = getTemplate("document-review");
 * if (wf === undefined) throw new Error("no such template");
 * const { document, warnings } = exportLangGraph(wf);
 * document.nodes.map((n) => `${n.id}: ${n.type}`);
 * // → ["llm-extract: llm", "dec-validate: decision", "llm-classify: llm"]
 * warnings.map((w) => w.path); // → ["/autonomyLevel", "/description", "/budget"]
 * ```
 */
export function exportLangGraph(wf: AgentWorkflow): ExportResult<LangGraphSubsetDocument> {
  const warnings = new ExportWarnings();
  warnings.add("/autonomyLevel", () =>
    omitted(
      "/autonomyLevel",
      "autonomyLevel left out: LangGraph has no autonomy level; an import recomputes it from the graph",
      { autonomyLevel: wf.autonomyLevel },
    ),
  );
  for (const key of Object.keys(wf)) {
    if (MAPPED_TOP_LEVEL.has(key)) continue;
    warnings.add("top-level field", () => {
      const why = TOP_LEVEL_REASONS.get(key) ?? "the subset has no such top-level field";
      return omitted(pointer(key), `'${key}' left out: ${why}`, { key });
    });
  }
  const nodes = wf.nodes.map((node, i) => exportNode(node, i, warnings));
  const edges: LangGraphSubsetEdge[] = [];
  wf.edges.forEach((edge, i) => {
    const out = exportEdge(edge, i, warnings);
    if (out !== undefined) edges.push(out);
  });
  const document: LangGraphSubsetDocument = {
    id: wf.id,
    name: wf.name,
    version: wf.version,
    input_schema: cloneJson(wf.inputSchema),
    output_schema: cloneJson(wf.outputSchema),
    nodes,
    edges,
  };
  return { document, warnings: warnings.list() };
}
