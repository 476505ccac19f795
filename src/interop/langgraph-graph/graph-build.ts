/**
 * Building the workflow draft from a checked drawable graph: steps become llm / tool nodes (a
 * function node is a tool of unknown effect, `classify.ts`), each router (two or more conditional
 * out-edges) becomes a text decision placed after its source, sentinels become the entry and
 * `"end"`. Every guess is pushed as a warning, in a fixed order.
 */
import { pointer } from "../../model/index.js";
import { appendTo } from "../edge-index.js";
import type { Draft } from "../pipeline.js";
import type { InteropWarning } from "../types.js";
import { allocateId, renamedId } from "../ids.js";
import { dropped, guessed } from "../warnings.js";
import type { Classification } from "./classify.js";
import { classify, functionToolRef, SUBGRAPH_TOOL } from "./classify.js";
import type { SourceEdge, SourceNode } from "./graph-read.js";
import { PLACEHOLDER_VERSION } from "./graph-types.js";
import { baseId } from "./ids.js";
import { entryFork } from "./entry-fork.js";
import { declareHiddenRoutes, readHiddenRoutes } from "./hidden-routes.js";
import type { RouterPlan } from "./routers.js";
import { planRouters } from "./routers.js";
import { routerJunctions, subgraphOf } from "./subgraph-inline.js";
import { LANGGRAPH_UNSTATED_MODEL } from "../../model/internal.js";

/** What {@link buildWorkflow} needs: the checked graph and the ids of its steps. */
export interface BuildInput {
  readonly steps: readonly SourceNode[];
  readonly edges: readonly SourceEdge[];
  readonly ids: ReadonlyMap<SourceNode, string>;
  /** Ids taken so far; decision ids are allocated into it. */
  readonly used: Set<string>;
  readonly warnings: InteropWarning[];
}

/** The identity and schemas the drawable graph lacks; the version marks them as placeholders. */
export const SYNTHESISED = Object.freeze({
  id: "langgraph-graph",
  name: "LangGraph graph",
  version: "0.0.0",
  inputSchema: Object.freeze({ state: "any" }),
  outputSchema: Object.freeze({ state: "any" }),
});

/**
 * The `name` a step keeps: its LangGraph id whenever the agentflow id differs, so the id is never
 * lost. A `data.name` never replaces it: it is kept only when it spells the same id (`search_tool`
 * for `search-tool`, what the export writes back); any other (`LangGraph` for a compiled subgraph,
 * `func` for a ToolNode) is declared dropped.
 */
function nameOf(node: SourceNode, id: string, warnings: InteropWarning[]): { name?: string } {
  const raw = node.name;
  const spelled = node.dataName !== undefined && baseId(node.dataName) === id;
  if (raw === id && spelled) return { name: node.dataName ?? raw };
  if (node.dataName !== undefined) {
    const message = `node '${raw}': its runnable name '${node.dataName}' is not kept; the node keeps its LangGraph id '${raw}'`;
    warnings.push(
      dropped(pointer("nodes", node.index, "data", "name"), message, {
        nodeId: id,
        key: "name",
        name: node.dataName,
      }),
    );
  }
  return raw === id ? {} : { name: raw };
}

/**
 * A function node (or any runnable the graph does not type): its code is not in the graph, and it
 * may call a model as well as move money, so it is a tool step on `tool:langgraph.node.<id>@0.0.0`
 * ({@link functionToolRef}), whose effect is unknown (and the gate verdict strict) until a contract
 * of that ref states it; the ref's family tells a reader of facts that it may call any model.
 * One warning says so, with the ref: no second placeholder warning at `/data`.
 */
function functionNode(
  node: SourceNode,
  id: string,
  c: Classification,
  warnings: InteropWarning[],
): Draft {
  const usesTool = functionToolRef(id);
  const what = c.className === undefined ? "no class path" : `'${c.className}'`;
  const message = `node '${node.name}' (${what}) is read as a tool node: the graph does not say what its function does (it may call a model, tools, or anything), so it is read as a tool step whose contract '${usesTool}' must state its effect; until one does, its effect is unknown and the gate verdict strict, and the models it may call are unknown`;
  const cls = c.className === undefined ? {} : { className: c.className };
  warnings.push(guessed(c.path, message, { nodeId: id, assumed: usesTool, ...cls }));
  return { id, type: "tool", ...nameOf(node, id, warnings), config: { usesTool } };
}

function stepNode(node: SourceNode, id: string, warnings: InteropWarning[]): Draft {
  const i = node.index;
  // The LangGraph name: the id, or a numbered node's runnable name (`SourceNode.numbered`).
  const raw = node.name;
  const from = node.numbered === undefined ? node.rawId : raw;
  if (id !== raw) warnings.push(renamedId(pointer("nodes", i, "id"), "node id", from, id));
  const colon = raw.lastIndexOf(":");
  if (colon > 0) {
    const subgraph = raw.slice(0, colon);
    const message = `node '${raw}' belongs to the subgraph '${subgraph}', which is flattened into the workflow`;
    warnings.push(guessed(pointer("nodes", i, "id"), message, { nodeId: id, subgraph }));
  }
  const c = classify(node.data, node.name, i);
  if (c.reading === "subgraph") {
    // One warning, as AgentOS's subgraph node: the ref is documented, not a per-node placeholder.
    const message = `node '${raw}' is read as a tool node: ${c.guess ?? ""}`;
    const data = { nodeId: id, assumed: SUBGRAPH_TOOL, subgraph: c.className };
    warnings.push(guessed(c.path, message, data));
    return { id, type: "tool", ...nameOf(node, id, warnings), config: { usesTool: SUBGRAPH_TOOL } };
  }
  if (c.reading === "function") return functionNode(node, id, c, warnings);
  if (c.guess !== undefined) {
    const message = `node '${raw}' is read as ${c.type === "llm" ? "an llm" : "a tool"} node: ${c.guess}`;
    warnings.push(guessed(c.path, message, { nodeId: id, assumed: c.type }));
  }
  const config =
    c.type === "tool"
      ? { usesTool: `tool:${id}@${PLACEHOLDER_VERSION}` }
      : { model: LANGGRAPH_UNSTATED_MODEL, promptRef: `prm:${id}@${PLACEHOLDER_VERSION}` };
  const what = c.type === "tool" ? "its tool contract ref" : "its model and prompt ref";
  const message = `node '${raw}': the graph does not say ${what}; placeholders are synthesised (bind them before review)`;
  warnings.push(guessed(pointer("nodes", i, "data"), message, { nodeId: id, assumed: config }));
  return { id, type: c.type, ...nameOf(node, id, warnings), config };
}

/** The wired edges, the entry, each source's flow successors, and the edges into `__end__`. */
interface Wiring {
  readonly edges: Draft[];
  readonly entry: string | undefined;
  readonly successors: ReadonlyMap<SourceNode, readonly string[]>;
  readonly endEdges: readonly SourceEdge[];
}

function wire(
  input: BuildInput,
  plans: ReadonlyMap<SourceNode, RouterPlan>,
  nextOf: (n: SourceNode) => string,
  fork: string | undefined,
): Wiring {
  const { edges, warnings } = input;
  const out: Draft[] = [];
  const successors = new Map<SourceNode, string[]>();
  const endEdges: SourceEdge[] = [];
  // Decisions already wired to their source: a set, not a search of `next` per edge.
  const routed = new Set<string>();
  for (const e of edges) {
    const from = e.from.sentinel === "start" ? fork : nextOf(e.from);
    const next = successors.get(e.from) ?? [];
    successors.set(e.from, next);
    const plan = plans.get(e.from);
    if (e.conditional && plan !== undefined) {
      const dId = plan.via.get(e);
      // A branch into __end__ of a router read as several branches: declared by `routers.ts`.
      if (dId === undefined) continue;
      if (!routed.has(dId)) {
        routed.add(dId);
        next.push(dId);
        // A router sentinel's decision stands where the sentinel stood: no edge to itself.
        if (from !== undefined && from !== dId) out.push({ from, to: dId, edgeType: "data" });
      }
      if (e.to.sentinel !== "end") {
        out.push({
          from: dId,
          to: nextOf(e.to),
          edgeType: "data",
          when: e.label ?? String(e.to.rawId),
        });
      }
      continue;
    }
    if (e.conditional) {
      const message = `edge ${String(e.index)} is the only conditional edge of '${String(e.from.rawId)}', so it is always taken`;
      warnings.push(guessed(pointer("edges", e.index, "conditional"), message, { assumed: false }));
    }
    const to = nextOf(e.to);
    if (to === "end") endEdges.push(e);
    else next.push(to);
    if (from !== undefined && to !== "end") {
      out.push({ from, to, edgeType: "data", ...(e.label === undefined ? {} : { when: e.label }) });
    } else if (e.label !== undefined) {
      const message = `edge ${String(e.index)}: its label is not kept (an edge from __start__ or into __end__ has no agentflow edge)`;
      warnings.push(dropped(pointer("edges", e.index, "data"), message, { key: "data" }));
    }
  }
  const start = [...successors].find(([n]) => n.sentinel === "start");
  return { edges: out, entry: fork ?? start?.[1][0], successors, endEdges };
}

/** Fan-outs LangGraph runs in parallel, and `__end__` edges beside other successors, declared. */
function declareFanOut(wiring: Wiring, warnings: InteropWarning[]): void {
  for (const [node, next] of wiring.successors) {
    if (next.length < 2) continue;
    const raw = String(node.rawId);
    // The entry's fan-out is declared with its inserted node (see `entryFork`).
    if (node.sentinel === "start") continue;
    const message = `LangGraph runs the ${String(next.length)} successors of '${raw}' in parallel; agentflow reads them in edge order`;
    warnings.push(
      guessed(pointer("nodes", node.index), message, { nodeId: raw, successors: next }),
    );
  }
  for (const e of wiring.endEdges) {
    if ((wiring.successors.get(e.from) ?? []).length === 0) continue;
    const message = `edge ${String(e.index)} into __end__ is not kept: '${String(e.from.rawId)}' has other successors, and agentflow ends a run only where a node has none`;
    warnings.push(
      dropped(pointer("edges", e.index), message, { from: e.from.rawId, to: "__end__" }),
    );
  }
}

/**
 * The step nodes with each decision right after the node whose id it follows (a decision with
 * no such node, the router of `__start__`, goes first); a later decision for the same place goes
 * before an earlier one. One pass: inserting each decision with a search and a splice is
 * quadratic for 100,000 routers.
 */
export function placeDecisions(
  nodes: readonly Draft[],
  decisions: readonly (readonly [string, Draft])[],
): Draft[] {
  const ids = new Set(nodes.map((n) => n.id));
  const after = new Map<unknown, Draft[]>();
  const front: Draft[] = [];
  for (const [id, decision] of decisions) {
    if (ids.has(id)) appendTo(after, id, decision);
    else front.push(decision);
  }
  const placed = front.reverse();
  for (const node of nodes) {
    placed.push(node);
    for (const decision of (after.get(node.id) ?? []).reverse()) placed.push(decision);
  }
  return placed;
}

/** The id a subgraph sentinel's router decision asks for: `sub.route`, `sub:start.route`. */
function junctionRouteId(j: SourceNode): string {
  const sub = baseId(subgraphOf(j));
  return j.sentinel === "entry" ? `${sub}:start.route` : `${sub}.route`;
}

/** Builds the workflow draft (identity, nodes, edges); the caller parses it. */
export function buildWorkflow(drawn: BuildInput): Draft {
  const { steps, ids, warnings } = drawn;
  const message =
    "the drawable graph has no id, name, version or schemas; placeholders are synthesised";
  warnings.push(guessed("", message, { assumed: SYNTHESISED }));
  // Steps the drawing reaches by no edge are a router's undrawn branches (`hidden-routes.ts`).
  const hidden = readHiddenRoutes(steps, drawn.edges);
  const input = hidden === undefined ? drawn : { ...drawn, edges: hidden.edges };
  // A subgraph sentinel a router leaves stands for that router's decision (`subgraph-inline.ts`).
  const junctionIds = new Map<SourceNode, string>();
  for (const j of routerJunctions(input.edges))
    junctionIds.set(j, allocateId(junctionRouteId(j), input.used));
  const nextOf = (n: SourceNode): string =>
    n.sentinel === "end" ? "end" : (junctionIds.get(n) ?? ids.get(n) ?? "end");
  // Steps first, then routers: their warnings come in that order.
  const stepNodes = steps.map((step) => stepNode(step, nextOf(step), warnings));
  const plans = planRouters({ ...input, nextOf, junctionIds });
  if (hidden !== undefined) declareHiddenRoutes(hidden, plans, nextOf, warnings);
  // A sentinel's decision goes after the first step that leads into it (one pass over the edges).
  const firstInto = new Map<SourceNode, SourceNode>();
  for (const e of input.edges)
    if (junctionIds.has(e.to) && e.from.sentinel === undefined && !firstInto.has(e.to))
      firstInto.set(e.to, e.from);
  const anchorOf = (from: SourceNode): string => {
    if (!junctionIds.has(from)) return nextOf(from);
    const before = firstInto.get(from);
    return before === undefined ? "" : nextOf(before);
  };
  const nodes = placeDecisions(
    stepNodes,
    // `placeDecisions` puts a later decision for one place first: a plan's are given reversed.
    [...plans].flatMap(([from, plan]) =>
      [...plan.decisions].reverse().map((d): [string, Draft] => [anchorOf(from), d]),
    ),
  );
  const fork = entryFork(input, plans);
  if (fork !== undefined) nodes.unshift(fork);
  const wiring = wire(input, plans, nextOf, fork === undefined ? undefined : String(fork.id));
  declareFanOut(wiring, warnings);
  // The model's entry is the first node with no forward predecessor: put LangGraph's first.
  const entryAt = nodes.findIndex((n) => n.id === wiring.entry);
  if (entryAt > 0) nodes.unshift(...nodes.splice(entryAt, 1));
  return {
    kind: "AgentWorkflow",
    id: SYNTHESISED.id,
    version: SYNTHESISED.version,
    name: SYNTHESISED.name,
    autonomyLevel: 1,
    inputSchema: { ...SYNTHESISED.inputSchema },
    outputSchema: { ...SYNTHESISED.outputSchema },
    nodes,
    edges: wiring.edges,
  };
}
