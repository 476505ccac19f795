/**
 * Import of the agent2model Flowchart IR. Agent turns become llm nodes, user turns and decisions
 * become natural-language (`conditionLanguage: "text"`) decisions, terminals become routes to
 * `"end"` whose outcome is kept in `metadata.agent2model`; every guess is declared.
 */
import { isValidId, pointer } from "../../model/index.js";
import type { Built, Draft } from "../pipeline.js";
import { defineImport } from "../pipeline.js";
import type { ImportResult, InteropWarning } from "../types.js";
import { dropped, guessed, normalized } from "../warnings.js";
import { renamedId } from "../ids.js";
import { mapIds, sanitizeId } from "./ids.js";
import { fail, readFlowchart } from "./read.js";
import type {
  Agent2ModelEdge,
  Agent2ModelFlowchart,
  Agent2ModelRole,
  Agent2ModelTurn,
} from "./types.js";
import { AGENT2MODEL_ID } from "./types.js";

/** The version every imported flowchart gets: the IR has none. */
export const VERSION = "1.0.0";
/** What a conversation receives: the scenario sampled from `scenario_variables`. */
export const INPUT_SCHEMA = { scenario: "any" } as const;
/** What a conversation returns: the outcome of the terminal it ended at. */
export const OUTPUT_SCHEMA = { outcome: "text" } as const;
/** The condition of a user turn that has a single, unconditional edge. */
export const USER_TURN_CONDITION = "the user has taken their turn";

/**
 * The condition given to the single edge of a user turn or decision that has no `when`; the
 * export omits `when` where the condition is this one, so that the edge reads back the same.
 */
export function defaultCondition(role: Agent2ModelRole, to: string): string {
  return role === "user" ? USER_TURN_CONDITION : `continue to '${to}'`;
}

/** Everything node building needs, shared so that helpers stay pure over their inputs. */
interface Context {
  readonly chart: Agent2ModelFlowchart;
  readonly ids: ReadonlyMap<string, string>;
  readonly outcomes: ReadonlyMap<string, string>;
  readonly workflowId: string;
  readonly warnings: InteropWarning[];
  readonly exits: Draft[];
}

/**
 * The agentflow target of an edge: the mapped node, or `"end"` for a terminal. An edge to a
 * terminal has no agentflow edge, so its way out is kept in `metadata.agent2model.exits`: the
 * node and route, the terminal and its outcome, and the edge's `when` (the label of a decision's
 * branch, which the route to `"end"` cannot hold when it is the `onFalse` or `otherwise`).
 */
function target(ctx: Context, edge: Agent2ModelEdge, from: string, route?: string): string {
  const outcome = ctx.outcomes.get(edge.to);
  if (outcome === undefined) return ctx.ids.get(edge.to) ?? edge.to;
  ctx.exits.push({
    from,
    ...(route === undefined ? {} : { route }),
    terminal: edge.to,
    outcome,
    ...(edge.when === undefined ? {} : { when: edge.when }),
  });
  return "end";
}

function conditionOf(node: Agent2ModelTurn, edge: Agent2ModelEdge, last: boolean): string {
  if (edge.when !== undefined) return edge.when;
  if (!last) {
    const reason = `only the last edge of '${node.id}' may omit 'when': the others need a condition to be told apart`;
    throw fail(edge.path, reason, node.id);
  }
  return defaultCondition(node.role, edge.to);
}

/** A user turn or decision: binary for one or two edges, multi-way (cases + otherwise) beyond. */
function decisionConfig(ctx: Context, node: Agent2ModelTurn, id: string): Draft {
  const edges = node.next;
  const first = edges[0];
  const last = edges[edges.length - 1];
  if (first === undefined || last === undefined) {
    throw fail(
      pointer("nodes", node.id, "next"),
      `${node.role} '${node.id}' has no outgoing edge`,
      node.id,
    );
  }
  if (edges.length <= 2) {
    return {
      conditionLanguage: "text",
      condition: conditionOf(node, first, edges.length === 1),
      onTrue: { next: target(ctx, first, id, "onTrue") },
      onFalse: { next: target(ctx, last, id, "onFalse") },
    };
  }
  const cases = edges.slice(0, -1).map((edge, i) => ({
    condition: conditionOf(node, edge, false),
    next: target(ctx, edge, id, `cases/${i}`),
  }));
  return {
    conditionLanguage: "text",
    cases,
    otherwise: { next: target(ctx, last, id, "otherwise") },
  };
}

function agentConfig(ctx: Context, node: Agent2ModelTurn, id: string): Draft {
  const conditional = node.next.find((e) => e.when !== undefined);
  if (conditional !== undefined) {
    const reason = `agent '${node.id}' has a conditional edge; route through a decision node instead`;
    throw fail(`${conditional.path}/when`, reason, node.id);
  }
  const exit = node.next.find((e) => ctx.outcomes.has(e.to));
  if (exit !== undefined) {
    if (node.next.length > 1) {
      const reason = `agent '${node.id}' both ends the conversation and continues; an llm node cannot choose`;
      throw fail(exit.path, reason, node.id);
    }
    target(ctx, exit, id);
  }
  ctx.warnings.push(
    guessed(
      pointer("nodes", node.id, "prompt"),
      `agent '${node.id}': its prompt is referenced by a synthesised promptRef and kept in metadata`,
      {
        promptRef: `prm:${ctx.workflowId}.${id}@${VERSION}`,
      },
    ),
  );
  return {
    model: `agent2model:${ctx.workflowId}`,
    promptRef: `prm:${ctx.workflowId}.${id}@${VERSION}`,
  };
}

function buildNode(ctx: Context, node: Agent2ModelTurn): Draft {
  const id = ctx.ids.get(node.id) ?? node.id;
  const at = pointer("nodes", node.id);
  if (id !== node.id) ctx.warnings.push(renamedId(at, "node id", node.id, id));
  if (node.role !== "decision" && node.prompt === undefined) {
    throw fail(`${at}/prompt`, `${node.role} '${node.id}' needs a prompt`, node.id);
  }
  if (node.role === "agent")
    return { id, type: "llm", name: node.id, config: agentConfig(ctx, node, id) };
  if (node.role === "user") {
    const message = `user turn '${node.id}' has no agentflow node type; it is a text decision that waits for the user`;
    ctx.warnings.push(guessed(`${at}/role`, message, { role: "user" }));
  }
  if (node.next.length > 1 || node.next.some((e) => e.when !== undefined)) {
    const message = `'${node.id}' routes on natural language (never simulable); its last edge is the fallback`;
    ctx.warnings.push(guessed(`${at}/next`, message, { conditionLanguage: "text" }));
  }
  if (node.role === "decision" && node.prompt !== undefined) {
    const message = `decision '${node.id}' has a prompt; decisions take none`;
    ctx.warnings.push(dropped(`${at}/prompt`, message, { key: "prompt" }));
  }
  return { id, type: "decision", name: node.id, config: decisionConfig(ctx, node, id) };
}

function checkTargets(chart: Agent2ModelFlowchart): void {
  const ids = new Set(chart.nodes.map((n) => n.id));
  const start = chart.nodes.find((n) => n.id === chart.start);
  if (start === undefined) throw fail("/start", `start '${chart.start}' names no node`);
  if (start.kind === "terminal")
    throw fail("/start", `start '${chart.start}' is a terminal`, start.id);
  for (const node of chart.nodes) {
    if (node.kind !== "turn") continue;
    const missing = node.next.find((e) => !ids.has(e.to));
    if (missing !== undefined)
      throw fail(missing.path, `edge to '${missing.to}', which is not a node`, node.id);
  }
}

function build(doc: unknown, warnings: InteropWarning[]): Built {
  const chart = readFlowchart(doc, warnings);
  checkTargets(chart);
  const turns = chart.nodes.filter((n): n is Agent2ModelTurn => n.kind === "turn");
  const ordered = [
    ...turns.filter((n) => n.id === chart.start),
    ...turns.filter((n) => n.id !== chart.start),
  ];
  const outcomes = new Map(
    chart.nodes.flatMap((n) => (n.kind === "terminal" ? [[n.id, n.outcome] as const] : [])),
  );
  const workflowId = isValidId(chart.name) ? chart.name : sanitizeId(chart.name);
  if (workflowId !== chart.name) {
    warnings.push(
      normalized("/name", `name '${chart.name}' became the id '${workflowId}'`, {
        from: chart.name,
        to: workflowId,
      }),
    );
  }
  warnings.push(
    guessed("", "the IR has no version, schemas or model; documented defaults were used", {
      version: VERSION,
      model: `agent2model:${workflowId}`,
      inputSchema: INPUT_SCHEMA,
      outputSchema: OUTPUT_SCHEMA,
    }),
  );
  const ctx: Context = {
    chart,
    ids: mapIds(ordered.map((n) => n.id)),
    outcomes,
    workflowId,
    warnings,
    exits: [],
  };
  const nodes = ordered.map((node) => buildNode(ctx, node));
  for (const [id, outcome] of outcomes) {
    const message = `terminal '${id}' (${outcome}) is no node: edges to it end the run, the outcome is kept in metadata`;
    warnings.push(guessed(pointer("nodes", id, "terminal"), message, { outcome }));
  }
  const edges = ordered.flatMap((node) =>
    node.next
      .filter((e) => !outcomes.has(e.to))
      .map((e) => ({
        from: ctx.ids.get(node.id),
        to: ctx.ids.get(e.to),
        edgeType: "data",
        ...(e.when === undefined ? {} : { when: e.when }),
      })),
  );
  const metadata = {
    agent2model: {
      name: chart.name,
      start: chart.start,
      nodes: ordered.map((n) => ({
        id: ctx.ids.get(n.id),
        source: n.id,
        role: n.role,
        ...(n.prompt === undefined || n.role === "decision" ? {} : { prompt: n.prompt }),
      })),
      terminals: chart.nodes.flatMap((n) =>
        n.kind === "terminal" ? [{ id: n.id, outcome: n.outcome }] : [],
      ),
      exits: ctx.exits,
      ...(chart.scenarioVariables === undefined
        ? {}
        : { scenario_variables: chart.scenarioVariables }),
    },
  };
  const draft: Draft = {
    kind: "AgentWorkflow",
    id: workflowId,
    version: VERSION,
    name: chart.name,
    ...(chart.description === undefined ? {} : { description: chart.description }),
    autonomyLevel: 1,
    inputSchema: { ...INPUT_SCHEMA },
    outputSchema: { ...OUTPUT_SCHEMA },
    nodes,
    edges,
    metadata,
  };
  return { draft };
}

const importFlowchart = defineImport({
  format: AGENT2MODEL_ID,
  build,
  // Any diagnostic, not only an error: the draft is built from known keys, so even a warning
  // (an unknown property) would be a mapping bug.
  blocks: () => true,
});

/**
 * Imports a decoded agent2model flowchart (YAML or its JSON form). Throws only
 * {@link ImportError} (of format `agent2model`), naming the node and JSON Pointer.
 *
 * @example
 * ```ts
 * import { importAgent2Model } from "agentflow/interop";
 *
 * const { workflow } = importAgent2Model({
 *   name: "refund_desk",
 *   start: "greet",
 *   nodes: {
 *     greet: { role: "agent", prompt: "Greet the customer and ask for the order number.", next: ["check"] },
 *     check: {
 *       role: "decision",
 *       next: [{ to: "refund", when: "the order is eligible for a refund" }, { to: "handoff" }],
 *     },
 *     refund: { role: "agent", prompt: "Explain how the refund is paid.", next: ["done"] },
 *     done: { terminal: "success" },
 *     handoff: { terminal: "escalation" },
 *   },
 * });
 * workflow.nodes.map((n) => `${n.id}: ${n.type}`); // → ["greet: llm", "check: decision", "refund: llm"]
 * // terminals are not nodes: a route to one ends the run
 * workflow.nodes[1]?.config;
 * // → {
 * //     conditionLanguage: "text",
 * //     condition: "the order is eligible for a refund",
 * //     onTrue: { next: "refund" },
 * //     onFalse: { next: "end" },
 * //   }
 * ```
 */
export function importAgent2Model(doc: unknown): ImportResult {
  return importFlowchart(doc);
}
