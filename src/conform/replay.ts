/**
 * One recorded run replayed on its approved workflow: each step is matched to the node the
 * graph allows next, the decisions between are evaluated on the recorded outputs, and what
 * does not fit becomes a deviation with the event that shows it. The state is the run's own
 * and is dropped when the run ends.
 */
import type { AgentNode } from "../model/index.js";
import type { Plan } from "../simulate/internal.js";
import { assignOwn, TO_END } from "../simulate/internal.js";
import type { ApprovedWorkflow } from "./approved.js";
import type { CheckFinding, Spent } from "./checks.js";
import {
  budgetFindings,
  gateNeed,
  identityFindings,
  toolIdOf,
  toolInputFindings,
} from "./checks.js";
import type { Deviation, Unverified } from "./deviation.js";
import type { EventAt, ProcessLink, RouteEvent, RunEndEvent, StepEvent } from "./types.js";
import type { Taken, Walk } from "./walk.js";
import { evaluateRoute, routeTo, walk } from "./walk.js";

/** The run has not executed a node yet. */
const START = -1;

/** A tool step that needs a gate passed, kept for the process-level check. */
export interface GatedStep {
  readonly node: string;
  readonly effect: string;
  readonly authorization: string;
  readonly at: EventAt;
}

/** A run being replayed. */
export interface Replay {
  readonly run: string;
  readonly approved: ApprovedWorkflow;
  readonly plan: Plan;
  /** Index of the last node executed, or START. */
  prev: number;
  prevFailed: boolean;
  /** Attempts of `prev` in its current visit. */
  attempt: number;
  merged: Record<string, unknown>;
  readonly retries: Map<number, number>;
  /** Routes the run recorded, by decision index, with the event that recorded them. */
  readonly recorded: Map<number, { readonly route: number; readonly at: EventAt }>;
  readonly spent: Spent;
  readonly overBudget: Set<string>;
  ended: boolean;
  readonly deviations: Deviation[];
  readonly unverified: Unverified[];
  readonly gated: GatedStep[];
  process?: ProcessLink;
}

/** A replay of `approved` for run `run`. */
export function startReplay(run: string, approved: ApprovedWorkflow, plan: Plan): Replay {
  return {
    run,
    approved,
    plan,
    prev: START,
    prevFailed: false,
    attempt: 0,
    merged: {},
    retries: new Map(),
    recorded: new Map(),
    spent: { steps: 0, tokens: 0, cost: new Map(), firstTime: undefined, lastTime: undefined },
    overBudget: new Set(),
    ended: false,
    deviations: [],
    unverified: [],
    gated: [],
  };
}

const idOf = (r: Replay, k: number): string => r.plan.ids[k] ?? "";

function deviate(r: Replay, at: EventAt, finding: CheckFinding, node?: string): void {
  if ("class" in finding) {
    r.deviations.push({
      class: finding.class,
      run: r.run,
      at,
      ...(node === undefined ? {} : { node }),
      data: finding.data,
    });
  } else {
    r.unverified.push({
      reason: finding.reason,
      run: r.run,
      at,
      ...(node === undefined ? {} : { node }),
      data: finding.data,
    });
  }
}

/** Where the walk starts: the entry, the node after the last, or nowhere after a failure. */
function walkFrom(r: Replay): number {
  if (r.prev === START) return r.plan.graph.entry ?? TO_END;
  return r.plan.next[r.prev] ?? TO_END;
}

/** The walk from the last node, with the recorded routes it may follow. */
function expected(r: Replay): Walk {
  const recorded = new Map<number, number>();
  for (const [k, v] of r.recorded) recorded.set(k, v.route);
  return walk({ plan: r.plan, from: walkFrom(r), merged: r.merged, recorded });
}

/** Counts the loop-backs among the routes taken, against each route's `maxRetries`. */
function applyTaken(r: Replay, taken: readonly Taken[], at: EventAt): void {
  for (const [d, route] of taken) {
    const planned = r.plan.routes[d]?.[route];
    const recorded = r.recorded.get(d);
    if (recorded !== undefined) {
      checkRecordedRoute(r, d, recorded.route, recorded.at);
      r.recorded.delete(d);
    }
    if (planned?.loopsBack !== true) continue;
    const count = (r.retries.get(d) ?? 0) + 1;
    r.retries.set(d, count);
    const max = planned.maxRetries ?? 0;
    if (count > max) {
      deviate(
        r,
        at,
        { class: "RETRY_EXCEEDED", data: { what: "decision", node: idOf(r, d), count, max } },
        idOf(r, d),
      );
    }
  }
  // A recorded route of a decision the path did not pass: the run claims a decision it did not reach.
  for (const [d, recorded] of r.recorded) {
    deviate(
      r,
      recorded.at,
      {
        class: "TRANSITION_UNKNOWN",
        data: {
          from: r.prev === START ? "the start" : `"${idOf(r, r.prev)}"`,
          to: `"${idOf(r, d)}"`,
          expected: "another node",
        },
      },
      idOf(r, d),
    );
  }
  r.recorded.clear();
}

/** A route the run recorded against the condition evaluated on the recorded output. */
function checkRecordedRoute(r: Replay, d: number, route: number, at: EventAt): void {
  const chosen = evaluateRoute(r.plan, d, r.merged);
  if (!("route" in chosen) || chosen.route === route) return;
  const routes = r.plan.routes[d] ?? [];
  const expectedRoute = routes[chosen.route];
  deviate(
    r,
    at,
    {
      class: "ROUTE_CONTRADICTS",
      data: {
        decision: idOf(r, d),
        recorded: routes[route]?.label ?? String(route),
        expected: expectedRoute?.label ?? String(chosen.route),
        ...(expectedRoute?.conditionText === undefined
          ? {}
          : { condition: expectedRoute.conditionText }),
      },
    },
    idOf(r, d),
  );
}

const label = (r: Replay, k: number): string => (k === TO_END ? "the end" : `"${idOf(r, k)}"`);

/**
 * Moves the replay to node `k` (or the end): follows the walk when it leads there; otherwise
 * says which decision chose otherwise (a contradicted route) or that the graph has no such
 * transition.
 */
function arrive(r: Replay, k: number, at: EventAt): void {
  const from = r.prev === START ? "the start" : `"${idOf(r, r.prev)}"`;
  if (r.prevFailed) {
    const boundary = r.plan.boundaries[r.prev];
    const max = boundary?.maxRetries ?? 0;
    if (k === r.prev) {
      if (r.attempt > max) {
        const data = { what: "error boundary of", node: idOf(r, k), count: r.attempt, max };
        deviate(r, at, { class: "RETRY_EXCEEDED", data }, idOf(r, k));
      }
      return;
    }
    const expectedText =
      max > 0 && r.attempt <= max ? `${from} again` : "no node (the run stops at a failure)";
    deviate(r, at, {
      class: "TRANSITION_UNKNOWN",
      data: { from: `${from} (failed)`, to: label(r, k), expected: expectedText },
    });
    return;
  }
  const w = expected(r);
  if (w.kind === "node" && w.target === k) {
    applyTaken(r, w.taken, at);
    return;
  }
  if (w.kind === "end" && k === TO_END) {
    applyTaken(r, w.taken, at);
    return;
  }
  if (w.kind === "undecidable") {
    const path = routeTo(r.plan, w.decision, k);
    if (path !== undefined) {
      const decision = idOf(r, w.decision);
      if (!w.byModel) {
        const data = { decision, reason: w.reason };
        deviate(r, at, { reason: "ROUTE_UNDECIDABLE", data }, decision);
      }
      applyTaken(r, [...w.taken, ...path], at);
      return;
    }
  }
  // Which decision passed on the way could have led to k by another route?
  for (let i = 0; i < w.taken.length; i++) {
    const [d, route] = w.taken[i] ?? [-1, -1];
    const path = routeTo(r.plan, d, k);
    if (path === undefined) continue;
    const routes = r.plan.routes[d] ?? [];
    const taken = routes[route];
    const recordedLabel = routes[path[0]?.[1] ?? -1]?.label ?? "";
    deviate(
      r,
      at,
      {
        class: "ROUTE_CONTRADICTS",
        data: {
          decision: idOf(r, d),
          recorded: recordedLabel,
          expected: taken?.label ?? "",
          ...(taken?.conditionText === undefined ? {} : { condition: taken.conditionText }),
        },
      },
      idOf(r, d),
    );
    applyTaken(r, [...w.taken.slice(0, i), ...path], at);
    return;
  }
  const expectedText =
    w.kind === "node"
      ? label(r, w.target)
      : w.kind === "end"
        ? "the end"
        : w.kind === "stopped"
          ? `nowhere: ${w.why}`
          : `a route of "${idOf(r, w.decision)}"`;
  deviate(r, at, {
    class: "TRANSITION_UNKNOWN",
    data: { from, to: label(r, k), expected: expectedText },
  });
  r.recorded.clear();
}

/** The node a step names: by id, by tool name (node id or contract id), or the llm the graph allows. */
function nodeOfStep(r: Replay, step: StepEvent): number | CheckFinding {
  const nodes = r.plan.wf.nodes;
  if (step.node !== undefined) {
    const k = r.plan.graph.index.get(step.node);
    // A named llm or tool node is that node whatever kind the source guessed: LangGraph, for
    // one, does not record whether a node called a model or a tool.
    const type = k === undefined ? undefined : nodes[k]?.type;
    if (k === undefined || (type !== "llm" && type !== "tool")) {
      // A tool the workflow does not use at all is the sharper finding than its node's id.
      const tool = step.tool;
      if (tool !== undefined && !nodes.some((n) => matchesTool(n, tool))) {
        return { class: "TOOL_UNKNOWN", data: { tool } };
      }
      return { class: "NODE_UNKNOWN", data: { node: step.node, in: `workflow ${r.approved.ref}` } };
    }
    return k;
  }
  const candidates: number[] = [];
  nodes.forEach((node, k) => {
    if (node.type !== step.nodeType) return;
    if (step.tool === undefined || matchesTool(node, step.tool)) candidates.push(k);
  });
  if (candidates.length === 0) {
    return step.tool !== undefined
      ? { class: "TOOL_UNKNOWN", data: { tool: step.tool } }
      : { class: "NODE_UNKNOWN", data: { node: "an llm node", in: `workflow ${r.approved.ref}` } };
  }
  return candidates.length === 1 ? (candidates[0] ?? 0) : pick(r, candidates);
}

function matchesTool(node: AgentNode, name: string): boolean {
  if (node.type !== "tool") return false;
  const uses = node.config.usesTool;
  return node.id === name || uses === name || toolIdOf(uses) === name;
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
  const retry = r.prevFailed && k === r.prev;
  arrive(r, k, step.at);
  r.attempt = retry ? r.attempt + 1 : 1;
  r.prev = k;
  r.prevFailed = step.status === "error";
  for (const finding of identityFindings(r.approved, node, step))
    deviate(r, step.at, finding, node.id);
  for (const finding of toolInputFindings(r.approved, node, step))
    deviate(r, step.at, finding, node.id);
  const need = gateNeed(r.approved, node);
  if (need !== undefined) r.gated.push({ node: node.id, ...need, at: step.at });
  spend(r, step);
  if (step.status === "ok" && step.output !== undefined)
    r.merged = assignOwn(r.merged, step.output);
}

function spend(r: Replay, step: StepEvent): void {
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
  for (const finding of budgetFindings(r.plan.wf.budget, spent, r.overBudget))
    deviate(r, step.at, finding);
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

/**
 * The records stop without saying how the run ended: where the graph may end, the run ended
 * there; anywhere else it is unfinished (never a deviation: the rest may simply be unrecorded).
 */
function endedWithoutStatus(r: Replay, at: EventAt): void {
  const unfinished = (): void => {
    r.unverified.push({ reason: "RUN_UNFINISHED", run: r.run, at, data: {} });
  };
  if (r.prevFailed) {
    unfinished();
    return;
  }
  const w = expected(r);
  // A route past its retries would have stopped the run there, not ended it.
  if (w.kind === "end" && !exceedsRetries(r, w.taken)) {
    applyTaken(r, w.taken, at);
    return;
  }
  const path = w.kind === "undecidable" ? routeTo(r.plan, w.decision, TO_END) : undefined;
  if (path !== undefined && !exceedsRetries(r, [...w.taken, ...path])) {
    arrive(r, TO_END, at);
    return;
  }
  unfinished();
}

/** Whether taking these routes would loop back more often than a route's `maxRetries`. */
function exceedsRetries(r: Replay, taken: readonly Taken[]): boolean {
  const counts = new Map<number, number>();
  for (const [d, route] of taken) {
    const planned = r.plan.routes[d]?.[route];
    if (planned?.loopsBack !== true) continue;
    const count = (counts.get(d) ?? r.retries.get(d) ?? 0) + 1;
    counts.set(d, count);
    if (count > (planned.maxRetries ?? 0)) return true;
  }
  return false;
}
