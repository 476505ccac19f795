/**
 * Building the workflow draft from a checked drawable graph: steps become llm / tool nodes, each
 * router (two or more conditional out-edges) becomes a text decision placed after its source,
 * sentinels become the entry and `"end"`. Every guess is pushed as a warning, in a fixed order.
 */
import { pointer } from "../../model/index.js";
import { appendTo } from "../edge-index.js";
import type { InteropWarning } from "../types.js";
import { HEURISTIC, VALUE_NORMALIZED } from "../types.js";
import { classify } from "./classify.js";
import type { SourceEdge, SourceNode } from "./graph-read.js";
import { dropped } from "./graph-read.js";
import { allocateId, baseId } from "./ids.js";

/** A workflow under construction: plain data, parsed by the model before it is returned. */
export type Draft = Record<string, unknown>;

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

/** The version of every synthesised tool and prompt ref: `0.0.0` says "not reviewed yet". */
const PLACEHOLDER_VERSION = "0.0.0";

function guessed(path: string, message: string, data: Record<string, unknown>): InteropWarning {
  return { code: HEURISTIC, message, path, data };
}

/**
 * The `name` a step keeps: its LangGraph id whenever the agentflow id differs, so the id is never
 * lost. A `data.name` never replaces it: it is kept only when it spells the same id (`search_tool`
 * for `search-tool`, what the export writes back); any other (`LangGraph` for a compiled subgraph,
 * `func` for a ToolNode) is declared dropped.
 */
function nameOf(node: SourceNode, id: string, warnings: InteropWarning[]): { name?: string } {
  const raw = String(node.rawId);
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

function stepNode(node: SourceNode, id: string, warnings: InteropWarning[]): Draft {
  const i = node.index;
  const raw = String(node.rawId);
  if (id !== raw) {
    warnings.push({
      code: VALUE_NORMALIZED,
      message: `node id '${raw}' is not a valid agentflow id; it is read as '${id}'`,
      path: pointer("nodes", i, "id"),
      data: { from: node.rawId, to: id },
    });
  }
  const colon = raw.lastIndexOf(":");
  if (colon > 0) {
    const subgraph = raw.slice(0, colon);
    const message = `node '${raw}' belongs to the subgraph '${subgraph}', which is flattened into the workflow`;
    warnings.push(guessed(pointer("nodes", i, "id"), message, { nodeId: id, subgraph }));
  }
  const c = classify(node.data, node.name, i);
  if (c.guess !== undefined) {
    const message = `node '${raw}' is read as ${c.type === "llm" ? "an llm" : "a tool"} node: ${c.guess}`;
    warnings.push(guessed(c.path, message, { nodeId: id, assumed: c.type }));
  }
  const config =
    c.type === "tool"
      ? { usesTool: `tool:${id}@${PLACEHOLDER_VERSION}` }
      : { model: "unspecified", promptRef: `prm:${id}@${PLACEHOLDER_VERSION}` };
  const what = c.type === "tool" ? "its tool contract ref" : "its model and prompt ref";
  const message = `node '${raw}': the graph does not say ${what}; placeholders are synthesised (bind them before review)`;
  warnings.push(guessed(pointer("nodes", i, "data"), message, { nodeId: id, assumed: config }));
  return { id, type: c.type, ...nameOf(node, id, warnings), config };
}

/** The conditional out-edges of each source, in edge order; sources in order of first edge. */
function routers(edges: readonly SourceEdge[]): Map<SourceNode, SourceEdge[]> {
  const groups = new Map<SourceNode, SourceEdge[]>();
  for (const e of edges) {
    if (!e.conditional) continue;
    const group = groups.get(e.from) ?? [];
    group.push(e);
    groups.set(e.from, group);
  }
  for (const [from, group] of [...groups]) if (group.length < 2) groups.delete(from);
  return groups;
}

function labelOf(e: SourceEdge, warnings: InteropWarning[]): string {
  if (e.label !== undefined) return e.label;
  const label = String(e.to.rawId);
  const message = `conditional edge ${String(e.index)} has no branch label; the router's return value, the target name '${label}', is used`;
  warnings.push(guessed(pointer("edges", e.index, "data"), message, { assumed: label }));
  return label;
}

/** One text decision per router, allocated in the order of each router's first edge. */
function routerDecisions(
  input: BuildInput,
  nextOf: (n: SourceNode) => string,
): Map<SourceNode, Draft> {
  const { edges, used, warnings } = input;
  const decisions = new Map<SourceNode, Draft>();
  for (const [from, group] of routers(edges)) {
    const id = allocateId(
      from.sentinel === "start" ? "start.route" : `${nextOf(from)}.route`,
      used,
    );
    const labels = group.map((e) => labelOf(e, warnings));
    const otherwise = labels.at(-1) ?? "";
    const message = `the ${String(group.length)} conditional edges of '${String(from.rawId)}' become the text decision '${id}' (a router's choice, never simulable); the last branch '${otherwise}' is its otherwise route`;
    warnings.push(
      guessed(pointer("nodes", from.index), message, { nodeId: id, from: from.rawId, otherwise }),
    );
    const routes = group.map((e, k) => ({ condition: labels[k] ?? "", next: nextOf(e.to) }));
    const last = routes.pop();
    const config = {
      conditionLanguage: "text",
      cases: routes,
      otherwise: { next: last?.next ?? "end" },
    };
    decisions.set(from, { id, type: "decision", config });
  }
  return decisions;
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
  decisions: ReadonlyMap<SourceNode, Draft>,
  nextOf: (n: SourceNode) => string,
  fork: string | undefined,
): Wiring {
  const { edges, warnings } = input;
  const out: Draft[] = [];
  const successors = new Map<SourceNode, string[]>();
  const endEdges: SourceEdge[] = [];
  // Sources already wired to their decision: a set, not a search of `next` per edge.
  const routed = new Set<SourceNode>();
  for (const e of edges) {
    const from = e.from.sentinel === "start" ? fork : nextOf(e.from);
    const next = successors.get(e.from) ?? [];
    successors.set(e.from, next);
    const decision = decisions.get(e.from);
    if (e.conditional && decision !== undefined) {
      const dId = String(decision.id);
      if (!routed.has(e.from)) {
        routed.add(e.from);
        next.push(dId);
        if (from !== undefined) out.push({ from, to: dId, edgeType: "data" });
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

/** How many flow successors `__start__` has: its plain edges to steps, and its router once. */
function entryOutDegree(
  edges: readonly SourceEdge[],
  decisions: ReadonlyMap<SourceNode, Draft>,
): number {
  let count = 0;
  let routed = false;
  for (const e of edges) {
    if (e.from.sentinel !== "start") continue;
    if (e.conditional && decisions.has(e.from)) {
      if (!routed) count += 1;
      routed = true;
    } else if (e.to.sentinel !== "end") count += 1;
  }
  return count;
}

/**
 * The node that stands for `__start__` when it has two or more successors (a parallel entry):
 * agentflow has one entry, so the fan-out starts from an inserted step with an edge to each
 * successor, read like any function node. Declared once, naming every successor.
 */
function entryFork(
  input: BuildInput,
  decisions: ReadonlyMap<SourceNode, Draft>,
): Draft | undefined {
  const { edges, used, warnings } = input;
  if (entryOutDegree(edges, decisions) < 2) return undefined;
  const start = edges.find((e) => e.from.sentinel === "start")?.from;
  if (start === undefined) return undefined;
  const id = allocateId("start", used);
  const targets: string[] = [];
  let routed = false;
  for (const e of edges) {
    if (e.from !== start) continue;
    const decision = e.conditional ? decisions.get(start) : undefined;
    if (decision !== undefined) {
      if (!routed) targets.push(String(decision.id));
      routed = true;
    } else if (e.to.sentinel !== "end") targets.push(String(e.to.rawId));
  }
  const config = { model: "unspecified", promptRef: `prm:${id}@${PLACEHOLDER_VERSION}` };
  const message = `__start__ starts ${String(targets.length)} branches in parallel (${targets.map((t) => `'${t}'`).join(", ")}); agentflow has one entry, so the inserted step '${id}' leads to each of them, and a simulation follows only the first, '${targets[0] ?? ""}'`;
  warnings.push(
    guessed(pointer("nodes", start.index), message, {
      nodeId: id,
      successors: targets,
      assumed: config,
    }),
  );
  return { id, type: "llm", name: "__start__", config };
}

/** Builds the workflow draft (identity, nodes, edges); the caller parses it. */
export function buildWorkflow(input: BuildInput): Draft {
  const { steps, ids, warnings } = input;
  const message =
    "the drawable graph has no id, name, version or schemas; placeholders are synthesised";
  warnings.push(guessed("", message, { assumed: SYNTHESISED }));
  const nextOf = (n: SourceNode): string => (n.sentinel === "end" ? "end" : (ids.get(n) ?? "end"));
  // Steps first, then routers: their warnings come in that order.
  const stepNodes = steps.map((step) => stepNode(step, nextOf(step), warnings));
  const decisions = routerDecisions(input, nextOf);
  const nodes = placeDecisions(
    stepNodes,
    [...decisions].map(([from, decision]) => [nextOf(from), decision]),
  );
  const fork = entryFork(input, decisions);
  if (fork !== undefined) nodes.unshift(fork);
  const wiring = wire(input, decisions, nextOf, fork === undefined ? undefined : String(fork.id));
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
