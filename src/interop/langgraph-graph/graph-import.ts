/**
 * Import of LangGraph's native drawable graph. The graph says which steps exist and how they are
 * wired, not what they do: node types, tool and prompt refs, identity and schemas are guessed by
 * documented rules and every guess is declared (a function node, whose code may do anything, is a
 * tool of unknown effect); routers become text decisions over their branch labels, never
 * simulable, and so do the routers the drawing leaves out (steps it reaches by no edge,
 * `hidden-routes.ts`); `autonomyLevel` is the level the graph justifies.
 */
import { pointer } from "../../model/index.js";
import { mapIds } from "../ids.js";
import { describeValue, isRecord, own } from "../json.js";
import type { Built } from "../pipeline.js";
import { defineImport } from "../pipeline.js";
import type { ImportResult, InteropWarning } from "../types.js";
import { dropped } from "../warnings.js";
import type { SourceEdge, SourceNode } from "./graph-read.js";
import { fail, readEdges, readNodes } from "./graph-read.js";
import { schemaSentinels } from "./schema-sentinels.js";
import { LANGGRAPH_GRAPH_ID } from "./graph-types.js";
import { LANGGRAPH_ID_PREFIX } from "./ids.js";
import { buildWorkflow } from "./graph-build.js";
import { inlineSubgraphSentinels } from "./subgraph-inline.js";

function build(doc: unknown, warnings: InteropWarning[]): Built {
  if (!isRecord(doc))
    throw fail("", `a LangGraph graph must be an object, found ${describeValue(doc)}`);
  for (const key of Object.keys(doc)) {
    if (key === "nodes" || key === "edges") continue;
    warnings.push(
      dropped(pointer(key), `top-level key '${key}' is not part of the drawable graph`, { key }),
    );
  }
  const rawNodes = own(doc, "nodes");
  if (!Array.isArray(rawNodes))
    throw fail("/nodes", `'nodes' must be an array, found ${describeValue(rawNodes)}`);
  const rawEdges = own(doc, "edges");
  if (!Array.isArray(rawEdges))
    throw fail("/edges", `'edges' must be an array, found ${describeValue(rawEdges)}`);
  const nodes = readNodes(rawNodes, schemaSentinels(rawNodes, rawEdges), warnings);
  const edges: SourceEdge[] = inlineSubgraphSentinels(
    nodes.values(),
    readEdges(rawEdges, nodes, warnings),
    warnings,
  );
  const steps: SourceNode[] = [...nodes.values()].filter((n) => n.sentinel === undefined);
  // A numbered node's name is its runnable name (`SourceNode.numbered`).
  const ids = mapIds(steps, LANGGRAPH_ID_PREFIX, (n) =>
    n.numbered === undefined ? n.rawId : n.name,
  );
  const used = new Set(ids.values());
  return { draft: buildWorkflow({ steps, edges, ids, used, warnings }) };
}

const importGraph = defineImport({ format: LANGGRAPH_GRAPH_ID, build });

/**
 * Imports a LangGraph drawable graph (`to_json()` / `toJSON()` / the Platform's graph endpoint).
 * Throws only {@link ImportError} (of format `langgraph-graph`), naming the path and,
 * for a node, its id.
 *
 * @example
 * ```ts
 * import { importLangGraphGraph } from "agentflow/interop";
 *
 * // what `graph.get_graph().to_json()` prints for a tool-calling agent
 * const { workflow, warnings } = importLangGraphGraph({
 *   nodes: [
 *     { id: "__start__", type: "schema", data: "__start__" },
 *     { id: "agent", type: "runnable", data: { id: ["langgraph", "utils", "RunnableCallable"], name: "agent" } },
 *     { id: "tools", type: "runnable", data: { id: ["langgraph", "prebuilt", "tool_node", "ToolNode"], name: "tools" } },
 *     { id: "__end__", type: "schema", data: "__end__" },
 *   ],
 *   edges: [
 *     { source: "__start__", target: "agent" },
 *     { source: "agent", target: "tools", conditional: true },
 *     { source: "agent", target: "__end__", conditional: true },
 *     { source: "tools", target: "agent" },
 *   ],
 * });
 * // the conditional edges become a decision the graph does not describe: its conditions are text;
 * // `agent` is a function node, code the graph does not show: a tool whose effect is unknown
 * workflow.nodes.map((n) => `${n.id}: ${n.type}`); // → ["agent: tool", "agent.route: decision", "tools: tool"]
 * workflow.nodes[0]?.config; // → { usesTool: "tool:langgraph.node.agent@0.0.0" }
 * workflow.autonomyLevel; // → 2
 * warnings.every((w) => w.code === "HEURISTIC"); // → true
 * ```
 */
export function importLangGraphGraph(doc: unknown): ImportResult {
  return importGraph(doc);
}
