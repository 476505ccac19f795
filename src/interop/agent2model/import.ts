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
import { allocateId, renamedId } from "../ids.js";
import { choiceDeclared, choiceId, choosesEdge, UNLABELLED } from "./choice.js";
import type { Context } from "./decision-config.js";
import { decisionConfig, target } from "./decision-config.js";
import { mapIds, sanitizeId } from "./ids.js";
import { fail, readFlowchart } from "./read.js";
import type { Agent2ModelFlowchart, Agent2ModelTurn } from "./types.js";
import { AGENT2MODEL_ID } from "./types.js";
import { AGENT2MODEL_MODEL_PREFIX } from "../../model/internal.js";

export { defaultCondition, USER_TURN_CONDITION } from "./choice.js";

/** The version every imported flowchart gets: the IR has none. */
export const VERSION = "1.0.0";
/** What a conversation receives: the scenario sampled from `scenario_variables`. */
export const INPUT_SCHEMA = { scenario: "any" } as const;
/** What a conversation returns: the outcome of the terminal it ended at. */
export const OUTPUT_SCHEMA = { outcome: "text" } as const;

function agentConfig(ctx: Context, node: Agent2ModelTurn, id: string): Draft {
  const exit = node.next.find((e) => ctx.outcomes.has(e.to));
  // With a choice, the ways out are the choice's routes; without one, the single edge is it.
  if (exit !== undefined && !ctx.choices.has(node.id)) target(ctx, exit, id);
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
    model: `${AGENT2MODEL_MODEL_PREFIX}${ctx.workflowId}`,
    promptRef: `prm:${ctx.workflowId}.${id}@${VERSION}`,
  };
}

/** The decision that holds an agent's choice, declared: it follows the agent's llm node. */
function choiceNode(ctx: Context, node: Agent2ModelTurn, id: string): Draft {
  ctx.warnings.push(choiceDeclared(node, id));
  return { id, type: "decision", config: decisionConfig(ctx, node, id) };
}

function buildNode(ctx: Context, node: Agent2ModelTurn): Draft[] {
  const id = ctx.ids.get(node.id) ?? node.id;
  const at = pointer("nodes", node.id);
  if (id !== node.id) ctx.warnings.push(renamedId(at, "node id", node.id, id));
  if (node.role !== "decision" && node.prompt === undefined) {
    throw fail(`${at}/prompt`, `${node.role} '${node.id}' needs a prompt`, node.id);
  }
  // agent2model's validator refuses any non-terminal without edges (invariant 3): only a
  // `terminal` ends a conversation, so an agent without `next` is no end of the run.
  if (node.next.length === 0) {
    throw fail(`${at}/next`, `${node.role} '${node.id}' has no outgoing edge`, node.id);
  }
  if (node.role === "agent") {
    const llm = { id, type: "llm", name: node.id, config: agentConfig(ctx, node, id) };
    const choice = ctx.choices.get(node.id);
    return choice === undefined ? [llm] : [llm, choiceNode(ctx, node, choice)];
  }
  if (node.role === "user") {
    const message = `user turn '${node.id}' has no agentflow node type; it is a text decision that waits for the user`;
    ctx.warnings.push(guessed(`${at}/role`, message, { role: "user" }));
  }
  if (node.next.length > 1 || node.next.some((e) => e.when !== undefined)) {
    const unlabelled = node.next.slice(0, -1).filter((e) => e.when === undefined);
    const message = `'${node.id}' routes on natural language (never simulable); its last edge is the fallback${unlabelled.length === 0 ? "" : UNLABELLED}`;
    const data =
      unlabelled.length === 0
        ? { conditionLanguage: "text" }
        : { conditionLanguage: "text", unlabelled: unlabelled.map((e) => e.to) };
    ctx.warnings.push(guessed(`${at}/next`, message, data));
  }
  if (node.role === "decision" && node.prompt !== undefined) {
    const message = `decision '${node.id}' has a prompt; decisions take none`;
    ctx.warnings.push(dropped(`${at}/prompt`, message, { key: "prompt" }));
  }
  return [{ id, type: "decision", name: node.id, config: decisionConfig(ctx, node, id) }];
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
      model: `${AGENT2MODEL_MODEL_PREFIX}${workflowId}`,
      inputSchema: INPUT_SCHEMA,
      outputSchema: OUTPUT_SCHEMA,
    }),
  );
  const ids = mapIds(ordered.map((n) => n.id));
  const used = new Set(ids.values());
  const choices = new Map(
    ordered
      .filter(choosesEdge)
      .map((n) => [n.id, allocateId(choiceId(ids.get(n.id) ?? n.id), used)] as const),
  );
  const ctx: Context = {
    chart,
    ids,
    choices,
    outcomes,
    workflowId,
    warnings,
    exits: [],
  };
  const nodes = ordered.flatMap((node) => buildNode(ctx, node));
  for (const [id, outcome] of outcomes) {
    const message = `terminal '${id}' (${outcome}) is no node: edges to it end the run, the outcome is kept in metadata`;
    warnings.push(guessed(pointer("nodes", id, "terminal"), message, { outcome }));
  }
  const edges = ordered.flatMap((node) => {
    const choice = choices.get(node.id);
    const from = choice ?? ctx.ids.get(node.id);
    const out = node.next
      .filter((e) => !outcomes.has(e.to))
      .map((e) => ({
        from,
        to: ctx.ids.get(e.to),
        edgeType: "data",
        ...(e.when === undefined ? {} : { when: e.when }),
      }));
    return choice === undefined
      ? out
      : [{ from: ctx.ids.get(node.id), to: choice, edgeType: "data" }, ...out];
  });
  const metadata = {
    agent2model: {
      name: chart.name,
      start: chart.start,
      nodes: ordered.map((n) => {
        const choice = choices.get(n.id);
        return {
          id: ctx.ids.get(n.id),
          source: n.id,
          role: n.role,
          ...(n.prompt === undefined || n.role === "decision" ? {} : { prompt: n.prompt }),
          ...(choice === undefined ? {} : { choice }),
        };
      }),
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
