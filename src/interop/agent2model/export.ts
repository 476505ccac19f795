/**
 * Export to the agent2model Flowchart IR (the decoded form of the YAML `agent2model compile`
 * reads). llm nodes become `agent` turns, decisions `decision` turns (or `user` turns, as the
 * importer kept them), routes to `"end"` edges to terminals with their kept outcome, and
 * `metadata.agent2model` gives back prompts, terminals and `scenario_variables`. `next` is always
 * written as a list of `{ to, when? }` mappings. Everything else is declared: the flowchart has
 * no tools, models, schemas, versions, budgets or decorators.
 */
import type { AgentWorkflow, LlmNode, ToolNode } from "../../model/index.js";
import { isValidId, pointer } from "../../model/index.js";
import type { ExportResult } from "../types.js";
import type { ExportContext } from "./export-context.js";
import { flowEdgesBy } from "../edge-index.js";
import { exitIndex, omit, terminalFor } from "./export-context.js";
import { decisionTurn } from "./export-decision.js";
import { readKept } from "./export-kept.js";
import { mapIds, sanitizeId } from "./ids.js";
import { INPUT_SCHEMA, OUTPUT_SCHEMA, VERSION } from "./import.js";
import type {
  Agent2ModelDocument,
  Agent2ModelDocumentEdge,
  Agent2ModelDocumentTerminal,
  Agent2ModelDocumentTurn,
} from "./types.js";

/** Top-level workflow keys the flowchart holds, or that are checked one by one below. */
const MAPPED_TOP = new Set([
  "kind",
  "id",
  "name",
  "description",
  "version",
  "autonomyLevel",
  "inputSchema",
  "outputSchema",
  "nodes",
  "edges",
  "metadata",
]);

/** The workflow id an import derives from a flowchart name. */
function idOf(name: string): string {
  return isValidId(name) ? name : sanitizeId(name);
}

function sameShape(
  a: Readonly<Record<string, unknown>>,
  b: Readonly<Record<string, unknown>>,
): boolean {
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k])
  );
}

/**
 * Flowchart keys: each node's `name` (the importer's original key) when the importer would map
 * all of them back to the same ids, else the ids themselves, declaring each name left out.
 */
function chooseKeys(ctx: Pick<ExportContext, "wf" | "warnings">): Map<string, string> {
  const { nodes } = ctx.wf;
  const wanted = nodes.map((n) => n.name ?? n.id);
  const mapped = mapIds(wanted);
  const keepNames =
    new Set(wanted).size === wanted.length &&
    // An integer-like key would be moved first by every JSON object, so the start would move.
    wanted.every((k, i) => !/^\d+$/.test(k) && mapped.get(k) === nodes[i]?.id);
  if (keepNames) return new Map(nodes.map((n, i) => [n.id, wanted[i] ?? n.id]));
  nodes.forEach((n, i) => {
    if (n.name !== undefined && n.name !== n.id)
      ctx.warnings.push({
        code: "NOT_EXPORTABLE",
        message: `node '${n.id}': name '${n.name}' left out: the node ids are the flowchart keys`,
        path: pointer("nodes", i, "name"),
        data: { nodeId: n.id },
      });
  });
  return new Map(nodes.map((n) => [n.id, n.id]));
}

/** An llm or tool node as an `agent` turn; its flow successors are its `next`. */
function agentTurn(
  ctx: ExportContext,
  node: LlmNode | ToolNode,
  i: number,
): Agent2ModelDocumentTurn {
  const at = (...rest: string[]): string => pointer("nodes", i, ...rest);
  let prompt: string;
  if (node.type === "tool") {
    prompt = `Call the tool ${node.config.usesTool}.`;
    omit(
      ctx,
      at("type"),
      `tool node '${node.id}' is written as an agent turn: the flowchart has no tool steps; an import reads it as an llm node`,
      { nodeId: node.id },
    );
    omit(
      ctx,
      at("config"),
      `tool node '${node.id}': its tool binding is kept only as the prompt text`,
      { nodeId: node.id, usesTool: node.config.usesTool },
    );
  } else {
    const promptRef = `prm:${ctx.wf.id}.${node.id}@${VERSION}`;
    const kept = ctx.kept.nodes.get(node.id);
    const ownPrompt =
      node.config.promptRef === promptRef && kept?.role === "agent" ? kept.prompt : undefined;
    prompt = ownPrompt ?? `Follow prompt ${node.config.promptRef}.`;
    for (const [key, value] of Object.entries(node.config)) {
      if (key === "model" && value === `agent2model:${ctx.wf.id}`) continue;
      if (key === "promptRef" && value === promptRef) continue;
      const why =
        key === "promptRef"
          ? `it is written into the prompt text; an import synthesises '${promptRef}'`
          : "the flowchart has no model settings";
      omit(ctx, at("config", key), `node '${node.id}': config.${key} left out: ${why}`, {
        nodeId: node.id,
        key,
      });
    }
  }
  const next: Agent2ModelDocumentEdge[] = [];
  for (const { e, j } of ctx.out.get(node.id) ?? []) {
    const to = ctx.keys.get(e.to);
    if (to === undefined) {
      omit(
        ctx,
        pointer("edges", j),
        `edge '${e.from}' -> '${e.to}' left out: '${e.to}' is not a node`,
        { from: e.from, to: e.to },
      );
      continue;
    }
    if (e.when !== undefined)
      omit(
        ctx,
        pointer("edges", j, "when"),
        `edge '${e.from}' -> '${e.to}': label '${e.when}' left out: an agent turn's edges carry no condition`,
        { when: e.when },
      );
    if (e.edgeType === "toolCall")
      omit(
        ctx,
        pointer("edges", j, "edgeType"),
        `edge '${e.from}' -> '${e.to}': toolCall is written as a plain edge`,
        {},
      );
    next.push({ to });
  }
  if (next.length === 0) next.push({ to: terminalFor(ctx, node.id, undefined, at()) });
  return { role: "agent", prompt, next };
}

function declareTop(wf: AgentWorkflow, ctx: Pick<ExportContext, "warnings">): void {
  const lose = (path: string, message: string, data: Record<string, unknown>): void => {
    ctx.warnings.push({ code: "NOT_EXPORTABLE", message, path, data });
  };
  lose(
    "/autonomyLevel",
    "autonomyLevel left out: the flowchart has none; an import recomputes it",
    { autonomyLevel: wf.autonomyLevel },
  );
  if (wf.version !== VERSION)
    lose(
      "/version",
      `version '${wf.version}' left out: the flowchart has none; an import assumes ${VERSION}`,
      { version: wf.version },
    );
  if (!sameShape(wf.inputSchema, INPUT_SCHEMA))
    lose(
      "/inputSchema",
      "inputSchema left out: a conversation's input is its sampled scenario",
      {},
    );
  if (!sameShape(wf.outputSchema, OUTPUT_SCHEMA))
    lose(
      "/outputSchema",
      "outputSchema left out: a conversation's output is its terminal's outcome",
      {},
    );
  for (const key of Object.keys(wf))
    if (!MAPPED_TOP.has(key))
      lose(pointer(key), `'${key}' left out: the flowchart has no such field`, { key });
  wf.edges.forEach((e, j) => {
    if (e.edgeType === "delegate")
      lose(
        pointer("edges", j),
        `delegate edge '${e.from}' -> '${e.to}' left out: the flowchart has no delegation`,
        { from: e.from, to: e.to },
      );
  });
}

/**
 * Exports a workflow to an agent2model flowchart (the JSON form of its YAML). Never throws.
 * Warnings: `NOT_EXPORTABLE` for every construct with no flowchart form (`autonomyLevel`
 * always), `HEURISTIC` where a terminal's outcome had to be chosen.
 *
 * @example
 * ```ts
 * import { exportAgent2Model } from "agentflow/interop";
 * import { getTemplate } from "agentflow/model";
 *
 * const wf = getTemplate("document-review");
 * if (wf === undefined) throw new Error("no such template");
 * const { document } = exportAgent2Model(wf);
 * document.start; // → "llm-extract"
 * document.nodes["dec-validate"];
 * // → {
 * //     role: "decision",
 * //     next: [{ to: "llm-classify", when: "output.is_valid = true" }, { to: "end" }],
 * //   }
 * document.nodes.end; // → { terminal: "success" }
 * ```
 */
export function exportAgent2Model(wf: AgentWorkflow): ExportResult<Agent2ModelDocument> {
  const warnings: ExportContext["warnings"] = [];
  declareTop(wf, { warnings });
  const name = idOf(wf.name) === wf.id ? wf.name : wf.id;
  if (name !== wf.name)
    warnings.push({
      code: "NOT_EXPORTABLE",
      message: `name '${wf.name}' left out: a flowchart's name is its id, so '${wf.id}' is written`,
      path: "/name",
      data: { name: wf.name },
    });
  const kept = readKept(wf, warnings);
  const keys = chooseKeys({ wf, warnings });
  const turnKeys = new Set(keys.values());
  const terminals = new Map(
    kept.terminals.filter((t) => !turnKeys.has(t.id)).map((t) => [t.id, t.outcome] as const),
  );
  const ctx: ExportContext = {
    wf,
    kept,
    keys,
    turnKeys,
    terminals,
    warnings,
    out: flowEdgesBy(wf, "from"),
    exits: exitIndex(kept.exits),
    fallbackFrom: 1,
  };
  const turns = wf.nodes.map((node, i): [string, Agent2ModelDocumentTurn] => {
    if (node.decorators !== undefined)
      omit(
        ctx,
        pointer("nodes", i, "decorators"),
        `node '${node.id}': decorators have no flowchart form`,
        {
          nodeId: node.id,
        },
      );
    const turn = node.type === "decision" ? decisionTurn(ctx, node, i) : agentTurn(ctx, node, i);
    return [keys.get(node.id) ?? node.id, turn];
  });
  const [first] = turns;
  if (first === undefined)
    omit(
      ctx,
      "/nodes",
      "the workflow has no node; the flowchart starts at a terminal, which an import refuses",
      {},
    );
  const start = first?.[0] ?? terminalFor(ctx, wf.id, undefined, "/nodes");
  const ends = [...terminals].map(([key, terminal]): [string, Agent2ModelDocumentTerminal] => [
    key,
    { terminal },
  ]);
  // fromEntries defines data properties, so a key such as `__proto__` stays a node.
  const entries: [string, Agent2ModelDocumentTurn | Agent2ModelDocumentTerminal][] = [
    ...turns,
    ...ends,
  ];
  const nodes = Object.fromEntries(entries);
  const document: Agent2ModelDocument = {
    name,
    ...(wf.description === undefined ? {} : { description: wf.description }),
    start,
    nodes,
    ...(kept.scenario === undefined ? {} : { scenario_variables: kept.scenario.value }),
  };
  return { document, warnings };
}
