/**
 * Where a replayed run goes: the walk from its last node through the decisions to where it
 * arrives, the routes it takes (and their retries), and what it means when the walk and the
 * record disagree — a contradicted route, a transition the graph does not have.
 */
import { TO_END } from "../simulate/internal.js";
import type { Replay } from "./replay-state.js";
import { unreadOutputData } from "./replay-output.js";
import { deviate, idOf, START } from "./replay-state.js";
import type { EventAt } from "./types.js";
import type { Taken, Walk } from "./walk.js";
import { evaluateRoute, routeTo, walk } from "./walk.js";

/** Where the walk starts: the entry, the node after the last, or nowhere after a failure. */
function walkFrom(r: Replay): number {
  if (r.prev === START) return r.plan.graph.entry ?? TO_END;
  return r.plan.next[r.prev] ?? TO_END;
}

/** The walk from the last node, with the recorded routes it may follow. */
export function expected(r: Replay): Walk {
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
  if ("undecidable" in chosen && r.plan.routes[d]?.[0]?.language !== "text") {
    // The run's own record of a route is its claim, not its condition's choice: a condition that
    // cannot be evaluated leaves the route unverified, as it does where no route is recorded.
    const data = { decision: idOf(r, d), reason: chosen.undecidable, ...unreadOutputData(r, d) };
    deviate(r, at, { reason: "ROUTE_UNDECIDABLE", data }, idOf(r, d));
    return;
  }
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
export function arrive(r: Replay, k: number, at: EventAt): void {
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
        const data = { decision, reason: w.reason, ...unreadOutputData(r, w.decision) };
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

/**
 * The records stop without saying how the run ended: where the graph may end, the run ended
 * there; anywhere else it is unfinished (never a deviation: the rest may simply be unrecorded).
 */
export function endedWithoutStatus(r: Replay, at: EventAt): void {
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
