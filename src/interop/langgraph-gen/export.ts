/**
 * Export to the `langgraph-gen` spec (the decoded YAML value; the caller serialises it), with
 * names langgraph-gen accepts (`names.ts`). Steps become `nodes[].name`, plain edges
 * `{ from, to }`, a decision the conditional edge `{ from, condition, paths }` of the step before
 * it, and a step without successors an edge to `__end__`. The spec names steps and wires them,
 * nothing more: an import reads every node as a tool on `tool:langgraph.node.<id>@0.0.0`, so every
 * other node type, configuration, condition text and schema it would not synthesise again is
 * declared.
 */
import type { AgentWorkflow, DecisionNode, DecisionRoute } from "../../model/index.js";
import { pointer } from "../../model/index.js";
import { declareAttached, writeEdges } from "../langgraph-graph/export-edges.js";
import type { RebuiltEdge } from "../langgraph-graph/export-plan.js";
import { normalized, omitted } from "../warnings.js";
import {
  declareDecisionEdges,
  declareNodeFields,
  declareRetries,
  declareTop,
  planDecisions,
} from "../langgraph-graph/export-plan.js";
import type { IndexedEdge } from "../edge-index.js";
import { flowEdgesFrom, routesOnce } from "../edge-index.js";
import { functionToolRef } from "../langgraph-graph/classify.js";
import { baseId } from "../langgraph-graph/ids.js";
import type { ExportResult } from "../types.js";
import { ExportWarnings } from "../warnings.js";
import type { LangGraphGenDocument, LangGraphGenEdge, LangGraphGenNode } from "./gen-types.js";
import type { SpecNames } from "./names.js";
import { isWritableName, named, nodeNames, routerName, stubName } from "./names.js";
import { LANGGRAPH_UNSTATED_MODEL } from "../../model/internal.js";

/** The version of the workflow and of every ref an import synthesises. */
const PLACEHOLDER_VERSION = "0.0.0";
const END = "__end__";
/** How a node is spelled: its kept name (the spec's spelling an import kept), the name written. */
interface Spelling {
  readonly kept: (id: string) => string | undefined;
  readonly written: (id: string) => string;
}

/** A decision's routes as one conditional edge from `from`. */
function conditional(
  out: readonly IndexedEdge[],
  node: DecisionNode,
  routes: readonly DecisionRoute[],
  i: number,
  from: string,
  steps: ReadonlySet<string>,
  names: SpecNames,
  spelling: Spelling,
  warnings: ExportWarnings,
): LangGraphGenEdge {
  declareRetries(node.id, i, routes, warnings);
  const kept = routes.filter((r) => {
    if (r.next === "end" || steps.has(r.next)) return true;
    warnings.add("route to a non-step", () =>
      omitted(
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
      omitted(
        pointer("nodes", i, "config"),
        `decision '${node.id}' has one route; a conditional edge with one path is read back as a plain edge`,
        { nodeId: node.id },
      ),
    );
  const imported = routerName(kept, paths, spelling.kept);
  const condition = names.condition(imported ?? node.id, imported !== undefined);
  if (imported === undefined && kept.length > 1)
    warnings.add("decision conditions", () =>
      omitted(
        pointer("nodes", i, "config"),
        `decision '${node.id}': its conditions left out: the spec names a router function, '${condition}'; an import reads each case as '${condition} returns '<path>''`,
        { nodeId: node.id, condition },
      ),
    );
  if (imported !== undefined && imported !== condition)
    warnings.add("condition name", () =>
      normalized(
        pointer("nodes", i, "config"),
        `decision '${node.id}': router function '${imported}' written as '${condition}': langgraph-gen needs a Python function name that no node or other router has`,
        { nodeId: node.id, from: imported, to: condition },
      ),
    );
  // An import labels each edge it rebuilds with the path as the spec spells it: the name written.
  const rebuilt: RebuiltEdge[] = kept.flatMap((r) =>
    r.next === "end" ? [] : [{ to: r.next, when: spelling.written(r.next) }],
  );
  declareDecisionEdges(out, rebuilt, warnings);
  return { from, condition, paths };
}

function step(
  node: AgentWorkflow["nodes"][number],
  i: number,
  name: string,
  warnings: ExportWarnings,
): LangGraphGenNode {
  const at = (...rest: string[]): string => pointer("nodes", i, ...rest);
  // The kept original name written back is no rename: an import maps it to this id again.
  if (name !== node.id && name !== node.name)
    warnings.add("node id", () =>
      normalized(
        at("id"),
        `node id '${node.id}' written as '${name}', and read back so: langgraph-gen needs a node name without ':' whose implementation name (other characters as '_') is a Python function name no other node or router has`,
        { nodeId: node.id, from: node.id, to: name },
      ),
    );
  const kept = node.name;
  if (kept !== undefined && name !== kept)
    warnings.add("node name", () =>
      omitted(
        at("name"),
        `node '${node.id}': name '${kept}' left out: ${isWritableName(kept) ? "written as the node's name, it would share its implementation name with another node, or an import would read it back as another id" : "langgraph-gen takes no such node name"}`,
        { nodeId: node.id, name: kept },
      ),
    );
  // An import reads every spec node as a tool on `tool:langgraph.node.<id>@0.0.0`: a tool node
  // on that ref comes back as it went; any other ref is a config loss, declared below.
  const back = functionToolRef(node.id);
  const { type } = node;
  if (type !== "tool")
    warnings.add(type === "llm" ? "llm node" : "decision node", () =>
      omitted(
        at("type"),
        type === "llm"
          ? `llm node '${node.id}' left out as an llm node: the spec has no node kinds; an import reads it as a tool step of unknown effect on '${back}'`
          : `decision '${node.id}' is written as a node (it is the entry, or no single step leads to it); an import reads it as a tool step of unknown effect on '${back}' followed by its conditional edge`,
        { nodeId: node.id },
      ),
    );
  const synthesised =
    node.type === "llm"
      ? { model: LANGGRAPH_UNSTATED_MODEL, promptRef: `prm:${node.id}@${PLACEHOLDER_VERSION}` }
      : { usesTool: back };
  declareNodeFields(node, i, synthesised, "the spec", warnings);
  return { name };
}

/**
 * Exports a workflow to a `langgraph-gen` spec. Never throws. Every name is one langgraph-gen
 * 0.0.6 turns into a stub that loads (`names.ts`): the workflow's name as an identifier, node
 * names free of `:`, router functions that no node shares; each rename is a `VALUE_NORMALIZED`
 * warning. Losses (`NOT_EXPORTABLE`): `autonomyLevel` always, identity and schemas, then node by
 * node (each decision with the edges leaving it), then the other edges.
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
 * //     name: "Document_Review_Agent",
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
  const stub = stubName(wf.name);
  const synthesisedId = `langgraph-gen-${baseId(stub)}`;
  declareTop(
    wf,
    "the spec",
    {
      id: synthesisedId,
      name: stub,
      version: PLACEHOLDER_VERSION,
      inputSchema: { state: "any" },
      outputSchema: { state: "any" },
    },
    new Set(["name"]),
    warnings,
  );
  if (stub !== wf.name)
    warnings.add("graph name", () =>
      normalized(
        "/name",
        `name ${JSON.stringify(wf.name)} written as '${stub}': langgraph-gen writes the spec's name as the stub function's name, in Python and TypeScript`,
        { from: wf.name, to: stub },
      ),
    );
  const routesOf = routesOnce();
  const plan = planDecisions(wf, false, routesOf);
  const outOf = flowEdgesFrom(wf);
  const steps = new Set(wf.nodes.filter((n) => !plan.has(n.id)).map((n) => n.id));
  const written = wf.nodes
    .filter((n) => plan.get(n.id)?.source === undefined || n.type !== "decision")
    .map((n) => ({ id: n.id, wanted: n.name }));
  const { names: writtenNames, specNames: names } = nodeNames(written, stub);
  const nameOf = new Map<string, string>();
  written.forEach(({ id }, k) => {
    if (!nameOf.has(id)) nameOf.set(id, writtenNames[k] ?? id);
  });
  const mapped = (id: string): string => nameOf.get(id) ?? id;
  // The first node of each id, as the routes resolve it.
  const keptNames = new Map<string, string | undefined>();
  for (const n of wf.nodes) if (!keptNames.has(n.id)) keptNames.set(n.id, n.name);
  const spelling: Spelling = { kept: (id) => keptNames.get(id), written: mapped };
  let count = 0;
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
        names,
        spelling,
        warnings,
      );
      groups.set(place.source, edge);
      return;
    }
    nodes.push(step(node, i, writtenNames[count] ?? node.id, warnings));
    count += 1;
    if (node.type === "decision")
      own.push(
        conditional(
          outOf(node.id),
          node,
          routesOf(node),
          i,
          node.id,
          steps,
          names,
          spelling,
          warnings,
        ),
      );
  });
  const plain = writeEdges(
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
            return omitted(pointer("edges", j, "when"), message, { when });
          });
        return { from: e.from, to: e.to };
      },
      end: (from) => ({ from, to: END }),
    },
    warnings,
  );
  const edges = [...plain.edges, ...own, ...plain.ends].map((e) => named(e, mapped));
  if (wf.nodes.length === 0)
    warnings.add("no node", () =>
      omitted(
        "/nodes",
        "the workflow has no node; the spec's entrypoint is empty, which an import refuses",
      ),
    );
  const [entry] = wf.nodes;
  const document: LangGraphGenDocument = {
    name: stub,
    entrypoint: entry === undefined ? "" : mapped(entry.id),
    nodes,
    edges,
  };
  return { document, warnings: warnings.list() };
}
