/**
 * The routes of a text decision built from a flowchart step's edges (a user turn, a decision, or
 * an agent's choice), and the targets of those edges: a node, or `"end"` for a terminal.
 */
import { pointer } from "../../model/index.js";
import type { Draft } from "../pipeline.js";
import type { InteropWarning } from "../types.js";
import { choiceCondition, defaultCondition } from "./choice.js";
import { fail } from "./read.js";
import type { Agent2ModelEdge, Agent2ModelFlowchart, Agent2ModelTurn } from "./types.js";

/** Everything node building needs, shared so that helpers stay pure over their inputs. */
export interface Context {
  readonly chart: Agent2ModelFlowchart;
  readonly ids: ReadonlyMap<string, string>;
  /** Agent id (source) → the id of the decision that holds its choice. */
  readonly choices: ReadonlyMap<string, string>;
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
export function target(ctx: Context, edge: Agent2ModelEdge, from: string, route?: string): string {
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
  return last ? defaultCondition(node.role, edge.to) : choiceCondition(edge.to);
}

/**
 * A user turn, decision or agent's choice: binary for one or two edges, multi-way (cases +
 * otherwise) beyond.
 */
export function decisionConfig(ctx: Context, node: Agent2ModelTurn, id: string): Draft {
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
