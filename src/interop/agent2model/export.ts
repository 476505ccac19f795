/**
 * Export to the agent2model Flowchart IR (the decoded form of the YAML `agent2model compile`
 * reads). llm nodes become `agent` turns, decisions `decision` turns (or `user` turns, as the
 * importer kept them), routes to `"end"` edges to terminals with their kept outcome, and
 * `metadata.agent2model` gives back prompts, terminals and `scenario_variables`. `next` is always
 * written as a list of `{ to, when? }` mappings. Everything else is declared: the flowchart has
 * no tools, models, schemas, versions, budgets or decorators.
 */
import type { AgentWorkflow, DecisionNode, LlmNode, ToolNode } from "../../model/index.js";
import { decisionRoutes, isValidId, pointer } from "../../model/index.js";
import type { ExportResult } from "../types.js";
import { ExportWarnings, omitted } from "../warnings.js";
import type { ExportContext } from "./export-context.js";
import type { IndexedEdge } from "../edge-index.js";
import { flowEdgesBy } from "../edge-index.js";
import { exitIndex, terminalFor } from "./export-context.js";
import { decisionTurn } from "./export-decision.js";
import type { KeptFlowchart } from "./export-kept.js";
import { readKept } from "./export-kept.js";
import { mapIds, sanitizeId } from "./ids.js";
import { declareTop } from "./export-top.js";
import { VERSION } from "./import.js";
import type {
  Agent2ModelDocument,
  Agent2ModelDocumentEdge,
  Agent2ModelDocumentTerminal,
  Agent2ModelDocumentTurn,
} from "./types.js";
import { AGENT2MODEL_MODEL_PREFIX } from "../../model/internal.js";

/** The workflow id an import derives from a flowchart name. */
function idOf(name: string): string {
  return isValidId(name) ? name : sanitizeId(name);
}

/**
 * Flowchart keys: each node's `name` (the importer's original key) when the importer would map
 * all of them back to the same ids, else the ids themselves, declaring each name left out.
 */
function chooseKeys(ctx: Pick<ExportContext, "wf" | "warnings">): Map<string, string> {
  const { nodes } = ctx.wf;
  const ids = new Map<string, string>();
  for (const n of nodes) ids.set(n.id, n.id);
  // Without a name other than its id, every node is keyed by its id either way, and nothing is
  // declared: mapping 100,000 ids to see that is skipped.
  if (nodes.every((n) => n.name === undefined || n.name === n.id)) return ids;
  const wanted = nodes.map((n) => n.name ?? n.id);
  const mapped = mapIds(wanted);
  const keepNames =
    new Set(wanted).size === wanted.length &&
    // An integer-like key would be moved first by every JSON object, so the start would move.
    wanted.every((k, i) => !/^\d+$/.test(k) && mapped.get(k) === nodes[i]?.id);
  if (keepNames) return new Map(nodes.map((n, i) => [n.id, wanted[i] ?? n.id]));
  nodes.forEach((n, i) => {
    const { name } = n;
    if (name !== undefined && name !== n.id)
      ctx.warnings.add("node name", () =>
        omitted(
          pointer("nodes", i, "name"),
          `node '${n.id}': name '${name}' left out: the node ids are the flowchart keys`,
          { nodeId: n.id },
        ),
      );
  });
  return ids;
}

/** The flow edges of a node without any: one list for all of them. */
const NO_EDGES: readonly IndexedEdge[] = [];

/** The promptRef an import gives the llm node `nodeId` of workflow `wfId`. */
function importedRef(wfId: string, nodeId: string): string {
  return `prm:${wfId}.${nodeId}@${VERSION}`;
}

/** Whether `ref` is {@link importedRef}, without building it for each of 100,000 nodes. */
function isImportedRef(ref: unknown, wfId: string, nodeId: string): boolean {
  const length = "prm:.@".length + wfId.length + nodeId.length + VERSION.length;
  return typeof ref === "string" && ref.length === length && ref === importedRef(wfId, nodeId);
}

/** A decision the importer inserted for an agent's choice, and its index in `wf.nodes`. */
interface Choice {
  readonly node: DecisionNode;
  readonly i: number;
}

/**
 * The agents whose choice decision folds back into their `next`: the llm node's one flow edge
 * leads to the decision the importer kept for it, and nothing else leads there (no other edge,
 * no route, not the start). Any other shape is written as it stands: a decision turn.
 */
function choicesToFold(wf: AgentWorkflow, kept: KeptFlowchart): Map<string, Choice> {
  const out = new Map<string, Choice>();
  const index = new Map(wf.nodes.map((n, i) => [n.id, i] as const));
  const into = flowEdgesBy(wf, "to");
  const from = flowEdgesBy(wf, "from");
  const routed = new Set<string>();
  for (const n of wf.nodes)
    if (n.type === "decision") for (const r of decisionRoutes(n.config)) routed.add(r.next);
  for (const [agentId, turn] of kept.nodes) {
    const c = turn.choice;
    const i = c === undefined ? undefined : index.get(c);
    const node = i === undefined ? undefined : wf.nodes[i];
    const agent = wf.nodes[index.get(agentId) ?? -1];
    if (c === undefined || i === undefined || i === 0 || node?.type !== "decision") continue;
    if (agent?.type !== "llm" || routed.has(c)) continue;
    const [edge, ...more] = from.get(agentId) ?? [];
    const [only, ...others] = into.get(c) ?? [];
    if (more.length > 0 || others.length > 0 || edge === undefined || only?.j !== edge.j) continue;
    if (edge.e.to !== c || edge.e.when !== undefined || edge.e.edgeType !== "data") continue;
    out.set(agentId, { node, i });
  }
  return out;
}

/** An llm or tool node as an `agent` turn; its flow successors are its `next`. */
function agentTurn(
  ctx: ExportContext,
  node: LlmNode | ToolNode,
  i: number,
  choice?: Choice,
): Agent2ModelDocumentTurn {
  const at = (...rest: string[]): string => pointer("nodes", i, ...rest);
  let prompt: string;
  if (node.type === "tool") {
    const { usesTool } = node.config;
    prompt = `Call the tool ${usesTool}.`;
    ctx.warnings.add("tool node", () =>
      omitted(
        at("type"),
        `tool node '${node.id}' is written as an agent turn: the flowchart has no tool steps; an import reads it as an llm node`,
        { nodeId: node.id },
      ),
    );
    ctx.warnings.add("tool binding", () =>
      omitted(
        at("config"),
        `tool node '${node.id}': its tool binding is kept only as the prompt text`,
        { nodeId: node.id, usesTool },
      ),
    );
  } else {
    const { config } = node;
    const ownRef = isImportedRef(config.promptRef, ctx.wf.id, node.id);
    const kept = ctx.kept.nodes.get(node.id);
    const ownPrompt = ownRef && kept?.role === "agent" ? kept.prompt : undefined;
    prompt = ownPrompt ?? `Follow prompt ${config.promptRef}.`;
    for (const key of Object.keys(config)) {
      if (key === "model" && config.model === ctx.hostModel) continue;
      if (key === "promptRef" && ownRef) continue;
      ctx.warnings.add("node config", () => {
        const why =
          key === "promptRef"
            ? `it is written into the prompt text; an import synthesises '${importedRef(ctx.wf.id, node.id)}'`
            : "the flowchart has no model settings";
        return omitted(at("config", key), `node '${node.id}': config.${key} left out: ${why}`, {
          nodeId: node.id,
          key,
        });
      });
    }
  }
  if (choice !== undefined)
    return { role: "agent", prompt, next: decisionTurn(ctx, choice.node, choice.i).next };
  const next: Agent2ModelDocumentEdge[] = [];
  for (const { e, j } of ctx.out.get(node.id) ?? NO_EDGES) {
    const to = ctx.keys.get(e.to);
    if (to === undefined) {
      ctx.warnings.add("edge to a non-node", () =>
        omitted(
          pointer("edges", j),
          `edge '${e.from}' -> '${e.to}' left out: '${e.to}' is not a node`,
          { from: e.from, to: e.to },
        ),
      );
      continue;
    }
    const { when } = e;
    if (when !== undefined)
      ctx.warnings.add("edge label", () =>
        omitted(
          pointer("edges", j, "when"),
          `edge '${e.from}' -> '${e.to}': label '${when}' left out: an agent turn's edges carry no condition`,
          { when },
        ),
      );
    if (e.edgeType === "toolCall")
      ctx.warnings.add("toolCall edge", () =>
        omitted(
          pointer("edges", j, "edgeType"),
          `edge '${e.from}' -> '${e.to}': toolCall is written as a plain edge`,
        ),
      );
    next.push({ to });
  }
  if (next.length === 0) next.push({ to: terminalFor(ctx, node.id, undefined, () => at()) });
  return { role: "agent", prompt, next };
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
  const warnings = new ExportWarnings();
  declareTop(wf, { warnings });
  const name = idOf(wf.name) === wf.id ? wf.name : wf.id;
  if (name !== wf.name)
    warnings.add("/name", () =>
      omitted(
        "/name",
        `name '${wf.name}' left out: a flowchart's name is its id, so '${wf.id}' is written`,
        { name: wf.name },
      ),
    );
  const kept = readKept(wf, warnings);
  const keys = chooseKeys({ wf, warnings });
  const folds = choicesToFold(wf, kept);
  const folded = new Set([...folds.values()].map((c) => c.node.id));
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
    hostModel: `${AGENT2MODEL_MODEL_PREFIX}${wf.id}`,
    out: flowEdgesBy(wf, "from"),
    exits: exitIndex(kept.exits),
    fallbackFrom: 1,
  };
  const turns = wf.nodes.flatMap((node, i): [string, Agent2ModelDocumentTurn][] => {
    if (folded.has(node.id)) return [];
    if (node.decorators !== undefined)
      warnings.add("decorators", () =>
        omitted(
          pointer("nodes", i, "decorators"),
          `node '${node.id}': decorators have no flowchart form`,
          { nodeId: node.id },
        ),
      );
    const turn =
      node.type === "decision"
        ? decisionTurn(ctx, node, i)
        : agentTurn(ctx, node, i, folds.get(node.id));
    return [[keys.get(node.id) ?? node.id, turn]];
  });
  const [first] = turns;
  if (first === undefined)
    warnings.add("/nodes", () =>
      omitted(
        "/nodes",
        "the workflow has no node; the flowchart starts at a terminal, which an import refuses",
      ),
    );
  const start = first?.[0] ?? terminalFor(ctx, wf.id, undefined, () => "/nodes");
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
  return { document, warnings: warnings.list() };
}
