/**
 * The AgentOS IR node of an llm or tool node (llm → gmi; tool → tool, or human / guardrail /
 * subgraph for the contract refs the importer binds them to), and what no node keeps.
 */
import type { AgentNode, AgentWorkflow, DecisionNode } from "../../model/index.js";
import { pointer } from "../../model/index.js";
import { forEachTemplateEntry } from "../../model/internal.js";
import { cloneJson, isRecord, own } from "../json.js";
import type { ExportWarnings } from "../warnings.js";
import { omitted } from "../warnings.js";
import { asObj, isImportedRef, TOOL_KEYS } from "./export-parts.js";
import { ASSUMED_VERSION, HOST_MODEL } from "./nodes.js";
import { namesNoNode, ROUTER_TOOL } from "./router-fanout.js";
import type { FoundLoop } from "./tool-loop.js";
import { DEFAULT_ITERATIONS } from "./tool-loop.js";

type Obj = Record<string, unknown>;

/** What no node type keeps: decorators and a name. */
export function declareCommon(node: AgentNode, i: number, warnings: ExportWarnings): void {
  const at = (...rest: string[]): string => pointer("nodes", i, ...rest);
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
}

/**
 * The most template strings of one node an export lists; one more warning counts the rest of
 * that node. Each listed string carries its path, as deep as the params: params with a template
 * at each of 10,000 levels made 1,000 warnings of 10,000 keys each, and the export took seconds.
 */
const TEMPLATES_PER_NODE = 20;

/**
 * Declares each `{{…}}` template among the params written into `executorConfig`: AgentOS
 * 0.9.164 passes a node's config as it is (`NodeExecutor.executeTool` hands `config.args` to the
 * tool unchanged, a human node shows its `prompt` as written), so nothing resolves the template
 * and the tool receives its text, not the value it names. The value is still written: left out,
 * the tool would get no argument and may run on a default of its own, which no reader of the
 * document would see; written, the literal is in the document for a reviewer to find. Past
 * {@link TEMPLATES_PER_NODE} strings of one node, one warning counts the rest.
 */
function declareTemplates(written: Obj, nodeId: string, i: number, warnings: ExportWarnings): void {
  let strings = 0;
  forEachTemplateEntry(written, undefined, (text, tokens) => {
    strings += 1;
    if (strings > TEMPLATES_PER_NODE) return;
    // Past the limit a warning is counted, not built: its keys are never listed.
    warnings.add("param template", () => {
      const keys = [...tokens()];
      return omitted(
        pointer("nodes", i, "config", "params", ...keys),
        `node '${nodeId}': params.${keys.join(".")} holds a template, written as it is: AgentOS passes a node's config unresolved, so the node receives the text ${JSON.stringify(text)}, not the value it names`,
        { nodeId, keys, template: text },
      );
    });
  });
  const unlisted = strings - TEMPLATES_PER_NODE;
  if (unlisted > 0)
    warnings.add("param template", () =>
      omitted(
        pointer("nodes", i, "config", "params"),
        `node '${nodeId}': ${unlisted.toLocaleString("en-US")} more string(s) of its params hold a template, written as they are and not listed: an export lists at most ${String(TEMPLATES_PER_NODE)} of one node`,
        { nodeId, unlisted, limit: TEMPLATES_PER_NODE },
      ),
    );
}

/** An llm or tool node (a decision is {@link exportRouter}'s). */
export function exportNode(
  node: Exclude<AgentNode, DecisionNode>,
  i: number,
  wf: AgentWorkflow,
  loop: FoundLoop | undefined,
  warnings: ExportWarnings,
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
    // The loop's bound; an unbounded one is AgentOS's default, declared by `exportAgentOs`.
    if (loop?.max !== undefined && loop.max !== DEFAULT_ITERATIONS)
      cfg.maxInternalIterations = loop.max;
    if (loop === undefined)
      warnings.add("gmi tool loop", () =>
        omitted(
          at("type"),
          `llm node '${node.id}' is written as a gmi node, which runs AgentOS's tool loop (up to ${String(DEFAULT_ITERATIONS)} calls of any tool the host runs); the node has none, and an import reads one back`,
          { nodeId: node.id },
        ),
      );
    return {
      id: node.id,
      type: "gmi",
      executorConfig: cfg,
      executionMode: "single_turn",
      checkpoint: "none",
      effectClass: "read",
    };
  }
  {
    const ref = String(c.usesTool);
    const at = ref.lastIndexOf("@");
    const name = ref.slice("tool:".length, at);
    if (ref.slice(at + 1) !== ASSUMED_VERSION) lose("usesTool");
    const params = isRecord(c.params) ? cloneJson(c.params) : {};
    for (const key of Object.keys(c)) if (!TOOL_KEYS.has(key)) lose(key);
    const timeout = typeof c.timeoutMs === "number" ? { timeout: c.timeoutMs } : {};
    if (name === "agentos.human" && typeof params.prompt === "string") {
      declareTemplates({ prompt: params.prompt }, node.id, i, warnings);
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
      declareTemplates(
        { guardrailIds: params.guardrailIds, onViolation: params.onViolation },
        node.id,
        i,
        warnings,
      );
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
    if (name === ROUTER_TOOL && typeof params.expr === "string" && namesNoNode(params.expr)) {
      // The importer's reading of a router that names no node: written back as that router,
      // whose static out-edges (this node's data edges) AgentOS all follows.
      return {
        id: node.id,
        type: "router",
        executorConfig: { type: "router", condition: { type: "expression", expr: params.expr } },
        ...common,
        effectClass: "pure",
        ...timeout,
      };
    }
    if (name === "agentos.subgraph" && typeof params.graphId === "string") {
      const { graphId, inputMapping, outputMapping } = params;
      declareTemplates({ graphId, inputMapping, outputMapping }, node.id, i, warnings);
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
    declareTemplates(params, node.id, i, warnings);
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
}
