/**
 * Routers that name no node. AgentOS 0.9.164 follows the node id a router returns, skipping its
 * other targets (not the nodes after them: `skipped.ts`); when it returns an empty value it
 * follows every static out-edge and each conditional one whose expression holds
 * (`GraphRuntime.evaluateEdges`). An expression that is empty whatever the state
 * makes a router with static out-edges a fan-out, not a choice.
 */
import { pointer } from "../../model/index.js";
import type { InteropWarning } from "../types.js";
import { guessed } from "../warnings.js";
import { ASSUMED_VERSION } from "./node-read.js";
import type { Edge, MappedNode } from "./types.js";
import { fail } from "./types.js";

/** The tool name of a router that names no node: a step that leads on to all of its targets. */
export const ROUTER_TOOL = "agentos.router";

/**
 * Whether a router expression always evaluates to the empty string: AgentOS 0.9.164's
 * `safeEvaluateExpression` returns `''` for `''`, `""` or nothing, whatever the state, and
 * `GraphRuntime.evaluateEdges` then has no route target (`if (result.routeTarget)`), so it
 * follows every static out-edge and each conditional one whose expression holds. Any other
 * expression may name a node, or read an empty value from state, only at run time.
 */
export function namesNoNode(expr: string): boolean {
  const trimmed = expr.trim();
  return trimmed === "" || trimmed === "''" || trimmed === '""';
}

/**
 * A router that names no node with only static out-edges: AgentOS runs every target, so it is
 * no choice. It becomes a tool node on the documented ref {@link ROUTER_TOOL} (the importer's
 * rule for AgentOS nodes that do no model or tool work), whose out-edges are a fan-out.
 */
function fanOut(node: MappedNode, group: readonly Edge[], warnings: InteropWarning[]): void {
  const usesTool = `tool:${ROUTER_TOOL}@${ASSUMED_VERSION}`;
  const targets = group.map((edge) => edge.target);
  node.node.type = "tool";
  node.node.config = { usesTool, params: { expr: node.routerExpr ?? "" } };
  warnings.push(
    guessed(
      pointer("nodes", node.index, "type"),
      `router '${node.sourceId}' names no node, so AgentOS runs all of its targets (${targets.map((t) => `'${t}'`).join(", ")}), in parallel: it is read as a tool node bound to '${usesTool}' with an edge to each`,
      { nodeId: node.sourceId, assumed: usesTool, targets },
    ),
  );
}

/** A router that names no node with static and conditional out-edges: no single form. */
function runsBeside(node: MappedNode, group: readonly Edge[]): Error {
  const conditional = group.find((edge) => edge.type !== "static") ?? group[0];
  return fail(
    pointer("edges", conditional?.i ?? 0),
    `router '${node.sourceId}' names no node, so AgentOS runs its static out-edges beside the conditional ones whose expression holds; agentflow has no single form for that`,
    node.sourceId,
  );
}

/**
 * Whether a router's out-edges are a fan-out: it names no node and they are all static, in which
 * case the router becomes the tool node of {@link fanOut}, declared. Otherwise it is a decision;
 * one that names no node with static and conditional out-edges fails.
 */
export function readAsFanOut(
  node: MappedNode,
  group: readonly Edge[],
  warnings: InteropWarning[],
): boolean {
  if (node.routerExpr === undefined || !namesNoNode(node.routerExpr)) return false;
  const statics = group.filter((edge) => edge.type === "static").length;
  if (statics === 0) return false;
  if (statics < group.length) throw runsBeside(node, group);
  fanOut(node, group, warnings);
  return true;
}
