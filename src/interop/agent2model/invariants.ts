/**
 * The seed's five flowchart invariants (agent2model.ir.validator) as agentflow diagnostics, so
 * that a flowchart that agent2model would refuse is reported before it is imported, each finding
 * with a JSON Pointer into the flowchart.
 */
import type { Diagnostic, DiagnosticTarget } from "../../model/index.js";
import { appendTo } from "../edge-index.js";
import { pointer, WORKFLOW_TARGET } from "../../model/index.js";
import { ImportError } from "../types.js";
import { readFlowchart } from "./read.js";
import type { Agent2ModelFlowchart, Agent2ModelNode } from "./types.js";

/** The flowchart is not structurally a flowchart; the invariants could not be checked. */
export const A2M_MALFORMED = "A2M_MALFORMED";
/** Invariant 1: `start` names no node. */
export const A2M_START_MISSING = "A2M_START_MISSING";
/** Invariant 2: an edge target names no node. */
export const A2M_EDGE_TARGET_MISSING = "A2M_EDGE_TARGET_MISSING";
/** Invariant 3: a non-terminal node has no outgoing edge. */
export const A2M_NO_OUTGOING_EDGE = "A2M_NO_OUTGOING_EDGE";
/** Invariant 4: a terminal cannot be reached from `start`. */
export const A2M_TERMINAL_UNREACHABLE = "A2M_TERMINAL_UNREACHABLE";
/** Invariant 5: a node reachable from `start` reaches no terminal (a dead-end trap). */
export const A2M_DEAD_END_TRAP = "A2M_DEAD_END_TRAP";

function nodeTarget(nodeId: string): DiagnosticTarget {
  return { kind: "node", nodeId };
}

function diagnostic(
  code: string,
  message: string,
  target: DiagnosticTarget,
  path: string,
  data: Record<string, unknown>,
): Diagnostic {
  return { code, severity: "error", message, target, path, data };
}

/** Ids reachable from `from` over `adjacency` (iterative, so deep charts cannot overflow). */
function reach(
  from: readonly string[],
  adjacency: ReadonlyMap<string, readonly string[]>,
): Set<string> {
  const seen = new Set<string>(from);
  const stack = [...from];
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    for (const next of adjacency.get(id) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(next);
    }
  }
  return seen;
}

function edgeChecks(chart: Agent2ModelFlowchart, ids: ReadonlySet<string>): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const node of chart.nodes) {
    if (node.kind !== "turn") continue;
    if (node.next.length === 0) {
      const message = `node '${node.id}' (${node.role}) has no outgoing edge`;
      out.push(
        diagnostic(A2M_NO_OUTGOING_EDGE, message, nodeTarget(node.id), pointer("nodes", node.id), {
          nodeId: node.id,
        }),
      );
    }
    for (const edge of node.next) {
      if (ids.has(edge.to)) continue;
      const message = `edge from '${node.id}' goes to '${edge.to}', which is not a node`;
      const data = { nodeId: node.id, to: edge.to };
      out.push(diagnostic(A2M_EDGE_TARGET_MISSING, message, nodeTarget(node.id), edge.path, data));
    }
  }
  return out;
}

function reachChecks(chart: Agent2ModelFlowchart, ids: ReadonlySet<string>): Diagnostic[] {
  const forward = new Map<string, string[]>();
  const backward = new Map<string, string[]>();
  for (const node of chart.nodes) {
    if (node.kind !== "turn") continue;
    for (const edge of node.next) {
      if (!ids.has(edge.to)) continue;
      appendTo(forward, node.id, edge.to);
      appendTo(backward, edge.to, node.id);
    }
  }
  const reachable = reach([chart.start], forward);
  const terminals = chart.nodes.filter((n) => n.kind === "terminal").map((n) => n.id);
  const escapes = reach(terminals, backward);
  const out: Diagnostic[] = [];
  for (const node of chart.nodes) {
    const at = pointer("nodes", node.id);
    if (node.kind === "terminal" && !reachable.has(node.id)) {
      const message = `terminal '${node.id}' (${node.outcome}) cannot be reached from start '${chart.start}'`;
      out.push(
        diagnostic(A2M_TERMINAL_UNREACHABLE, message, nodeTarget(node.id), at, {
          nodeId: node.id,
          outcome: node.outcome,
        }),
      );
    }
    if (reachable.has(node.id) && !escapes.has(node.id)) {
      const message = `node '${node.id}' is reachable from start but reaches no terminal (a dead-end trap)`;
      out.push(
        diagnostic(A2M_DEAD_END_TRAP, message, nodeTarget(node.id), at, { nodeId: node.id }),
      );
    }
  }
  return out;
}

/**
 * Checks a decoded flowchart against the seed's five invariants and returns one error
 * diagnostic per violation (codes `A2M_*`, `path` a JSON Pointer into the flowchart), in node
 * order; `[]` when the flowchart is valid. A value that is not a flowchart at all gives one
 * {@link A2M_MALFORMED} diagnostic. Never throws.
 *
 * @example
 * ```ts
 * import { checkAgent2ModelInvariants } from "agentflow/interop";
 *
 * const flowchart = {
 *   name: "refund_desk",
 *   start: "greet",
 *   nodes: {
 *     greet: { role: "agent", prompt: "Greet the customer.", next: ["refund"] },
 *     refund: { role: "agent", prompt: "Explain how the refund is paid." }, // forgot `next`
 *     done: { terminal: "success" },
 *   },
 * };
 * checkAgent2ModelInvariants(flowchart).map((d) => `${d.code} ${d.path}`);
 * // → [
 * //     "A2M_NO_OUTGOING_EDGE /nodes/refund",
 * //     "A2M_DEAD_END_TRAP /nodes/greet",
 * //     "A2M_DEAD_END_TRAP /nodes/refund",
 * //     "A2M_TERMINAL_UNREACHABLE /nodes/done",
 * //   ]
 * ```
 */
export function checkAgent2ModelInvariants(doc: unknown): Diagnostic[] {
  let chart: Agent2ModelFlowchart;
  try {
    chart = readFlowchart(doc, []);
  } catch (error) {
    const path = error instanceof ImportError ? error.path : "";
    const reason = error instanceof ImportError ? error.reason : String(error);
    return [diagnostic(A2M_MALFORMED, reason, WORKFLOW_TARGET, path, {})];
  }
  const ids = new Set(chart.nodes.map((n: Agent2ModelNode) => n.id));
  if (!ids.has(chart.start)) {
    const message = `start '${chart.start}' names no node`;
    const start = diagnostic(A2M_START_MISSING, message, WORKFLOW_TARGET, "/start", {
      start: chart.start,
    });
    return [start, ...edgeChecks(chart, ids)];
  }
  return [...edgeChecks(chart, ids), ...reachChecks(chart, ids)];
}
