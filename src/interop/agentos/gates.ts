/**
 * AgentOS human, guardrail, extension and subgraph nodes: each a tool node bound to a documented
 * contract ref, declared. A human node that can decide without a person gets its own ref
 * (`human.ts`). A guardrail that reroutes fails loudly: dropping it would remove a branch.
 */
import { cloneJson, describeValue, isRecord, own } from "../json.js";
import { guessed } from "../warnings.js";
import { automatedHuman, HUMAN_TOOL, humanDecision } from "./human.js";
import type { Config, Ctx } from "./node-read.js";
import { at, dropKeys, str, toolRef } from "./node-read.js";
import type { Draft } from "./types.js";
import { fail } from "./types.js";

/** The keys {@link gate} reads for human, guardrail and extension nodes (a subgraph lists its own). */
const GATE_KEYS = ["prompt", "guardrailIds", "onViolation", "extensionId", "method"];

/** The node types read as a tool node on a contract ref. */
export const GATES: ReadonlySet<string> = new Set(["human", "guardrail", "extension", "subgraph"]);

/**
 * A subgraph runs another compiled graph that the IR names only by id, so the node stands for
 * it as a tool bound to one contract ref; the id and field mappings travel as params.
 */
function subgraphParams(ctx: Ctx, cfg: Config): Draft {
  const params: Draft = { graphId: str(ctx, cfg, "graphId") };
  for (const key of ["inputMapping", "outputMapping"]) {
    const value = own(cfg, key);
    if (isRecord(value)) params[key] = cloneJson(value);
  }
  return params;
}

/** human / guardrail / extension / subgraph: a tool node on a documented contract ref, declared. */
export function gate(ctx: Ctx, type: string, cfg: Config): Draft {
  let name: string;
  let params: Draft;
  if (type === "subgraph") {
    name = "agentos.subgraph";
    params = subgraphParams(ctx, cfg);
  } else if (type === "human") {
    const decision = humanDecision(cfg);
    if (decision.tool !== HUMAN_TOOL) {
      const config = automatedHuman(decision, {
        nodeId: ctx.id,
        typePath: at(ctx, "type"),
        prompt: str(ctx, cfg, "prompt"),
        usesTool: toolRef(ctx, decision.tool, at(ctx, "executorConfig")),
        warnings: ctx.warnings,
      });
      dropKeys(ctx, cfg, ["prompt", ...Object.keys(decision.params)]);
      return config;
    }
    name = HUMAN_TOOL;
    params = { prompt: str(ctx, cfg, "prompt") };
  } else if (type === "guardrail") {
    name = "agentos.guardrail";
    const onViolation = own(cfg, "onViolation");
    if (onViolation === "reroute" || own(cfg, "rerouteTarget") !== undefined) {
      throw fail(
        at(ctx, "executorConfig", "onViolation"),
        `guardrail node '${ctx.id}' reroutes on a violation; that path has no agentflow form and dropping it would remove a branch`,
        ctx.id,
      );
    }
    params = cloneJson({
      guardrailIds: own(cfg, "guardrailIds") ?? [],
      onViolation: onViolation ?? "block",
    });
  } else {
    name = str(ctx, cfg, "extensionId");
    params = { method: str(ctx, cfg, "method") };
  }
  const usesTool = toolRef(ctx, name, at(ctx, "executorConfig"));
  const nested =
    type === "subgraph"
      ? `, standing for nested graph ${describeValue(params.graphId)} (its nodes are not in the IR)`
      : "";
  ctx.warnings.push(
    guessed(
      at(ctx, "type"),
      `node '${ctx.id}': a ${type} node is read as a tool node bound to '${usesTool}'${nested}`,
      type === "subgraph"
        ? { nodeId: ctx.id, assumed: usesTool, graphId: params.graphId }
        : { nodeId: ctx.id, assumed: usesTool },
    ),
  );
  // A subgraph mapping that is not an object was not kept, so it is declared.
  dropKeys(ctx, cfg, type === "subgraph" ? Object.keys(params) : GATE_KEYS);
  return { usesTool, params };
}
