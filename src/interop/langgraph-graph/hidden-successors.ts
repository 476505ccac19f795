/**
 * What runs after a step the drawing reaches by no edge. Python's `get_graph()` traces the edges
 * of the nodes a run reaches from the declared routing only, so a node reached through an undrawn
 * branch is drawn with none of its own: the ReAct loop's `tools → agent` is missing, as is
 * `pay → __end__`. Read as a last node, such a step ended the run, so the tool loop vanished and
 * the loop rules had nothing to flag. Its successors are unknown: it may lead back to its router,
 * to any other node, or end. So each such step gets a text decision over every step and the end
 * (never simulable, no `maxRetries`), and a loop through it is checked as the typed drawing's is.
 */
import { pointer } from "../../model/index.js";
import type { InteropWarning } from "../types.js";
import { guessed } from "../warnings.js";
import type { SourceEdge, SourceNode } from "./graph-read.js";
import { fail } from "./graph-read.js";
import type { RouterPlan } from "./routers.js";

/**
 * The most branches the steps of unknown successors may have in all (each has one per step, and
 * the end): the reading is quadratic, so a drawing past it is refused rather than read slowly.
 */
export const MAX_HIDDEN_BRANCHES = 100_000;

/**
 * The branches of each step in `open` (the steps reached by no drawn edge and with no drawn edge
 * of their own): one conditional edge to every step, in document order, and one to `end`, its
 * otherwise. Throws the import's refusal past {@link MAX_HIDDEN_BRANCHES}.
 */
export function unknownSuccessorBranches(
  open: readonly SourceNode[],
  steps: readonly SourceNode[],
  end: SourceNode,
): SourceEdge[] {
  const first = open[0];
  if (first === undefined) return [];
  const total = open.length * (steps.length + 1);
  if (total > MAX_HIDDEN_BRANCHES) {
    const message = `${String(open.length)} steps the drawing reaches by no edge have no drawn successor, so each may lead to any of the ${String(steps.length)} steps or end: ${String(total)} branches, more than the ${String(MAX_HIDDEN_BRANCHES)} read; give their routers a path map or a Literal return type (Command[Literal[...]]) so that LangGraph draws them`;
    throw fail(pointer("nodes", first.index), message);
  }
  const edges: SourceEdge[] = [];
  const branch = (from: SourceNode, to: SourceNode, label: string): SourceEdge => ({
    index: -1,
    from,
    to,
    label,
    conditional: true,
    hidden: true,
  });
  for (const from of open) {
    for (const to of steps) edges.push(branch(from, to, String(to.rawId)));
    edges.push(branch(from, end, "__end__"));
  }
  return edges;
}

/** Declares each step of unknown successors at `/nodes/<i>`, with the decision that reads them. */
export function declareUnknownSuccessors(
  open: readonly SourceNode[],
  plans: ReadonlyMap<SourceNode, RouterPlan>,
  idOf: (n: SourceNode) => string,
  warnings: InteropWarning[],
): void {
  for (const step of open) {
    const id = idOf(step);
    const decision = plans.get(step)?.decisions[0]?.id;
    const via = typeof decision === "string" ? decision : "";
    const message = `node '${String(step.rawId)}' runs only through a branch the drawing does not show, and LangGraph does not draw the edges of a node it does not reach: what runs after it is unknown. It may lead back to its router, to any other node, or end, so it is read as the text decision '${via}' over every step and the end (never simulable, no maxRetries): a loop through it is checked as a loop, as the typed drawing's would be`;
    warnings.push(
      guessed(pointer("nodes", step.index), message, {
        nodeId: id,
        decision: via,
        successors: "unknown",
      }),
    );
  }
}
