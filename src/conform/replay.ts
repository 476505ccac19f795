/**
 * One recorded run replayed on its approved workflow: each step is matched to the node the
 * graph allows next (path.ts walks the decisions between on the recorded outputs), its model,
 * arguments and spending checked, and what does not fit becomes a deviation with the event that
 * shows it.
 */
import type { AgentNode } from "../model/index.js";
import { TO_END } from "../simulate/internal.js";
import { budgetFindings, usageFindings } from "./budget.js";
import type { CheckFinding } from "./checks.js";
import { gateNeed, identityFindings, toolInputFindings } from "./checks.js";
import { stepCandidates, usesTool } from "./node-index.js";
import { arrive, endedWithoutStatus, expected } from "./path.js";
import { forgetOutput, mergeOutput } from "./replay-output.js";
import type { Replay } from "./replay-state.js";
import { deviate, idOf, START } from "./replay-state.js";
import type { RouteEvent, RunEndEvent, StepEvent } from "./types.js";
import { routeTo } from "./walk.js";

export type { GatedStep, Replay } from "./replay-state.js";
export { startReplay } from "./replay-state.js";

/** The node a step names: by id, by tool name (node id or contract id), or the llm the graph allows. */
function nodeOfStep(r: Replay, step: StepEvent): number | CheckFinding {
  const nodes = r.plan.wf.nodes;
  if (step.node !== undefined) {
    const k = r.plan.graph.index.get(step.node);
    // A named llm or tool node is that node whatever kind the source guessed (LangGraph, for
    // one, does not record whether a node called a model or a tool), and only then.
    const type = k === undefined ? undefined : nodes[k]?.type;
    // A tool the workflow does not use at all is the sharper finding than its node's id.
    const tool = step.tool;
    if (tool !== undefined && !usesTool(r.plan, tool)) {
      return { class: "TOOL_UNKNOWN", data: { tool } };
    }
    if (k === undefined || (type !== "llm" && type !== "tool")) {
      return { class: "NODE_UNKNOWN", data: { node: step.node, in: `workflow ${r.approved.ref}` } };
    }
    // A model call named as a tool's step (or the reverse) is not that step: its model would go
    // unchecked as a tool's, or a tool's call unchecked as a model's.
    if (type !== step.nodeType && step.nodeTypeInferred !== true) {
      const node = nodes[k];
      const approved = node?.type === "tool" ? `tool (${node.config.usesTool})` : "llm";
      const recorded = step.nodeType === "llm" ? "llm (a model call)" : "tool (a tool call)";
      return {
        class: "IDENTITY_MISMATCH",
        data: { node: step.node, field: "step kind", recorded, approved },
      };
    }
    // A step naming both a node and a tool is that node only if the node uses that tool: the
    // tool is what ran, and the node's contract, effect and gate are what was approved.
    if (tool !== undefined && !stepCandidates(r.plan, "tool", tool).includes(k)) {
      const node = nodes[k];
      const approved = node?.type === "tool" ? node.config.usesTool : "no tool (an llm node)";
      return {
        class: "IDENTITY_MISMATCH",
        data: { node: step.node, field: "tool", recorded: tool, approved },
      };
    }
    return k;
  }
  const candidates = stepCandidates(r.plan, step.nodeType, step.tool);
  if (candidates.length === 0) {
    return step.tool !== undefined
      ? { class: "TOOL_UNKNOWN", data: { tool: step.tool } }
      : { class: "NODE_UNKNOWN", data: { node: "an llm node", in: `workflow ${r.approved.ref}` } };
  }
  return candidates.length === 1 ? (candidates[0] ?? 0) : pick(r, candidates);
}

/** Among nodes a step could be, the one the graph allows next (else the first). */
function pick(r: Replay, candidates: readonly number[]): number {
  if (r.prevFailed && candidates.includes(r.prev)) return r.prev;
  const w = expected(r);
  if (w.kind === "node" && candidates.includes(w.target)) return w.target;
  if (w.kind === "undecidable") {
    const reachable = candidates.find((k) => routeTo(r.plan, w.decision, k) !== undefined);
    if (reachable !== undefined) return reachable;
  }
  return candidates[0] ?? 0;
}

function stepAfterEnd(r: Replay, step: StepEvent): void {
  const to = step.node ?? step.tool ?? `an ${step.nodeType} node`;
  deviate(r, step.at, {
    class: "TRANSITION_UNKNOWN",
    data: { from: "the end", to: `"${to}"`, expected: "nothing" },
  });
}

/** Replays one step. */
export function replayStep(r: Replay, step: StepEvent): void {
  if (r.ended) {
    stepAfterEnd(r, step);
    return;
  }
  const found = nodeOfStep(r, step);
  if (typeof found !== "number") {
    deviate(r, step.at, found, step.node ?? step.tool);
    return;
  }
  const k = found;
  const node = r.plan.wf.nodes[k];
  if (node === undefined) return;
  overlap(r, node, step);
  const retry = r.prevFailed && k === r.prev;
  arrive(r, k, step.at);
  r.attempt = retry ? r.attempt + 1 : 1;
  r.prev = k;
  r.prevFailed = step.status === "error";
  r.prevEnd = step.end;
  for (const finding of identityFindings(r.approved, node, step))
    deviate(r, step.at, finding, node.id);
  for (const finding of toolInputFindings(r.approved, node, step))
    deviate(r, step.at, finding, node.id);
  const need = gateNeed(r.approved, node);
  if (need !== undefined) r.gated.push({ node: node.id, ...need, at: step.at });
  spend(r, node, step);
  if (step.status !== "ok") return;
  if (step.output !== undefined) mergeOutput(r, k, step.output);
  else forgetOutput(r, k, node, step);
}

/**
 * A step that began before the step it follows on the path had ended cannot have used that
 * step's output (agent graphs have no parallel branches): the order the records give is not the
 * order the graph has, and which it was cannot be told from times that may come from several
 * clocks — unverified, never conforming.
 */
function overlap(r: Replay, node: AgentNode, step: StepEvent): void {
  const ended = r.prevEnd;
  if (r.prev === START || ended === undefined || step.start === undefined) return;
  if (step.start >= ended) return;
  const data = { node: node.id, previous: idOf(r, r.prev), overlapMs: ended - step.start };
  deviate(r, step.at, { reason: "STEPS_OVERLAP", data }, node.id);
}

function spend(r: Replay, node: AgentNode, step: StepEvent): void {
  const spent = r.spent;
  if (step.status === "ok") spent.steps++;
  if (step.tokens !== undefined) spent.tokens += step.tokens;
  for (const [code, amount] of Object.entries(step.cost ?? {})) {
    spent.cost.set(code, (spent.cost.get(code) ?? 0) + amount);
  }
  const first = step.start ?? step.end;
  const last = step.end ?? step.start;
  if (first !== undefined && (spent.firstTime === undefined || first < spent.firstTime))
    spent.firstTime = first;
  if (last !== undefined && (spent.lastTime === undefined || last > spent.lastTime))
    spent.lastTime = last;
  const budget = r.plan.wf.budget;
  for (const finding of budgetFindings(budget, spent, r.overBudget)) deviate(r, step.at, finding);
  for (const finding of usageFindings(budget, node, step, r.overBudget))
    deviate(r, step.at, finding, node.id);
}

/** Records a route the run says a decision took; it is checked when the path passes the decision. */
export function replayRoute(r: Replay, event: RouteEvent): void {
  const d = r.plan.graph.index.get(event.node);
  if (d === undefined || r.plan.wf.nodes[d]?.type !== "decision") {
    deviate(
      r,
      event.at,
      { class: "NODE_UNKNOWN", data: { node: event.node, in: `workflow ${r.approved.ref}` } },
      event.node,
    );
    return;
  }
  const routes = r.plan.routes[d] ?? [];
  const route = routes.findIndex(
    (p) =>
      (event.route !== undefined && p.label === event.route) ||
      (event.route === undefined && p.next === event.next),
  );
  if (route < 0) {
    const to = event.next ?? event.route ?? "?";
    deviate(
      r,
      event.at,
      {
        class: "TRANSITION_UNKNOWN",
        data: {
          from: `"${event.node}"`,
          to: `"${to}"`,
          expected: routes.map((p) => p.label).join(", "),
        },
      },
      event.node,
    );
    return;
  }
  r.recorded.set(d, { route, at: event.at });
}

/** Ends the run: a completed run must be where the graph ends; the whole run's time is spent. */
export function replayEnd(r: Replay, event: RunEndEvent): void {
  if (r.ended) return;
  if (event.time !== undefined) {
    const spent = r.spent;
    spent.lastTime = Math.max(spent.lastTime ?? event.time, event.time);
    spent.firstTime ??= event.time;
    for (const finding of budgetFindings(r.plan.wf.budget, spent, r.overBudget))
      deviate(r, event.at, finding);
  }
  if (event.status === "ended") {
    endedWithoutStatus(r, event.at);
  } else if (event.status === "completed") {
    if (r.prevFailed) {
      const data = {
        from: `"${idOf(r, r.prev)}" (failed)`,
        to: "the end",
        expected: "no end: a failed step ends no run",
      };
      deviate(r, event.at, { class: "TRANSITION_UNKNOWN", data });
    } else {
      arrive(r, TO_END, event.at);
    }
  }
  r.ended = true;
}

/** Sets the time the run started (its wall time counts from it). */
export function replayStartTime(r: Replay, time: number | undefined): void {
  if (time !== undefined) r.spent.firstTime = Math.min(r.spent.firstTime ?? time, time);
}
