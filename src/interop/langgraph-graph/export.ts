/**
 * Export to LangGraph's native drawable graph (`get_graph().to_json()`). llm and tool nodes become
 * runnables whose class path the importer classifies back the same way (`ToolNode` for tools, a
 * `RunnableCallable` for a tool on a function node's ref, a chat model for llm nodes: the importer
 * reads a function node as a tool of unknown effect); a decision
 * becomes the labelled conditional edges of the step before it; `"end"` is `__end__`. The graph
 * holds no configuration, identity or schemas: everything an import would not synthesise again
 * is declared.
 */
import type { AgentNode, AgentWorkflow, DecisionNode, DecisionRoute } from "../../model/index.js";
import { pointer } from "../../model/index.js";
import type { IndexedEdge } from "../edge-index.js";
import { flowEdgesFrom, routesOnce } from "../edge-index.js";
import type { ExportResult } from "../types.js";
import { ExportWarnings, omitted } from "../warnings.js";
import { functionToolRef, isFunctionToolRef, isToolName, SUBGRAPH_TOOL } from "./classify.js";
import { declareAttached, writeEdges } from "./export-edges.js";
import type { RebuiltEdge } from "./export-plan.js";
import {
  declareDecisionEdges,
  declareNodeFields,
  declareRetries,
  declareTop,
  planDecisions,
} from "./export-plan.js";
import { SYNTHESISED } from "./graph-build.js";
import type {
  LangGraphGraphDocument,
  LangGraphGraphEdge,
  LangGraphGraphNode,
} from "./graph-types.js";
import { baseId } from "./ids.js";
import { LANGGRAPH_UNSTATED_MODEL } from "../../model/internal.js";

/** The class path of LangGraph's prebuilt tool executor: the importer reads it as a tool. */
const TOOL_NODE = ["langgraph", "prebuilt", "tool_node", "ToolNode"];
/**
 * A function node as LangGraph (Python) draws it: the importer reads it back as a tool on
 * `tool:langgraph.node.<id>@0.0.0`, unless its id reads as a tool name.
 */
const FUNCTION_NODE = ["langgraph", "_internal", "_runnable", "RunnableCallable"];
/** A compiled subgraph as LangGraph.js draws it without xray: the importer reads it as one. */
const COMPILED_GRAPH = ["langgraph", "pregel", "CompiledStateGraph"];
/**
 * A chat model: the one exact llm reading. A function node (`RunnableCallable`) would be read back
 * as a tool of unknown effect, so llm nodes, and decisions written as steps (which run nothing),
 * are written as chat models.
 */
const CHAT_MODEL = ["langchain_core", "language_models", "chat_models", "BaseChatModel"];
const START = "__start__";
const END = "__end__";

function runnable(node: AgentNode, i: number, warnings: ExportWarnings): LangGraphGraphNode {
  const name = node.name ?? node.id;
  if (baseId(node.id) !== node.id)
    warnings.add("node id", () =>
      omitted(
        pointer("nodes", i, "id"),
        `node id '${node.id}' is read back as '${baseId(node.id)}'`,
        { nodeId: node.id },
      ),
    );
  // An import keeps `data.name` only where it spells the id (`fetch data` for `fetch-data`).
  const kept = node.name;
  if (kept !== undefined && kept !== node.id && baseId(kept) !== node.id)
    warnings.add("node name", () =>
      omitted(
        pointer("nodes", i, "name"),
        `node '${node.id}': name '${kept}' is written as data.name, which an import keeps only where it spells the node id`,
        { nodeId: node.id, name: kept },
      ),
    );
  let path = CHAT_MODEL;
  let synthesised: Readonly<Record<string, string>> = {};
  if (node.type === "tool" && node.config.usesTool === SUBGRAPH_TOOL) {
    // The importer's reading of a subgraph drawn whole: written back as one.
    path = COMPILED_GRAPH;
    synthesised = { usesTool: SUBGRAPH_TOOL };
  } else if (node.type === "tool" && isFunctionToolRef(node.config.usesTool)) {
    // A step of unknown content stays one: as a ToolNode it would read back on `tool:<id>`, a
    // ref that says nothing of the models it may call. A tool-named id reads back so anyway.
    path = FUNCTION_NODE;
    const back = isToolName(node.id)
      ? `tool:${node.id}@${SYNTHESISED.version}`
      : functionToolRef(node.id);
    synthesised = { usesTool: back };
  } else if (node.type === "tool") {
    path = TOOL_NODE;
    synthesised = { usesTool: `tool:${node.id}@${SYNTHESISED.version}` };
  } else if (node.type === "llm") {
    synthesised = {
      model: LANGGRAPH_UNSTATED_MODEL,
      promptRef: `prm:${node.id}@${SYNTHESISED.version}`,
    };
  }
  declareNodeFields(node, i, synthesised, "the drawable graph", warnings);
  return { id: node.id, type: "runnable", data: { id: path, name } };
}

/** The route's target in the graph. */
function targetOf(r: DecisionRoute, steps: ReadonlySet<string>): string | undefined {
  if (r.next === "end") return END;
  return steps.has(r.next) ? r.next : undefined;
}

/** The label of the first edge to `to` (of `out`) that no earlier route already accounts for. */
function lastLabel(
  out: readonly IndexedEdge[],
  to: string,
  earlier: readonly RebuiltEdge[],
): string | undefined {
  const left = new Map<string | undefined, number>();
  for (const r of earlier) if (r.to === to) left.set(r.when, (left.get(r.when) ?? 0) + 1);
  for (const { e } of out) {
    if (e.to !== to) continue;
    const count = left.get(e.when) ?? 0;
    if (count === 0) return e.when;
    left.set(e.when, count - 1);
  }
  return undefined;
}

/**
 * A decision's routes as conditional edges from `source`: every route but the last is labelled
 * with its condition; the last (the importer's `otherwise`) keeps the label of the edge the
 * workflow has to it, else its target's id (what LangGraph writes for an unlabelled branch).
 */
function routeEdges(
  out: readonly IndexedEdge[],
  node: DecisionNode,
  routes: readonly DecisionRoute[],
  i: number,
  source: string,
  steps: ReadonlySet<string>,
  warnings: ExportWarnings,
): LangGraphGraphEdge[] {
  declareRetries(node.id, i, routes, warnings);
  if (node.config.conditionLanguage !== "text")
    warnings.add("FEEL conditions", () =>
      omitted(
        pointer("nodes", i, "config", "conditionLanguage"),
        `decision '${node.id}': its FEEL conditions are written as branch labels; an import reads them as text (never simulable)`,
        { nodeId: node.id },
      ),
    );
  if (routes.length < 2)
    warnings.add("one-route decision", () =>
      omitted(
        pointer("nodes", i, "config"),
        `decision '${node.id}' has one route; its single conditional edge is read back as a plain edge`,
        { nodeId: node.id },
      ),
    );
  const edges: LangGraphGraphEdge[] = [];
  const rebuilt: RebuiltEdge[] = [];
  routes.forEach((r, k) => {
    const target = targetOf(r, steps);
    if (target === undefined) {
      warnings.add("route to a non-step", () =>
        omitted(
          `${pointer("nodes", i, "config")}${r.pointerSuffix}`,
          `decision '${node.id}': route to '${r.next}', which is not a step, left out`,
          { nodeId: node.id, next: r.next },
        ),
      );
      return;
    }
    const data =
      k < routes.length - 1 ? (r.condition ?? "") : (lastLabel(out, r.next, rebuilt) ?? target);
    edges.push({ source, target, data, conditional: true });
    if (target !== END) rebuilt.push({ to: r.next, when: data });
  });
  declareDecisionEdges(out, rebuilt, warnings);
  return edges;
}

/**
 * Exports a workflow to LangGraph's drawable graph JSON. Never throws. Warnings
 * (`NOT_EXPORTABLE`): `autonomyLevel` always, then identity and schemas, nodes, edges.
 *
 * @example
 * ```ts
 * import { exportLangGraphGraph } from "agentflow/interop";
 * import { getTemplate } from "agentflow/model";
 *
 * const wf = getTemplate("document-review");
 * if (wf === undefined) throw new Error("no such template");
 * const { document, warnings } = exportLangGraphGraph(wf);
 * document.nodes.map((n) => n.id); // → ["__start__", "llm-extract", "llm-classify", "__end__"]
 * // a drawable graph has no place for ids, schemas, models or prompts: each loss is declared
 * warnings[0]?.path; // → "/autonomyLevel"
 * ```
 */
export function exportLangGraphGraph(wf: AgentWorkflow): ExportResult<LangGraphGraphDocument> {
  const warnings = new ExportWarnings();
  declareTop(wf, "the drawable graph", SYNTHESISED, new Set(), warnings);
  const routesOf = routesOnce();
  const plan = planDecisions(wf, true, routesOf);
  const outOf = flowEdgesFrom(wf);
  const steps = new Set(wf.nodes.filter((n) => !plan.has(n.id)).map((n) => n.id));
  const nodes: LangGraphGraphNode[] = [{ id: START, type: "schema", data: START }];
  const groups = new Map<string | undefined, LangGraphGraphEdge[]>();
  const own: LangGraphGraphEdge[] = [];
  wf.nodes.forEach((node, i) => {
    const place = plan.get(node.id);
    if (node.type === "decision" && place !== undefined) {
      declareAttached(node, i, place, wf, warnings);
      const source = place.source ?? START;
      const edges = routeEdges(outOf(node.id), node, routesOf(node), i, source, steps, warnings);
      groups.set(place.source, edges);
      return;
    }
    nodes.push(runnable(node, i, warnings));
    if (node.type === "decision") {
      warnings.add("decision step", () =>
        omitted(
          pointer("nodes", i),
          `decision '${node.id}' is written as a routing step (no single step leads to it); an import reads it as an llm step followed by the router '${node.id}.route'`,
          { nodeId: node.id },
        ),
      );
      // One push per edge: spreading 100,000 routes as arguments overflows the stack.
      const routes = routesOf(node);
      for (const e of routeEdges(outOf(node.id), node, routes, i, node.id, steps, warnings))
        own.push(e);
    }
  });
  nodes.push({ id: END, type: "schema", data: END });
  const [entry] = wf.nodes;
  const start =
    entry !== undefined && steps.has(entry.id) ? [{ source: START, target: entry.id }] : [];
  const written = writeEdges(
    wf,
    plan,
    {
      format: "LangGraph",
      routed: (from) => groups.get(from) ?? [],
      plain: (e) => ({
        source: e.from,
        target: e.to,
        ...(e.when === undefined ? {} : { data: e.when }),
      }),
      end: (from) => ({ source: from, target: END }),
    },
    warnings,
  );
  const edges = [
    ...(groups.get(undefined) ?? []),
    ...start,
    ...written.edges,
    ...own,
    ...written.ends,
  ];
  return { document: { nodes, edges }, warnings: warnings.list() };
}
