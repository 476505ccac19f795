/**
 * An agent2model step with several edges is a choice: its traversal (`traversal.py`,
 * `sample_path` / `_choose_edge`) takes exactly one outgoing edge at every non-terminal node,
 * whatever its role, and whether or not the edge has a `when`. These rules say how such a choice
 * is named and declared; `import.ts` builds it.
 */
import { pointer } from "../../model/index.js";
import type { InteropWarning } from "../types.js";
import { guessed } from "../warnings.js";
import type { Agent2ModelRole, Agent2ModelTurn } from "./types.js";

/** The condition of a user turn that has a single, unconditional edge. */
export const USER_TURN_CONDITION = "the user has taken their turn";

/**
 * The condition given to the single edge of a user turn or decision that has no `when`; the
 * export omits `when` where the condition is this one, so that the edge reads back the same.
 */
export function defaultCondition(role: Agent2ModelRole, to: string): string {
  return role === "user" ? USER_TURN_CONDITION : choiceCondition(to);
}

/**
 * The condition of an edge without `when` among several: agent2model's walk (`traversal.py`,
 * `_choose_edge`) takes one edge at every step whether or not it has a `when`, so such an edge
 * is one of the choices, named by its target. The export omits `when` where the condition is
 * this one.
 */
export function choiceCondition(to: string): string {
  return `continue to '${to}'`;
}

/** The id an agent's choice asks for: the decision after the agent's llm node. */
export function choiceId(agentId: string): string {
  return `${agentId}.choice`;
}

/**
 * Whether an agent turn chooses: several edges, or a `when`. agent2model takes exactly one edge
 * at every non-terminal step, agent turns included, so an agent with edges to `b` and `c` runs
 * one of them, never both; an llm node cannot route, so a decision after it holds the choice.
 */
export function choosesEdge(node: Agent2ModelTurn): boolean {
  return (
    node.role === "agent" && (node.next.length > 1 || node.next.some((e) => e.when !== undefined))
  );
}

/** How a declaration says what an edge without `when` among several is read as. */
export const UNLABELLED = `; agent2model takes one edge at each step, so an edge without 'when' among several is one of the choices, read as "${choiceCondition("<target>")}"`;

/** The warning that declares an agent's choice: the decision `id` holds it, after the llm node. */
export function choiceDeclared(node: Agent2ModelTurn, id: string): InteropWarning {
  const labelled = node.next.some((e) => e.when !== undefined) ? " with 'when'" : "";
  const unlabelled = node.next.slice(0, -1).filter((e) => e.when === undefined);
  const message = `agent '${node.id}' has ${String(node.next.length)} edge(s)${labelled}: agent2model takes one of them at each step, never two, so the choice is the text decision '${id}' after the llm node (never simulable); its last edge is the fallback${unlabelled.length === 0 ? "" : UNLABELLED}`;
  return guessed(pointer("nodes", node.id, "next"), message, { nodeId: node.id, decisionId: id });
}
