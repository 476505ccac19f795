/**
 * Import of the `langgraph-gen` spec. The spec names steps and wires them, nothing more: each node
 * is a function stub a developer fills with any code, so it is a tool step of unknown effect on
 * `tool:langgraph.node.<id>@0.0.0`; identity and schemas are synthesised by documented rules and
 * every guess is declared; a conditional edge becomes a text decision over its paths, never
 * simulable; `autonomyLevel` is the level the graph justifies.
 */
import { pointer } from "../../model/index.js";
import { allocateId, entryIds, renamedId } from "../ids.js";
import { describeValue, isRecord, own } from "../json.js";
import { functionToolRef } from "../langgraph-graph/classify.js";
import { placeDecisions } from "../langgraph-graph/graph-build.js";
import { PLACEHOLDER_VERSION } from "../langgraph-graph/graph-types.js";
import { baseId, LANGGRAPH_ID_PREFIX } from "../langgraph-graph/ids.js";
import type { Built, Draft } from "../pipeline.js";
import { defineImport } from "../pipeline.js";
import type { ImportResult, InteropWarning } from "../types.js";
import { dropped, guessed } from "../warnings.js";
import type { Build } from "./gen-build.js";
import { EDGE_KEYS, isConditional, link, readPaths, routeDecision, target } from "./gen-build.js";
import { readEntry } from "./gen-entry.js";
import { dropUnknown, fail, requireArray, requireString } from "./gen-read.js";
import { LANGGRAPH_GEN_FORMAT_ID } from "./gen-types.js";

const TOP_LEVEL_KEYS = new Set(["name", "entrypoint", "nodes", "edges"]);
const NODE_KEYS = new Set(["name"]);
/** The name langgraph-gen gives the Python stub of a spec without `name` (`generate.py`). */
export const STUB_NAME = "create_agent";

function readNode(raw: unknown, i: number, b: Build): void {
  const at = pointer("nodes", i);
  if (!isRecord(raw)) throw fail(at, `a node must be an object, found ${describeValue(raw)}`);
  const name = requireString(raw, "name", pointer("nodes", i, "name"));
  if (name === "__start__" || name === "__end__" || b.byName.has(name)) {
    throw fail(pointer("nodes", i, "name"), `node name '${name}' is reserved or repeated`, name);
  }
  dropUnknown(raw, NODE_KEYS, ["nodes", i], `node '${name}'`, b.warnings);
  const id = b.ids.get(name) ?? allocateId(baseId(name), b.used);
  b.byName.set(name, id);
  if (id !== name) b.warnings.push(renamedId(pointer("nodes", i, "name"), "node name", name, id));
  // A spec node is a stub the developer fills with any code: a model call, a tool, a payment. Read
  // as a model step it had no effect to gate; it is a step of unknown content (`classify.ts`).
  const config = { usesTool: functionToolRef(id) };
  const message = `node '${name}' is read as a tool node: the spec does not say what its function does (it may call a model, tools, or anything); a contract of '${config.usesTool}' states its effect, and until one does its effect is unknown and the gate verdict strict`;
  b.warnings.push(guessed(at, message, { nodeId: id, assumed: { type: "tool", config } }));
  // The spec name is the node's only label: a renamed node keeps it, and the export writes it back.
  b.nodes.push({ id, type: "tool", ...(id === name ? {} : { name }), config });
}

function readConditional(
  raw: Readonly<Record<string, unknown>>,
  i: number,
  from: string,
  b: Build,
): void {
  const condition = requireString(raw, "condition", pointer("edges", i, "condition"));
  const paths = readPaths(raw, i);
  const targets = paths.map((p, k) => target(p, pointer("edges", i, "paths", k), b));
  if (paths.length === 1) {
    const message = `edge ${String(i)}: '${condition}' has one path, '${paths[0] ?? ""}', so it is always taken`;
    b.warnings.push(guessed(pointer("edges", i, "paths"), message, { assumed: "plain" }));
    link(from, targets[0] ?? "end", i, b);
    return;
  }
  const id = allocateId(`${from}.route`, b.used);
  b.decisions.add(id);
  const otherwise = paths.at(-1) ?? "";
  const message = `the conditional edge of '${from}' ('${condition}') becomes the text decision '${id}' (never simulable); its last path '${otherwise}' is the otherwise route`;
  b.warnings.push(guessed(pointer("edges", i), message, { nodeId: id, condition, otherwise }));
  b.decisionsAfter.push([from, routeDecision(id, condition, paths, targets)]);
  link(from, id, i, b);
  for (const [k, p] of paths.entries()) link(id, targets[k] ?? "end", i, b, p);
}

function readEdge(raw: unknown, i: number, b: Build): void {
  if (!isRecord(raw))
    throw fail(pointer("edges", i), `an edge must be an object, found ${describeValue(raw)}`);
  const name = requireString(raw, "from", pointer("edges", i, "from"));
  // Edges from __start__ were read by readEntry: they give the entry.
  if (name === "__start__") return;
  dropUnknown(raw, EDGE_KEYS, ["edges", i], `edge ${String(i)}`, b.warnings);
  const conditional = isConditional(raw, i, name);
  const from = name === "__end__" ? undefined : b.byName.get(name);
  if (from === undefined)
    throw fail(pointer("edges", i, "from"), `edge names the unknown node '${name}'`, name);
  if (conditional) readConditional(raw, i, from, b);
  else
    link(
      from,
      target(requireString(raw, "to", pointer("edges", i, "to")), pointer("edges", i, "to"), b),
      i,
      b,
    );
}

/** Fan-outs LangGraph runs in parallel, and `__end__` edges beside other successors, declared. */
function declareFanOut(b: Build): void {
  for (const [node, next] of b.successors) {
    if (next.length < 2 || b.decisions.has(node)) continue;
    const message = `LangGraph runs the ${String(next.length)} successors of '${node}' in parallel; agentflow reads them in edge order`;
    b.warnings.push(guessed("/edges", message, { nodeId: node, successors: next }));
  }
  for (const e of b.endEdges) {
    // A decision's route to the end is one of its cases, kept as such.
    if (b.decisions.has(e.from) || (b.successors.get(e.from) ?? []).length === 0) continue;
    const message = `edge ${String(e.index)} into __end__ is not kept: '${e.from}' has other successors`;
    b.warnings.push(dropped(pointer("edges", e.index), message, { from: e.from }));
  }
}

function build(doc: unknown, warnings: InteropWarning[]): Built {
  if (!isRecord(doc))
    throw fail("", `a langgraph-gen spec must be an object, found ${describeValue(doc)}`);
  dropUnknown(doc, TOP_LEVEL_KEYS, [], "the spec", warnings);
  const named = own(doc, "name") === undefined ? undefined : requireString(doc, "name", "/name");
  const name = named ?? STUB_NAME;
  const rawNodes = requireArray(doc, "nodes");
  const rawEdges = requireArray(doc, "edges");
  const id = `langgraph-gen-${baseId(name)}`;
  const why =
    named === undefined
      ? `the spec has no name; langgraph-gen names its stub '${STUB_NAME}', and the workflow id '${id}' is derived from that`
      : `the workflow id '${id}' is derived from the spec name`;
  warnings.push(guessed("/name", why, { assumed: id }));
  warnings.push(
    guessed("", `the spec has no version; '${PLACEHOLDER_VERSION}' is synthesised`, {
      assumed: PLACEHOLDER_VERSION,
    }),
  );
  warnings.push(
    guessed("", "the spec has no schemas; { state: 'any' } is synthesised for input and output", {
      assumed: { state: "any" },
    }),
  );
  const ids = entryIds(rawNodes, "name", LANGGRAPH_ID_PREFIX);
  const b: Build = {
    ids,
    used: new Set(ids.values()),
    byName: new Map(),
    nodes: [],
    decisionsAfter: [],
    edges: [],
    successors: new Map(),
    endEdges: [],
    decisions: new Set(),
    warnings,
  };
  for (const [i, n] of rawNodes.entries()) readNode(n, i, b);
  const entry = readEntry(doc, rawEdges, b);
  for (const [i, e] of rawEdges.entries()) readEdge(e, i, b);
  declareFanOut(b);
  // The model's entry is the first node with no forward predecessor: put the spec's entry first.
  const nodes = placeDecisions(b.nodes, b.decisionsAfter);
  const at = nodes.findIndex((n) => n.id === entry);
  if (at > 0) nodes.unshift(...nodes.splice(at, 1));
  const draft: Draft = {
    kind: "AgentWorkflow",
    id,
    version: PLACEHOLDER_VERSION,
    name,
    autonomyLevel: 1,
    inputSchema: { state: "any" },
    outputSchema: { state: "any" },
    nodes,
    edges: b.edges,
  };
  return { draft };
}

const importGen = defineImport({ format: LANGGRAPH_GEN_FORMAT_ID, build });

/**
 * Imports a decoded `langgraph-gen` spec. Throws only {@link ImportError} (of format
 * `langgraph-gen`), naming the path and, for a node, its name.
 *
 * @example
 * ```ts
 * import { importLangGraphGen } from "agentflow/interop";
 *
 * const { workflow, warnings } = importLangGraphGen({
 *   name: "AgenticRag",
 *   entrypoint: "agent",
 *   nodes: [{ name: "agent" }, { name: "retrieve" }, { name: "generate" }],
 *   edges: [
 *     { from: "agent", to: "retrieve" },
 *     { from: "retrieve", to: "generate" },
 *     { from: "generate", to: "__end__" },
 *   ],
 * });
 * workflow.id; // → "langgraph-gen-AgenticRag"
 * workflow.edges.map((e) => `${e.from} → ${e.to}`); // → ["agent → retrieve", "retrieve → generate"]
 * // the spec names nodes only: each is a tool of unknown effect, and the schemas placeholders
 * workflow.nodes[0]?.config; // → { usesTool: "tool:langgraph.node.agent@0.0.0" }
 * warnings.map((w) => w.code); // → ["HEURISTIC", "HEURISTIC", "HEURISTIC", "HEURISTIC", "HEURISTIC", "HEURISTIC"]
 * ```
 */
export function importLangGraphGen(doc: unknown): ImportResult {
  return importGen(doc);
}
