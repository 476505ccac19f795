/**
 * `graph` to nodes and edges. An agent whose transitions carry conditions gets a multi-way
 * decision node `<agent>-route` after it: one case per conditional edge (IR order), then per
 * conditional terminal, and the unconditional transition (or `end`, declared) as `otherwise`.
 * `config.max_iterations` bounds every route that leads back into a loop.
 */
import { analyzeCondition, pointer } from "../../model/index.js";
import { appendTo } from "../edge-index.js";
import { describeValue, own } from "../json.js";
import type { InteropWarning } from "../types.js";
import { HEURISTIC } from "../types.js";
import { conditionToFeel } from "./condition.js";
import type { ReadAgent } from "./import-agents.js";
import { oafError } from "./ir-types.js";
import type { At, Obj } from "./read.js";
import { dropUnknown, needArray, needItem, needString } from "./read.js";

const EDGE_KEYS = new Set(["source", "target", "condition"]);
const TERMINAL_KEYS = new Set(["source", "condition"]);

/** One way out of an agent: to another agent or (`target` undefined) to `end`. */
interface Transition {
  readonly target: string | undefined;
  readonly condition: unknown;
  readonly at: At;
}

/** The nodes and edges of the graph, and whether `max_iterations` bounded some route. */
export interface BuiltGraph {
  readonly nodes: readonly unknown[];
  readonly edges: readonly unknown[];
  readonly boundUsed: boolean;
}

function agentRef(raw: Obj, key: string, at: At, ids: ReadonlyMap<string, ReadAgent>): string {
  const id = needString(raw, key, at);
  if (!ids.has(id)) throw oafError(pointer(...at, key), `'${id}' is not an agent id`, id);
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
    throw oafError("/graph/terminals", "the graph has no terminal: no agent connects to end");
  terminals.forEach((item, i) => {
    const at = ["graph", "terminals", i];
    // The seed writes a terminal as an agent id; the compiler as `{ source, condition }`.
    if (typeof item === "string") {
      if (!agents.has(item)) throw oafError(pointer(...at), `'${item}' is not an agent id`, item);
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

/** Whether `from` reaches `to` through the agent edges (the loop test for a route). */
function reaches(
  from: string,
  to: string,
  transitions: ReadonlyMap<string, Transition[]>,
): boolean {
  const seen = new Set([from]);
  const queue = [from];
  for (let current = queue.shift(); current !== undefined; current = queue.shift()) {
    if (current === to) return true;
    for (const t of transitions.get(current) ?? []) {
      if (t.target !== undefined && !seen.has(t.target)) {
        seen.add(t.target);
        queue.push(t.target);
      }
    }
  }
  return false;
}

/** Context of the graph build. */
export interface GraphContext {
  readonly agents: ReadonlyMap<string, ReadAgent>;
  readonly order: readonly ReadAgent[];
  readonly variables: ReadonlySet<string>;
  readonly maxIterations: number | undefined;
  readonly warnings: InteropWarning[];
}

/** Builds the nodes (entrypoint first, each agent followed by its decision) and the edges. */
export function buildGraph(graph: Obj, ctx: GraphContext): BuiltGraph {
  const transitions = readTransitions(graph, ctx.agents, ctx.warnings);
  const taken = new Set(ctx.order.map((a) => String(a.node.id)));
  const nodes: unknown[] = [];
  const edges: unknown[] = [];
  let boundUsed = false;
  const nodeOf = (sourceId: string): string => String(ctx.agents.get(sourceId)?.node.id);
  for (const agent of ctx.order) {
    nodes.push(agent.node);
    const from = String(agent.node.id);
    const all = transitions.get(agent.sourceId) ?? [];
    const conditional = all.filter((t) => t.condition !== null);
    const plain = all.filter((t) => t.condition === null);
    if (conditional.length === 0) {
      const end = plain.find((t) => t.target === undefined);
      if (end !== undefined && plain.length > 1) {
        throw oafError(
          pointer(...end.at),
          `agent '${agent.sourceId}' both ends the run and continues unconditionally`,
          agent.sourceId,
        );
      }
      for (const t of plain)
        if (t.target !== undefined) edges.push({ from, to: nodeOf(t.target), edgeType: "data" });
      continue;
    }
    const extra = plain[1];
    if (extra !== undefined) {
      throw oafError(
        pointer(...extra.at),
        `agent '${agent.sourceId}' has conditional routes and more than one unconditional one`,
        agent.sourceId,
      );
    }
    const route = (t: Transition): Record<string, unknown> => {
      const loops = t.target !== undefined && reaches(t.target, agent.sourceId, transitions);
      if (loops && ctx.maxIterations !== undefined) boundUsed = true;
      return {
        next: t.target === undefined ? "end" : nodeOf(t.target),
        ...(loops && ctx.maxIterations !== undefined ? { maxRetries: ctx.maxIterations } : {}),
      };
    };
    const cases = conditional.map((t) => {
      const condition = conditionToFeel(t.condition, {
        at: [...t.at, "condition"],
        elementId: agent.sourceId,
        variables: ctx.variables,
      });
      const analysis = analyzeCondition(condition);
      if (!analysis.ok) {
        throw oafError(
          pointer(...t.at, "condition"),
          `the condition translates to FEEL that does not parse: ${condition}`,
          agent.sourceId,
        );
      }
      return { condition, ...route(t) };
    });
    const [fallback] = plain;
    if (fallback === undefined) {
      const first = conditional[0]?.at ?? [];
      ctx.warnings.push({
        code: HEURISTIC,
        message: `agent '${agent.sourceId}' has no route for when no condition holds; the run is taken to end there`,
        path: pointer(...first, "condition"),
        data: { agentId: agent.sourceId, assumed: "end" },
      });
    }
    let id = `${from}-route`;
    for (let n = 2; taken.has(id); n += 1) id = `${from}-route-${n}`;
    taken.add(id);
    nodes.push({
      id,
      type: "decision",
      config: { cases, otherwise: fallback === undefined ? { next: "end" } : route(fallback) },
    });
    edges.push({ from, to: id, edgeType: "data" });
  }
  return { nodes, edges, boundUsed };
}

/** The entrypoint agent id, which must name an agent. */
export function readEntrypoint(graph: Obj, agents: ReadonlyMap<string, ReadAgent>): string {
  const entry = own(graph, "entrypoint");
  if (typeof entry !== "string" || !agents.has(entry)) {
    throw oafError(
      "/graph/entrypoint",
      `the entrypoint must be an agent id, found ${describeValue(entry)}`,
    );
  }
  return entry;
}
