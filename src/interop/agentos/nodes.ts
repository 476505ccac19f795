/**
 * AgentOS nodes → agentflow nodes. gmi → llm, tool → tool, router → decision (routes come from
 * its edges); human, guardrail, extension and subgraph nodes become tool nodes bound to a
 * documented contract ref (declared). Voice nodes, and anything that reroutes flow on a guardrail
 * violation, fail loudly because dropping them would change what the graph can do.
 */
import { pointer } from "../../model/index.js";
import { cloneJson, describeValue, isRecord, own } from "../json.js";
import type { InteropWarning } from "../types.js";
import { renamedId } from "../ids.js";
import { dropped, guessed } from "../warnings.js";
import { idIn } from "./common.js";
import { gate, GATES } from "./gates.js";
import type { Config, Ctx } from "./node-read.js";
import { ASSUMED_VERSION, at, dropKeys, str, toolRef } from "./node-read.js";
import type { Draft, MappedNode } from "./types.js";
import { fail } from "./types.js";
import { namesNoNode } from "./router-fanout.js";
import { AGENTOS_TOOLS, DEFAULT_ITERATIONS } from "./tool-loop.js";
import { AGENTOS_HOST_MODEL } from "../../model/internal.js";

export { ASSUMED_VERSION } from "./node-read.js";
/** The model name of imported gmi nodes: in AgentOS the host supplies the model call. */
export const HOST_MODEL = AGENTOS_HOST_MODEL;

/** Node keys read by every mapping; the rest are declared or mapped per key below. */
const MAPPED = new Set(["id", "type", "executorConfig"]);
/** Values that carry nothing the agentflow node lacks, so dropping them is not declared. */
const SILENT: ReadonlyMap<string, unknown> = new Map([
  ["executionMode", "single_turn"],
  ["checkpoint", "none"],
]);
/** The modes AgentOS records on a gmi node; its runtime reads none of them. */
const GMI_MODES: ReadonlySet<unknown> = new Set([
  "single_turn",
  "react_bounded",
  "planner_controlled",
]);
/** Types refused: no agentflow construct runs a voice pipeline (a multi-turn session). */
const REFUSED: ReadonlyMap<string, string> = new Map([
  ["voice", "a voice pipeline node has no agentflow node form"],
]);

/** `maxInternalIterations` as AgentOS bounds the loop with it; `undefined` for a value it cannot. */
function iterations(cfg: Config): number | undefined {
  const value = own(cfg, "maxInternalIterations") ?? DEFAULT_ITERATIONS;
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : undefined;
}

function gmi(ctx: Ctx, cfg: Config): { config: Draft; max: number | undefined } {
  const instructions = str(ctx, cfg, "instructions");
  const promptRef = `prm:agentos.${ctx.nodeId}@${ASSUMED_VERSION}`;
  ctx.instructions[ctx.nodeId] = instructions;
  const max = iterations(cfg);
  const loop = `${ctx.nodeId}.tools`;
  const bound =
    max === undefined
      ? "with no bound agentflow can read"
      : `at most ${String(max)} time(s) (maxInternalIterations${own(cfg, "maxInternalIterations") === undefined ? ", AgentOS's default" : ""})`;
  ctx.warnings.push(
    guessed(
      at(ctx, "executorConfig"),
      `node '${ctx.id}': model and promptRef are not in the IR; the host supplies the model, the instructions are kept in metadata. Like every gmi node (AgentOS does not read executionMode) it runs a tool loop in which the model may call any tool the host runs: read as the text decision '${loop}' calling a tool node on '${AGENTOS_TOOLS}' ${bound}, then going on; that tool's effect is unknown until a contract states it`,
      {
        nodeId: ctx.id,
        model: HOST_MODEL,
        promptRef,
        toolLoop: { usesTool: AGENTOS_TOOLS, maxRetries: max ?? null },
      },
    ),
  );
  const config: Draft = { model: HOST_MODEL, promptRef };
  const temperature = own(cfg, "temperature");
  const maxTokens = own(cfg, "maxTokens");
  const known = max === undefined ? ["instructions"] : ["instructions", "maxInternalIterations"];
  if (typeof temperature === "number" && temperature >= 0 && temperature <= 2) {
    config.temperature = temperature;
    known.push("temperature");
  }
  if (typeof maxTokens === "number" && Number.isInteger(maxTokens) && maxTokens > 0) {
    config.maxOutputTokens = maxTokens;
    known.push("maxTokens");
  }
  dropKeys(ctx, cfg, known);
  return { config, max };
}

function tool(ctx: Ctx, cfg: Config, raw: Config): Draft {
  const name = str(ctx, cfg, "toolName");
  const usesTool = toolRef(ctx, name, at(ctx, "executorConfig", "toolName"));
  ctx.warnings.push(
    guessed(
      at(ctx, "executorConfig", "toolName"),
      `node '${ctx.id}': the IR names tools without a version; '${usesTool}' is assumed`,
      {
        nodeId: ctx.id,
        assumed: usesTool,
      },
    ),
  );
  const config: Draft = { usesTool };
  const args = own(cfg, "args");
  const known = ["toolName"];
  if (isRecord(args)) {
    config.params = cloneJson(args);
    known.push("args");
  }
  const timeout = own(raw, "timeout");
  if (typeof timeout === "number" && timeout >= 0) config.timeoutMs = timeout;
  dropKeys(ctx, cfg, known);
  return config;
}

/** Reads a router's condition: an expression is kept as text, a function is only a stub. */
function routerNode(ctx: Ctx, cfg: Config, raw: Config, workflowId: string): MappedNode {
  const cond = own(cfg, "condition");
  const kind = isRecord(cond) ? own(cond, "type") : undefined;
  const expr = isRecord(cond) ? own(cond, "expr") : undefined;
  if (kind !== "function" && !(kind === "expression" && typeof expr === "string")) {
    throw fail(
      at(ctx, "executorConfig", "condition"),
      `router '${ctx.id}' needs a condition {type: "function"} or {type: "expression", expr}`,
      ctx.id,
    );
  }
  const message =
    typeof expr === "string" && namesNoNode(expr)
      ? `router '${ctx.id}': its expression condition ${JSON.stringify(expr)} names no node, so AgentOS follows every static out-edge, and each conditional out-edge whose expression holds`
      : `router '${ctx.id}': its ${kind} condition returns a node id from AgentOS state; AgentOS runs that node and skips only the router's other targets, not the nodes after them, which still run; when it returns an empty value, AgentOS follows every static out-edge at once (and each conditional one whose expression holds), which these routes do not show. Its routes become text conditions, never simulable`;
  ctx.warnings.push(
    guessed(at(ctx, "executorConfig", "condition"), message, {
      nodeId: ctx.id,
      conditionType: kind,
    }),
  );
  dropKeys(ctx, cfg, ["condition"]);
  declareNodeKeys(ctx, raw, "router");
  const node: Draft = { ...named(ctx.id, workflowId), type: "decision", config: {} };
  const base = { sourceId: ctx.id, nodeId: workflowId, index: ctx.i, sourceType: "router", node };
  return typeof expr === "string" && kind === "expression" ? { ...base, routerExpr: expr } : base;
}

/**
 * The id part of a node draft: a source id that had to change is kept as the node's `name`, so
 * that the original is still there to read (as the LangGraph imports do).
 */
function named(sourceId: string, workflowId: string): Draft {
  return sourceId === workflowId ? { id: workflowId } : { id: workflowId, name: sourceId };
}

function declareNodeKeys(ctx: Ctx, raw: Config, type: string): void {
  for (const key of Object.keys(raw)) {
    if (MAPPED.has(key)) continue;
    const value = own(raw, key);
    if (SILENT.has(key) && SILENT.get(key) === value) continue;
    // AgentOS runs every gmi node's tool loop whatever its mode, and the loop is read either way.
    if (key === "executionMode" && type === "gmi" && GMI_MODES.has(value)) continue;
    if (key === "timeout" && type === "tool" && typeof value === "number" && value >= 0) continue;
    if (
      key === "guardrailPolicy" &&
      isRecord(value) &&
      (own(value, "onViolation") === "reroute" || own(value, "rerouteTarget") !== undefined)
    ) {
      throw fail(
        at(ctx, key),
        `node '${ctx.id}': a guardrail policy that reroutes adds a path with no agentflow form; dropping it would remove a branch`,
        ctx.id,
      );
    }
    ctx.warnings.push(
      dropped(at(ctx, key), `node '${ctx.id}': '${key}' has no agentflow form`, {
        nodeId: ctx.id,
        key,
      }),
    );
  }
}

/**
 * Reads one source node. Throws {@link ImportError} for a malformed node, a refused type,
 * or a reroute; pushes a warning for every value dropped or guessed.
 */
export function readNode(
  raw: unknown,
  i: number,
  ids: ReadonlyMap<string, string>,
  warnings: InteropWarning[],
  instructions: Record<string, string>,
): MappedNode {
  if (!isRecord(raw))
    throw fail(pointer("nodes", i), `a node must be an object, found ${describeValue(raw)}`);
  const id = own(raw, "id");
  if (typeof id !== "string" || id === "" || id === "__START__" || id === "__END__") {
    throw fail(
      pointer("nodes", i, "id"),
      `a node needs a non-empty string id that is not a sentinel, found ${describeValue(id)}`,
    );
  }
  const workflowId = idIn(ids, id);
  const ctx: Ctx = { i, id, nodeId: workflowId, warnings, instructions };
  const type = own(raw, "type");
  const cfg = own(raw, "executorConfig");
  if (typeof type !== "string")
    throw fail(
      at(ctx, "type"),
      `node '${id}' needs a string type, found ${describeValue(type)}`,
      id,
    );
  const refusal = REFUSED.get(type);
  if (refusal !== undefined)
    throw fail(at(ctx, "type"), `node '${id}' has type '${type}': ${refusal}`, id);
  if (!isRecord(cfg) || own(cfg, "type") !== type) {
    throw fail(
      at(ctx, "executorConfig"),
      `node '${id}' needs an executorConfig object whose type is '${type}'`,
      id,
    );
  }
  if (workflowId !== id) warnings.push(renamedId(at(ctx, "id"), "node id", id, workflowId));
  const head = named(id, workflowId);
  let node: Draft;
  if (type === "gmi") {
    const { config, max } = gmi(ctx, cfg);
    declareNodeKeys(ctx, raw, type);
    const mapped = { sourceId: id, nodeId: workflowId, index: i, sourceType: type };
    return { ...mapped, node: { ...head, type: "llm", config }, toolLoop: { max } };
  } else if (type === "tool") node = { ...head, type: "tool", config: tool(ctx, cfg, raw) };
  else if (type === "router") return routerNode(ctx, cfg, raw, workflowId);
  else if (GATES.has(type)) {
    node = { ...head, type: "tool", config: gate(ctx, type, cfg) };
  } else {
    throw fail(
      at(ctx, "type"),
      `node '${id}' has type ${describeValue(type)}, which is not an AgentOS node type this importer maps`,
      id,
    );
  }
  declareNodeKeys(ctx, raw, type);
  return { sourceId: id, nodeId: workflowId, index: i, sourceType: type, node };
}
