/**
 * AgentOS edges → agentflow flow. Static edges become `data` edges; the `__START__` edge picks
 * the entry; `__END__` becomes the end of the run. A router's out-edges become the routes of its
 * decision, and a node's personality or discovery edges become an inserted binary decision; all
 * of these conditions are text (they read AgentOS state, never `output`), declared, and each
 * route leads on past the targets it skips (`skipped.ts`). An `addConditionalEdge` placeholder
 * becomes an inserted decision over every node (`conditional.ts`).
 */
import { pointer } from "../../model/index.js";
import { appendTo } from "../edge-index.js";
import { describeValue, isRecord, own } from "../json.js";
import type { InteropWarning } from "../types.js";
import { dropped } from "../warnings.js";
import { anywhere, edgeId, isPlaceholder, placeholder } from "./conditional.js";
import { discovery, personality } from "./inserted.js";
import { readAsFanOut } from "./router-fanout.js";
import type { Ends } from "./router-routes.js";
import { routes } from "./router-routes.js";
import { binaryRoutes, leadOnPastSkips } from "./skipped.js";
import type { Choice, Draft, Edge, MappedNode } from "./types.js";
import { CONDITIONAL, END, fail, START } from "./types.js";

/** What the edges contribute to the workflow. */
export interface MappedFlow {
  readonly edges: Draft[];
  /**
   * Nodes inserted: the decisions of personality, discovery and placeholder edges, in edge order,
   * then the steps that lead a route on past the targets it skips.
   */
  readonly inserted: Draft[];
  /** The source id of the `__START__` edge's target. */
  readonly entry: string;
}

const KEYS: ReadonlyMap<string, readonly string[]> = new Map([
  ["static", []],
  ["conditional", ["condition"]],
  ["discovery", ["discoveryQuery", "discoveryKind", "discoveryFallback"]],
  ["personality", ["personalityCondition"]],
]);
const COMMON = ["id", "source", "target", "type"];

function readEdge(raw: unknown, i: number, warnings: InteropWarning[]): Edge {
  if (!isRecord(raw))
    throw fail(pointer("edges", i), `an edge must be an object, found ${describeValue(raw)}`);
  const [source = "", target = ""] = ["source", "target"].map((key) => {
    const value = own(raw, key);
    if (typeof value !== "string")
      throw fail(
        pointer("edges", i, key),
        `an edge needs a string ${key}, found ${describeValue(value)}`,
      );
    return value;
  });
  const type = own(raw, "type");
  const known = typeof type === "string" ? KEYS.get(type) : undefined;
  if (known === undefined) {
    throw fail(
      pointer("edges", i, "type"),
      `edge ${i} has type ${describeValue(type)}; expected static, conditional, discovery or personality`,
    );
  }
  for (const key of Object.keys(raw)) {
    if (COMMON.includes(key) || known.includes(key)) continue;
    const value = own(raw, key);
    if (
      key === "guardrailPolicy" &&
      isRecord(value) &&
      (own(value, "onViolation") === "reroute" || own(value, "rerouteTarget") !== undefined)
    ) {
      throw fail(
        pointer("edges", i, key),
        `edge ${i} reroutes on a guardrail violation; that path has no agentflow form`,
      );
    }
    warnings.push(
      dropped(
        pointer("edges", i, key),
        `edge ${i} ('${source}' -> '${target}'): '${key}' has no agentflow form`,
        { key },
      ),
    );
  }
  return { i, source, target, type: type as string, raw };
}

/**
 * Refuses a node no edge leads to (the `__START__` target aside): AgentOS runs every node whose
 * predecessors are all done, so one with none runs at the start beside the `__START__` target,
 * where agentflow, with one entry, would read it as never running — its effects unseen.
 */
function startsUnled(
  nodes: ReadonlyMap<string, MappedNode>,
  all: readonly Edge[],
  entry: string,
): void {
  // A placeholder (`addConditionalEdge`) may lead to any node: none is known to be unled.
  if (all.some(isPlaceholder)) return;
  const led = new Set(all.map((edge) => edge.target));
  for (const node of nodes.values()) {
    if (node.sourceId === entry || led.has(node.sourceId)) continue;
    throw fail(
      pointer("nodes", node.index),
      `no edge leads to node '${node.sourceId}': AgentOS runs it at the start, beside the ${START} target '${entry}', and agentflow has one entry node (lead the ${START} edge to one node and on from it to the others)`,
      node.sourceId,
    );
  }
}

/** Builds the flow from the edges; `nodes` is keyed by source id. */
export function readFlow(
  rawEdges: readonly unknown[],
  nodes: ReadonlyMap<string, MappedNode>,
  warnings: InteropWarning[],
): MappedFlow {
  const all = rawEdges.map((e, i) => readEdge(e, i, warnings));
  const resolve = (name: string, edge: Edge, key = "target"): string => {
    if (name === END) return "end";
    if (name === CONDITIONAL) {
      throw fail(
        pointer("edges", edge.i, key),
        `${CONDITIONAL} is the placeholder target of a conditional edge (addConditionalEdge); as the ${key} of a ${edge.type} edge it names no node`,
        edgeId(edge),
      );
    }
    const node = nodes.get(name);
    if (node === undefined)
      throw fail(
        pointer("edges", edge.i, key),
        `edge ${edge.i} names an unknown node ${describeValue(name)}`,
      );
    return node.nodeId;
  };
  const groups = new Map<string, Edge[]>();
  for (const edge of all) {
    if (edge.target === START)
      throw fail(pointer("edges", edge.i, "target"), `edge ${edge.i} leads into ${START}`);
    if (edge.source === END)
      throw fail(pointer("edges", edge.i, "source"), `edge ${edge.i} leaves ${END}`);
    if (edge.source !== START && !nodes.has(edge.source)) {
      throw fail(
        pointer("edges", edge.i, "source"),
        `edge ${edge.i} names an unknown node ${describeValue(edge.source)}`,
      );
    }
    appendTo(groups, edge.source, edge);
  }
  const starts = groups.get(START) ?? [];
  const [first, second] = starts;
  if (first === undefined)
    throw fail("/edges", `the graph has no ${START} edge, so no node would run`);
  if (second !== undefined || first.type !== "static") {
    throw fail(
      pointer("edges", (second ?? first).i),
      `exactly one static ${START} edge is required: agentflow has one entry node`,
    );
  }
  if (resolve(first.target, first) === "end") endsAtOnce(first);
  startsUnled(nodes, all, first.target);
  const out: MappedFlow = { edges: [], inserted: [], entry: first.target };
  const targets = anywhere(nodes);
  const idOf = (sourceId: string): string => nodes.get(sourceId)?.nodeId ?? sourceId;
  const choices: Choice[] = [];
  for (const [source, group] of groups) {
    if (source === START) continue;
    const node = nodes.get(source);
    if (node === undefined) continue;
    const ends = { resolve, targets, idOf };
    const choice =
      node.sourceType === "router" && !readAsFanOut(node, group, warnings)
        ? routes(node, group, ends, out.edges, warnings)
        : plain(node, group, ends, out, warnings);
    if (choice !== undefined) choices.push(choice);
  }
  for (const node of nodes.values()) {
    if (node.sourceType === "router" && !groups.has(node.sourceId)) {
      throw fail(
        pointer("nodes", node.index),
        `router '${node.sourceId}' has no outgoing edge to route to`,
        node.sourceId,
      );
    }
  }
  const used = new Set([...nodes.values()].map((n) => n.nodeId));
  for (const node of out.inserted) used.add(String(node.id));
  const steps: Draft[] = [];
  leadOnPastSkips({
    choices,
    edges: all,
    nodes,
    used,
    sink: { edges: out.edges, steps },
    warnings,
  });
  // The steps before the inserted decisions: an export writes them as nodes (routers), and the
  // decisions as edges, so reading the export back gives the same order.
  return { ...out, inserted: [...steps, ...out.inserted] };
}

function endsAtOnce(edge: Edge): never {
  throw fail(
    pointer("edges", edge.i, "target"),
    `the ${START} edge leads straight to ${END}; no node would run`,
  );
}

/** A node's other out-edges; returns the choice of a personality or discovery decision. */
function plain(
  node: MappedNode,
  all: readonly Edge[],
  ends: Ends,
  out: MappedFlow,
  warnings: InteropWarning[],
): Choice | undefined {
  const from = node.nodeId;
  const { resolve } = ends;
  const held = all.filter(isPlaceholder);
  const group = held.length === 0 ? all : all.filter((edge) => !isPlaceholder(edge));
  held.forEach((edge, k) => {
    const id = held.length === 1 ? `${from}.conditional` : `${from}.conditional-${String(k + 1)}`;
    out.inserted.push(placeholder(node, edge, id, ends.targets, ends.idOf, warnings));
    out.edges.push({ from, to: id, edgeType: "data" });
  });
  const [first] = group;
  if (first === undefined) return undefined;
  // A placeholder's decision runs beside static edges (AgentOS follows both), not beside a
  // personality or discovery choice, which would need two decisions in one.
  const branching = first.type === "personality" || first.type === "discovery";
  const odd =
    branching && held[0] !== undefined ? held[0] : group.find((edge) => edge.type !== first.type);
  if (odd !== undefined) {
    throw fail(
      pointer("edges", odd.i),
      `node '${node.sourceId}' mixes ${first.type} and ${isPlaceholder(odd) ? CONDITIONAL : odd.type} out-edges, which have no single agentflow form`,
      node.sourceId,
    );
  }
  if (first.type === "conditional") {
    throw fail(
      pointer("edges", first.i),
      `conditional edge from '${node.sourceId}' to a named target, and '${node.sourceId}' is not a router; only routers choose between named routes`,
      node.sourceId,
    );
  }
  if (first.type === "static") {
    const toEnd = group.filter((e) => e.target === END);
    for (const edge of group) {
      const to = resolve(edge.target, edge);
      if (to !== "end") out.edges.push({ from, to, edgeType: "data" });
      else if (toEnd.length < all.length) {
        warnings.push(
          dropped(
            pointer("edges", edge.i),
            `edge ${edge.i}: '${node.sourceId}' -> ${END} beside other out-edges; agentflow ends a run where no edge leads on`,
            { nodeId: node.sourceId },
          ),
        );
      }
    }
    return undefined;
  }
  const id = `${from}.${first.type}`;
  const decision =
    first.type === "personality"
      ? personality(node, group, resolve, warnings, id)
      : discovery(node, group, resolve, warnings, id);
  out.inserted.push(decision);
  out.edges.push({ from, to: id, edgeType: "data" });
  return {
    node,
    decisionId: id,
    label: `the ${first.type} decision '${id}' of node '${node.sourceId}'`,
    targets: group.map((edge) => resolve(edge.target, edge)),
    routes: binaryRoutes(decision),
    documentedAt: undefined,
  };
}
