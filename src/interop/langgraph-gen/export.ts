/**
 * Export to the `langgraph-gen` spec (the decoded YAML value; the caller serialises it). Steps
 * become `nodes[].name`, plain edges `{ from, to }`, a decision the conditional edge
 * `{ from, condition, paths }` of the step before it, and a step without successors an edge to
 * `__end__`. The spec names steps and wires them, nothing more: every node type, configuration,
 * condition text and schema an import would not synthesise again is declared.
 */
import type { AgentWorkflow, DecisionNode, DecisionRoute } from "../../model/index.js";
import { pointer } from "../../model/index.js";
import { declareAttached, writeEdges } from "../langgraph-graph/export-edges.js";
import type { RebuiltEdge } from "../langgraph-graph/export-plan.js";
import {
  declareDecisionEdges,
  declareNodeFields,
  declareRetries,
  declareTop,
  notExportable,
  planDecisions,
} from "../langgraph-graph/export-plan.js";
import type { IndexedEdge } from "../edge-index.js";
import { flowEdgesFrom, routesOnce } from "../edge-index.js";
import type { ExportResult } from "../types.js";
import { ExportWarnings } from "../warnings.js";
import { baseId } from "./gen-read.js";
import type { LangGraphGenDocument, LangGraphGenEdge, LangGraphGenNode } from "./gen-types.js";

/** The version of the workflow and of every ref an import synthesises. */
const PLACEHOLDER_VERSION = "0.0.0";
const END = "__end__";
/** What the importer writes for the i-th path of a conditional edge: `<condition> returns '<path>'`. */
const RETURNS = /^(.*) returns '([^']*)'$/s;

/** The router function's name: the one every case condition was imported from, if they agree. */
function routerName(
  routes: readonly DecisionRoute[],
  paths: readonly string[],
): string | undefined {
  let name: string | undefined;
  for (const [k, r] of routes.slice(0, -1).entries()) {
    const m = RETURNS.exec(r.condition ?? "");
    if (m === null || m[2] !== paths[k] || (name !== undefined && m[1] !== name)) return undefined;
    name = m[1];
  }
  return name === "" ? undefined : name;
}

/** A decision's routes as one conditional edge from `from`. */
function conditional(
  out: readonly IndexedEdge[],
  node: DecisionNode,
  routes: readonly DecisionRoute[],
  i: number,
  from: string,
  steps: ReadonlySet<string>,
  warnings: ExportWarnings,
): LangGraphGenEdge {
  declareRetries(node.id, i, routes, warnings);
  const kept = routes.filter((r) => {
    if (r.next === "end" || steps.has(r.next)) return true;
    warnings.add("route to a non-step", () =>
      notExportable(
        `${pointer("nodes", i, "config")}${r.pointerSuffix}`,
        `decision '${node.id}': route to '${r.next}', which is not a step, left out`,
        { nodeId: node.id, next: r.next },
      ),
    );
    return false;
  });
  const paths = kept.map((r) => (r.next === "end" ? END : r.next));
  if (paths.length < 2)
    warnings.add("one-route decision", () =>
      notExportable(
        pointer("nodes", i, "config"),
        `decision '${node.id}' has one route; a conditional edge with one path is read back as a plain edge`,
        { nodeId: node.id },
      ),
    );
  let condition = routerName(kept, paths);
  if (condition === undefined) {
    const router = node.id.replace(/[^A-Za-z0-9_]/g, "_");
    condition = router;
    if (kept.length > 1)
      warnings.add("decision conditions", () =>
        notExportable(
          pointer("nodes", i, "config"),
          `decision '${node.id}': its conditions left out: the spec names a router function, '${router}'; an import reads each case as '${router} returns '<path>''`,
          { nodeId: node.id, condition: router },
        ),
      );
  }
  const rebuilt: RebuiltEdge[] = kept.flatMap((r, k) =>
    r.next === "end" ? [] : [{ to: r.next, when: paths[k] }],
  );
  declareDecisionEdges(out, rebuilt, warnings);
  return { from, condition, paths };
}

function step(
  node: AgentWorkflow["nodes"][number],
  i: number,
  warnings: ExportWarnings,
): LangGraphGenNode {
  const at = (...rest: string[]): string => pointer("nodes", i, ...rest);
  if (baseId(node.id) !== node.id)
    warnings.add("node id", () =>
      notExportable(at("id"), `node id '${node.id}' is read back as '${baseId(node.id)}'`, {
        nodeId: node.id,
      }),
    );
  if (node.name !== undefined)
    warnings.add("node name", () =>
      notExportable(at("name"), `node '${node.id}': name left out: a spec node's name is its id`, {
        nodeId: node.id,
      }),
    );
  const { type } = node;
  if (type !== "llm")
    warnings.add(type === "tool" ? "tool node" : "decision node", () =>
      notExportable(
        at("type"),
        type === "tool"
          ? `tool node '${node.id}' left out as a tool: the spec has no node kinds; an import reads it as an llm node`
          : `decision '${node.id}' is written as a node (it is the entry, or no single step leads to it); an import reads it as an llm node followed by its conditional edge`,
        { nodeId: node.id },
      ),
    );
  const synthesised =
    node.type === "llm"
      ? { model: "unspecified", promptRef: `prm:${node.id}@${PLACEHOLDER_VERSION}` }
      : {};
  declareNodeFields(node, i, synthesised, "the spec", warnings);
  return { name: node.id };
}

/**
 * Exports a workflow to a `langgraph-gen` spec. Never throws. Warnings (`NOT_EXPORTABLE`):
 * `autonomyLevel` always, identity and schemas, then node by node (each decision with the edges
 * leaving it), then the other edges.
 *
 * @example
 * ```ts
 * import { exportLangGraphGen } from "agentflow/interop";
 * import { getTemplate } from "agentflow/model";
 *
 * const wf = getTemplate("document-review");
 * if (wf === undefined) throw new Error("no such template");
 * const { document } = exportLangGraphGen(wf);
 * document;
 * // → {
 * //     name: "Document Review Agent",
 * //     entrypoint: "llm-extract",
 * //     nodes: [{ name: "llm-extract" }, { name: "llm-classify" }],
 * //     edges: [
 * //       { from: "llm-extract", condition: "dec_validate", paths: ["llm-classify", "__end__"] },
 * //       { from: "llm-classify", to: "__end__" },
 * //     ],
 * //   }
 * ```
 */
export function exportLangGraphGen(wf: AgentWorkflow): ExportResult<LangGraphGenDocument> {
  const warnings = new ExportWarnings();
  const synthesisedId = `langgraph-gen-${baseId(wf.name)}`;
  declareTop(
    wf,
    "the spec",
    {
      id: synthesisedId,
      name: wf.name,
      version: PLACEHOLDER_VERSION,
      inputSchema: { state: "any" },
      outputSchema: { state: "any" },
    },
    new Set(["name"]),
    warnings,
  );
  const routesOf = routesOnce();
  const plan = planDecisions(wf, false, routesOf);
  const outOf = flowEdgesFrom(wf);
  const steps = new Set(wf.nodes.filter((n) => !plan.has(n.id)).map((n) => n.id));
  const nodes: LangGraphGenNode[] = [];
  const groups = new Map<string, LangGraphGenEdge>();
  const own: LangGraphGenEdge[] = [];
  wf.nodes.forEach((node, i) => {
    const place = plan.get(node.id);
    if (node.type === "decision" && place?.source !== undefined) {
      declareAttached(node, i, place, wf, warnings);
      const edge = conditional(
        outOf(node.id),
        node,
        routesOf(node),
        i,
        place.source,
        steps,
        warnings,
      );
      groups.set(place.source, edge);
      return;
    }
    nodes.push(step(node, i, warnings));
    if (node.type === "decision")
      own.push(conditional(outOf(node.id), node, routesOf(node), i, node.id, steps, warnings));
  });
  const written = writeEdges(
    wf,
    plan,
    {
      format: "the spec",
      routed: (from) => {
        const group = groups.get(from);
        return group === undefined ? [] : [group];
      },
      plain: (e, j) => {
        const { when } = e;
        if (when !== undefined)
          warnings.add("edge label", () => {
            const message = `edge '${e.from}' -> '${e.to}': label '${when}' left out: a plain spec edge has none`;
            return notExportable(pointer("edges", j, "when"), message, { when });
          });
        return { from: e.from, to: e.to };
      },
      end: (from) => ({ from, to: END }),
    },
    warnings,
  );
  const edges = [...written.edges, ...own, ...written.ends];
  if (wf.nodes.length === 0)
    warnings.add("no node", () =>
      notExportable(
        "/nodes",
        "the workflow has no node; the spec's entrypoint is empty, which an import refuses",
      ),
    );
  const document: LangGraphGenDocument = {
    name: wf.name,
    entrypoint: wf.nodes[0]?.id ?? "",
    nodes,
    edges,
  };
  return { document, warnings: warnings.list() };
}
