/**
 * `graph` to nodes and edges. An agent whose transitions carry conditions gets a multi-way
 * decision node `<agent>-route` after it: one case per conditional edge (IR order), then per
 * conditional terminal, and its unconditional transition (or `end`, declared) as `otherwise`.
 * `config.max_iterations` is meant to bound every route that leads back into a loop (which
 * `import-bound.ts` then reads unbounded: the compiler's runtime never enforces it). Unconditional
 * transitions (fan-outs, the bounded loop, several beside conditions) are read by
 * `import-plain.ts`.
 */
import { adjacencyFromLists, analyzeCondition, pointer, tarjanScc } from "../../model/index.js";
import { appendTo } from "../edge-index.js";
import { describeValue, isRecord, own } from "../json.js";
import type { InteropWarning } from "../types.js";
import { allocateId } from "../ids.js";
import { conditionToFeel } from "./condition.js";
import type { PlainContext, Transition } from "./import-plain.js";
import { fallbackOf, wirePlain } from "./import-plain.js";
import { wireTools } from "./import-tools.js";
import type { ReadAgent } from "./import-agents.js";
import { fail } from "./ir-types.js";
import type { At, Obj } from "./read.js";
import { dropUnknown, needArray, needItem, needString } from "./read.js";
import { guessed } from "../warnings.js";

const EDGE_KEYS = new Set(["source", "target", "condition"]);
const TERMINAL_KEYS = new Set(["source", "condition"]);

/** The nodes and edges of the graph, and whether `max_iterations` bounded some route. */
export interface BuiltGraph {
  readonly nodes: readonly unknown[];
  readonly edges: readonly unknown[];
  readonly boundUsed: boolean;
}

function agentRef(raw: Obj, key: string, at: At, ids: ReadonlyMap<string, ReadAgent>): string {
  const id = needString(raw, key, at);
  if (!ids.has(id)) throw fail(pointer(...at, key), `'${id}' is not an agent id`, id);
  return id;
}

function readTransitions(
  graph: Obj,
  agents: ReadonlyMap<string, ReadAgent>,
  warnings: InteropWarning[],
): Map<string, Transition[]> {
  const out = new Map<string, Transition[]>();
  const add = (source: string, t: Transition): void => {
    appendTo(out, source, t);
  };
  needArray(graph, "edges", ["graph"]).forEach((item, i) => {
    const at = ["graph", "edges", i];
    const raw = needItem(item, at, `edge ${i}`);
    dropUnknown(raw, EDGE_KEYS, at, `edge ${i}`, warnings);
    const source = agentRef(raw, "source", at, agents);
    add(source, {
      target: agentRef(raw, "target", at, agents),
      condition: own(raw, "condition") ?? null,
      at,
    });
  });
  const terminals = needArray(graph, "terminals", ["graph"]);
  if (terminals.length === 0)
    throw fail("/graph/terminals", "the graph has no terminal: no agent connects to end");
  terminals.forEach((item, i) => {
    const at = ["graph", "terminals", i];
    // The seed writes a terminal as an agent id; the compiler as `{ source, condition }`.
    if (typeof item === "string") {
      if (!agents.has(item)) throw fail(pointer(...at), `'${item}' is not an agent id`, item);
      add(item, { target: undefined, condition: null, at });
      return;
    }
    const raw = needItem(item, at, `terminal ${i}`);
    dropUnknown(raw, TERMINAL_KEYS, at, `terminal ${i}`, warnings);
    add(agentRef(raw, "source", at, agents), {
      target: undefined,
      condition: own(raw, "condition") ?? null,
      at,
    });
  });
  return out;
}

/**
 * The loop test for a transition `from` → `to`: whether `to` leads back to `from`, i.e. both are
 * in one strongly connected component of the agent edges. The components are computed once
 * (Tarjan, iterative), so every test is a look-up: O(V+E) for the whole graph.
 */
function loopTest(
  agents: ReadonlyMap<string, ReadAgent>,
  transitions: ReadonlyMap<string, Transition[]>,
): (to: string, from: string) => boolean {
  const index = new Map([...agents.keys()].map((id, i) => [id, i]));
  const lists = [...agents.keys()].map((id) =>
    (transitions.get(id) ?? []).flatMap((t) => {
      const k = t.target === undefined ? undefined : index.get(t.target);
      return k === undefined ? [] : [k];
    }),
  );
  const { sccOf } = tarjanScc(adjacencyFromLists(lists));
  return (to, from) => {
    const a = index.get(to);
    const b = index.get(from);
    return a !== undefined && b !== undefined && sccOf[a] === sccOf[b];
  };
}

/** Context of the graph build. */
export interface GraphContext {
  readonly agents: ReadonlyMap<string, ReadAgent>;
  readonly order: readonly ReadAgent[];
  readonly variables: ReadonlySet<string>;
  readonly maxIterations: number | undefined;
  readonly warnings: InteropWarning[];
}

/** Builds the nodes (entrypoint first, each agent followed by its decisions) and the edges. */
export function buildGraph(graph: Obj, ctx: GraphContext): BuiltGraph {
  const transitions = readTransitions(graph, ctx.agents, ctx.warnings);
  const reaches = loopTest(ctx.agents, transitions);
  const taken = new Set(ctx.order.map((a) => String(a.node.id)));
  const nodes: unknown[] = [];
  const edges: unknown[] = [];
  let boundUsed = false;
  const nodeOf = (sourceId: string): string => String(ctx.agents.get(sourceId)?.node.id);
  const sourceOf = new Map(ctx.order.map((a) => [String(a.node.id), a.sourceId]));
  for (const agent of ctx.order) {
    const from = String(agent.node.id);
    const routed = routeAgent(
      agent,
      transitions.get(agent.sourceId) ?? [],
      {
        agentId: agent.sourceId,
        from,
        nodeOf,
        loopsBack: (target) => reaches(target, agent.sourceId),
        maxIterations: ctx.maxIterations,
        allocate: (wanted) => allocateId(wanted, taken),
        warnings: ctx.warnings,
      },
      ctx,
    );
    boundUsed ||= routed.boundUsed;
    const bound = (next: string): number | undefined => {
      const source = sourceOf.get(next);
      const loops =
        source === undefined
          ? routed.nodes.some((n) => isRecord(n) && own(n, "id") === next && boundsRoute(n))
          : reaches(source, agent.sourceId);
      return loops ? ctx.maxIterations : undefined;
    };
    const wired = wireTools({
      agentId: agent.sourceId,
      index: agent.index,
      from,
      tools: agent.tools,
      nodes: routed.nodes,
      edges: routed.edges,
      allocate: (wanted) => allocateId(wanted, taken),
      bound,
      warnings: ctx.warnings,
    });
    boundUsed ||= wired.boundUsed;
    nodes.push(agent.node, ...wired.nodes);
    edges.push(...wired.edges);
  }
  return { nodes, edges, boundUsed };
}

/**
 * One agent's transitions: the decisions after its llm node and the edges leaving that node, and
 * whether `max_iterations` bounded a route.
 */
function routeAgent(
  agent: ReadAgent,
  all: readonly Transition[],
  plainCtx: PlainContext,
  ctx: GraphContext,
): { nodes: unknown[]; edges: Record<string, unknown>[]; boundUsed: boolean } {
  const { from, nodeOf, loopsBack } = plainCtx;
  const conditional = all.filter((t) => t.condition !== null);
  const plain = all.filter((t) => t.condition === null);
  if (conditional.length === 0) {
    const wired = wirePlain(plain, plainCtx);
    return { nodes: [...wired.nodes], edges: [...wired.edges], boundUsed: wired.boundUsed };
  }
  let boundUsed = false;
  const route = (t: Transition): Record<string, unknown> => {
    const loops = t.target !== undefined && loopsBack(t.target);
    if (loops && ctx.maxIterations !== undefined) boundUsed = true;
    return {
      next: t.target === undefined ? "end" : nodeOf(t.target),
      ...(loops && ctx.maxIterations !== undefined ? { maxRetries: ctx.maxIterations } : {}),
    };
  };
  const cases = conditional.map((t) => ({ condition: feelOf(t, agent, ctx), ...route(t) }));
  if (plain.length === 0) {
    const first = conditional[0]?.at ?? [];
    ctx.warnings.push(
      guessed(
        pointer(...first, "condition"),
        `agent '${agent.sourceId}' has no route for when no condition holds; the run is taken to end there`,
        { agentId: agent.sourceId, assumed: "end" },
      ),
    );
  }
  const id = plainCtx.allocate(`${from}-route`);
  const fallback =
    plain.length === 1 && plain[0] !== undefined
      ? { otherwise: route(plain[0]) }
      : fallbackOf(plain, plainCtx, route);
  const nodes: unknown[] = [
    { id, type: "decision", config: { cases, otherwise: fallback.otherwise } },
  ];
  if (fallback.loop !== undefined) {
    nodes.push(fallback.loop);
    boundUsed = true;
  }
  return { nodes, edges: [{ from, to: id, edgeType: "data" }], boundUsed };
}

/** Whether a decision the import made has a route `max_iterations` bounds (one back into a loop). */
function boundsRoute(decision: Readonly<Record<string, unknown>>): boolean {
  const config = own(decision, "config");
  if (!isRecord(config)) return false;
  const cases = own(config, "cases");
  const list: readonly unknown[] = Array.isArray(cases) ? cases : [];
  const routes = [...list, own(config, "otherwise")];
  return routes.some((r) => isRecord(r) && own(r, "maxRetries") !== undefined);
}

/** The FEEL of a conditional transition, checked to parse. */
function feelOf(t: Transition, agent: ReadAgent, ctx: GraphContext): string {
  const condition = conditionToFeel(t.condition, {
    at: [...t.at, "condition"],
    elementId: agent.sourceId,
    variables: ctx.variables,
  });
  if (!analyzeCondition(condition).ok) {
    throw fail(
      pointer(...t.at, "condition"),
      `the condition translates to FEEL that does not parse: ${condition}`,
      agent.sourceId,
    );
  }
  return condition;
}

/** The entrypoint agent id, which must name an agent. */
export function readEntrypoint(graph: Obj, agents: ReadonlyMap<string, ReadAgent>): string {
  const entry = own(graph, "entrypoint");
  if (typeof entry !== "string" || !agents.has(entry)) {
    throw fail(
      "/graph/entrypoint",
      `the entrypoint must be an agent id, found ${describeValue(entry)}`,
    );
  }
  return entry;
}
