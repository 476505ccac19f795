/**
 * Export to an AgentOS `CompiledExecutionGraph`, for the subset the importer maps: llm → gmi,
 * tool → tool (or human / guardrail / subgraph for the contract refs the importer binds them to), decision
 * → router with conditional edges, and the inserted `.personality` / `.discovery` decisions back
 * to their edges. Conditions cannot be carried (AgentOS routers run JS functions), so every
 * decision's conditions are declared; the rest of what has no IR form is declared too.
 */
import type { AgentNode, AgentWorkflow } from "../../model/index.js";
import type { DecisionNode, DecisionRoute } from "../../model/index.js";
import { pointer } from "../../model/index.js";
import { routesOnce } from "../edge-index.js";
import { cloneJson, isRecord, own } from "../json.js";
import type { ExportResult } from "../types.js";
import { ExportWarnings } from "../warnings.js";
import {
  asObj,
  DISCOVERY,
  end,
  inserted,
  declareTop,
  isImportedRef,
  omitted,
  partition,
  PERSONALITY,
  TOOL_KEYS,
  unquote,
} from "./export-parts.js";
import { ASSUMED_VERSION, HOST_MODEL } from "./nodes.js";
import { END, START } from "./types.js";

type Obj = Record<string, unknown>;

function exportNode(
  node: AgentNode,
  i: number,
  wf: AgentWorkflow,
  warnings: ExportWarnings,
  routesOf: (node: DecisionNode) => readonly DecisionRoute[],
): Obj {
  const c = asObj(node.config);
  const at = (...rest: string[]): string => pointer("nodes", i, ...rest);
  const lose = (key: string): void => {
    warnings.add("node config", () =>
      omitted(at("config", key), `node '${node.id}': config.${key} has no AgentOS form`, {
        nodeId: node.id,
        key,
      }),
    );
  };
  if (node.decorators !== undefined)
    warnings.add("decorators", () =>
      omitted(at("decorators"), `node '${node.id}': decorators have no AgentOS form`, {
        nodeId: node.id,
      }),
    );
  if (node.name !== undefined)
    warnings.add("node name", () =>
      omitted(at("name"), `node '${node.id}': name has no AgentOS form`, { nodeId: node.id }),
    );
  const common = { executionMode: "single_turn", checkpoint: "none" };
  if (node.type === "llm") {
    const meta = isRecord(wf.metadata) ? own(wf.metadata, "agentos") : undefined;
    const texts = isRecord(meta) ? own(meta, "instructions") : undefined;
    const text = isRecord(texts) ? own(texts, node.id) : undefined;
    const cfg: Obj = {
      type: "gmi",
      instructions: typeof text === "string" ? text : `Follow prompt ${String(c.promptRef)}.`,
    };
    for (const key of Object.keys(c)) {
      if (key === "temperature") cfg.temperature = c[key];
      else if (key === "maxOutputTokens") cfg.maxTokens = c[key];
      else if (key === "model" && c[key] === HOST_MODEL) continue;
      else if (key === "promptRef" && isImportedRef(c[key], node.id)) continue;
      else lose(key);
    }
    return {
      id: node.id,
      type: "gmi",
      executorConfig: cfg,
      executionMode: "single_turn",
      checkpoint: "none",
      effectClass: "read",
    };
  }
  if (node.type === "tool") {
    const ref = String(c.usesTool);
    const at = ref.lastIndexOf("@");
    const name = ref.slice("tool:".length, at);
    if (ref.slice(at + 1) !== ASSUMED_VERSION) lose("usesTool");
    const params = isRecord(c.params) ? cloneJson(c.params) : {};
    for (const key of Object.keys(c)) if (!TOOL_KEYS.has(key)) lose(key);
    const timeout = typeof c.timeoutMs === "number" ? { timeout: c.timeoutMs } : {};
    if (name === "agentos.human" && typeof params.prompt === "string") {
      return {
        id: node.id,
        type: "human",
        executorConfig: { type: "human", prompt: params.prompt },
        ...common,
        effectClass: "human",
        ...timeout,
      };
    }
    if (name === "agentos.guardrail" && Array.isArray(params.guardrailIds)) {
      const cfg = {
        type: "guardrail",
        guardrailIds: params.guardrailIds,
        onViolation: params.onViolation,
      };
      return {
        id: node.id,
        type: "guardrail",
        executorConfig: cfg,
        ...common,
        effectClass: "pure",
        ...timeout,
      };
    }
    if (name === "agentos.subgraph" && typeof params.graphId === "string") {
      return {
        id: node.id,
        type: "subgraph",
        executorConfig: {
          type: "subgraph",
          graphId: params.graphId,
          ...(isRecord(params.inputMapping) ? { inputMapping: params.inputMapping } : {}),
          ...(isRecord(params.outputMapping) ? { outputMapping: params.outputMapping } : {}),
        },
        ...common,
        effectClass: "read",
        ...timeout,
      };
    }
    const cfg = {
      type: "tool",
      toolName: name,
      ...(c.params === undefined ? {} : { args: params }),
    };
    return {
      id: node.id,
      type: "tool",
      executorConfig: cfg,
      ...common,
      effectClass: "external",
      ...timeout,
    };
  }
  const config = at("config");
  routesOf(node).forEach((r) => {
    const { condition } = r;
    if (condition !== undefined)
      warnings.add("decision condition", () =>
        omitted(
          `${config}${r.pointerSuffix}`,
          `decision '${node.id}': condition ${JSON.stringify(condition)} has no AgentOS form; the router gets a function stub`,
          { nodeId: node.id },
        ),
      );
    if (r.maxRetries !== undefined)
      warnings.add("maxRetries", () =>
        omitted(
          `${config}${r.pointerSuffix}/maxRetries`,
          `decision '${node.id}': maxRetries has no AgentOS form`,
          { nodeId: node.id },
        ),
      );
  });
  return {
    id: node.id,
    type: "router",
    executorConfig: { type: "router", condition: { type: "function" } },
    ...common,
    effectClass: "pure",
  };
}

/**
 * Exports a workflow to a CompiledExecutionGraph. Never throws. Everything without an IR form is
 * declared: `version` and `autonomyLevel` always, decision conditions, decorators, delegate edges.
 *
 * @example
 * ```ts
 * import { exportAgentOs } from "agentflow/interop";
 * import { getTemplate } from "agentflow/model";
 *
 * const wf = getTemplate("document-review");
 * if (wf === undefined) throw new Error("no such template");
 * const { document, warnings } = exportAgentOs(wf);
 * document.id; // → "agnt-doc-review"
 * // the IR has no version and no autonomy level
 * warnings.slice(0, 2).map((w) => w.path); // → ["/version", "/autonomyLevel"]
 * ```
 */
export function exportAgentOs(wf: AgentWorkflow): ExportResult<Record<string, unknown>> {
  const warnings = new ExportWarnings();
  declareTop(wf, warnings);
  const special = new Map<string, NonNullable<ReturnType<typeof inserted>>>();
  for (const n of wf.nodes) {
    const s = inserted(n);
    if (s !== undefined) special.set(n.id, s);
  }
  const nodes: Obj[] = [];
  const routesOf = routesOnce();
  wf.nodes.forEach((n, i) => {
    if (!special.has(n.id)) nodes.push(exportNode(n, i, wf, warnings, routesOf));
  });
  const edges: Obj[] = [];
  const nextId = (): string => `edge-${String(edges.length + 1)}`;
  const add = (e: Obj): void => {
    edges.push({ id: nextId(), ...e });
  };
  // Written out, not spread: a graph of 100,000 nodes has as many static edges.
  const link = (source: string, target: string): void => {
    edges.push({ id: nextId(), source, target, type: "static" });
  };
  const [entry] = wf.nodes;
  if (entry !== undefined) link(START, entry.id);
  const byId = new Map<string, AgentNode>(); // the first node of each id
  for (const n of wf.nodes) if (!byId.has(n.id)) byId.set(n.id, n);
  const hasOut = new Set<string>();
  const routed = new Set<string>();
  const route = (id: string): void => {
    const node = byId.get(id);
    if (routed.has(id) || node?.type !== "decision") return;
    routed.add(id);
    for (const r of routesOf(node))
      edges.push({
        id: nextId(),
        source: id,
        target: end(r.next),
        type: "conditional",
        condition: { type: "function" },
      });
  };
  wf.edges.forEach((e, i) => {
    const from = byId.get(e.from);
    if (e.edgeType === "delegate") {
      warnings.add("delegate edge", () =>
        omitted(
          pointer("edges", i),
          `delegate edge '${e.from}' -> '${e.to}' left out: delegation has no AgentOS form`,
          { from: e.from, to: e.to },
        ),
      );
      return;
    }
    const { when } = e;
    if (when !== undefined)
      warnings.add("edge label", () =>
        omitted(
          pointer("edges", i, "when"),
          `edge '${e.from}' -> '${e.to}': when has no AgentOS form`,
          { when },
        ),
      );
    if (e.edgeType === "toolCall")
      warnings.add("toolCall edge", () =>
        omitted(
          pointer("edges", i, "edgeType"),
          `edge '${e.from}' -> '${e.to}': toolCall is written as a static edge`,
          {},
        ),
      );
    if (from?.type === "decision") {
      route(from.id);
      return;
    }
    hasOut.add(e.from);
    const s = special.get(e.to);
    if (s?.source !== e.from) {
      link(e.from, e.to);
      return;
    }
    const onTrue = end(String((s.config.onTrue as Obj).next));
    const onFalse = end(String((s.config.onFalse as Obj).next));
    if (s.kind === "personality") {
      const [, trait = "", threshold = "0"] = PERSONALITY.exec(String(s.config.condition)) ?? [];
      const personalityCondition = {
        trait,
        threshold: Number(threshold),
        above: onTrue,
        below: onFalse,
      };
      add({ source: e.from, target: onTrue, type: "personality", personalityCondition });
      add({ source: e.from, target: onFalse, type: "personality", personalityCondition });
      return;
    }
    const [, kind = "any", query] = DISCOVERY.exec(String(s.config.condition)) ?? [];
    add({
      source: e.from,
      target: onTrue,
      type: "discovery",
      ...(query === undefined ? {} : { discoveryQuery: unquote(query) }),
      discoveryKind: kind,
      discoveryFallback: onFalse,
    });
  });
  for (const n of wf.nodes) {
    if (n.type === "decision" && !special.has(n.id)) route(n.id);
    else if (n.type !== "decision" && !hasOut.has(n.id)) link(n.id, END);
  }
  const document: Obj = {
    id: wf.id,
    name: wf.name,
    nodes,
    edges,
    stateSchema: {
      input: partition(wf.inputSchema, wf),
      scratch: { type: "object", properties: {} },
      artifacts: partition(wf.outputSchema, wf),
    },
  };
  return { document, warnings: warnings.list() };
}
