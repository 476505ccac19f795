/**
 * What `explore` reports about its runs: route coverage, distinct stops and distinct completions.
 * Each is one pass over the runs' trails (a decision with 100,000 routes must not multiply its
 * routes by the runs and their records) and lists in document, route and run order.
 */
import { jsonText } from "./json.js";
import type { Plan } from "./plan.js";
import type { BlockCell, BlockedDecision, JsonObject, SimulationState } from "./types.js";

/** What explore learnt about one decision route. */
export interface RouteCoverage {
  readonly nodeId: string;
  readonly route: string;
  readonly next: string;
  /**
   * `taken`: some run followed it. `blocked`: runs chose it but every one stopped on it (a
   * missing target, an exhausted retry...). `not-reached`: no explored run reached the decision
   * (an earlier stop, the budget, or the run bound). `unreachable`: the entry cannot reach it.
   */
  readonly status: "taken" | "blocked" | "not-reached" | "unreachable";
  /** Runs that followed the route. */
  readonly runs: number;
  /** Why the route was never taken. */
  readonly reason?: string;
}

/** A distinct stop and the runs that met it. */
export interface ExploredBlock extends BlockedDecision {
  readonly runs: readonly number[];
}

/** A distinct completion: the last node and the final output. */
export interface ExploredEnd {
  readonly nodeId: string;
  readonly output: JsonObject;
  readonly runs: readonly number[];
}

/** What the runs did with one route of one decision id. */
interface RouteSeen {
  /** Runs that took it. */
  taken: number;
  /** The last run counted in `taken` (a run that loops counts once). */
  lastRun: number;
  /** The first stop on the route, in run and trail order. */
  blockedReason: string | undefined;
}

interface DecisionSeen {
  /** Some run evaluated the decision (a budget stop before it does not count). */
  reached: boolean;
  readonly routes: Map<string, RouteSeen>;
}

function routeSeen(seen: DecisionSeen, label: string): RouteSeen {
  let route = seen.routes.get(label);
  if (route === undefined) {
    route = { taken: 0, lastRun: -1, blockedReason: undefined };
    seen.routes.set(label, route);
  }
  return route;
}

/** One pass over every trail: what happened at each decision id that has routes. */
function decisionsSeen(plan: Plan, states: readonly SimulationState[]): Map<string, DecisionSeen> {
  const byId = new Map<string, DecisionSeen>();
  plan.routes.forEach((routes, k) => {
    const id = plan.ids[k];
    if (routes.length > 0 && id !== undefined) byId.set(id, { reached: false, routes: new Map() });
  });
  states.forEach((state, run) => {
    for (const record of state.trail) {
      const seen = record.nodeId === undefined ? undefined : byId.get(record.nodeId);
      if (seen === undefined) continue;
      if (record.type === "decision") {
        seen.reached = true;
        if (record.route === undefined) continue;
        const route = routeSeen(seen, record.route);
        if (route.lastRun !== run) route.taken++;
        route.lastRun = run;
      } else if (record.type === "decision-blocked" && record.visit !== undefined) {
        seen.reached ||= record.cell !== "budget";
        if (record.route === undefined) continue;
        const route = routeSeen(seen, record.route);
        route.blockedReason ??= record.reason;
      }
    }
  });
  return byId;
}

/** Coverage of every route of every decision, in document and route order. */
export function coverageOf(plan: Plan, states: readonly SimulationState[]): RouteCoverage[] {
  const byId = decisionsSeen(plan, states);
  const out: RouteCoverage[] = [];
  plan.routes.forEach((routes, k) => {
    const nodeId = plan.ids[k] ?? "";
    const seen = byId.get(nodeId);
    const unreachable = plan.graph.reachable[k] !== 1;
    for (const { label: route, next } of routes) {
      const counted = seen?.routes.get(route);
      const taken = counted?.taken ?? 0;
      const blockedReason = counted?.blockedReason;
      if (taken > 0) out.push({ nodeId, route, next, status: "taken", runs: taken });
      else if (unreachable) {
        const reason = `the entry cannot reach "${nodeId}"`;
        out.push({ nodeId, route, next, status: "unreachable", runs: 0, reason });
      } else if (blockedReason !== undefined) {
        out.push({ nodeId, route, next, status: "blocked", runs: 0, reason: blockedReason });
      } else {
        const reason =
          seen?.reached === true
            ? `no explored run took ${route}`
            : `no explored run reached "${nodeId}"`;
        out.push({ nodeId, route, next, status: "not-reached", runs: 0, reason });
      }
    }
  });
  return out;
}

/** Every distinct stop (node, cell, reason) with the runs that met it, in order of first run. */
export function blocksOf(states: readonly SimulationState[]): ExploredBlock[] {
  const byKey = new Map<string, { block: BlockedDecision; runs: number[] }>();
  const order: string[] = [];
  states.forEach((state, i) => {
    const b = state.blockedDecision;
    if (b === null) return;
    const key = JSON.stringify([b.nodeId, b.cell, b.reason]);
    const hit = byKey.get(key);
    if (hit !== undefined) hit.runs.push(i);
    else {
      byKey.set(key, { block: b, runs: [i] });
      order.push(key);
    }
  });
  return order.flatMap((key) => {
    const hit = byKey.get(key);
    if (hit === undefined) return [];
    const cell: BlockCell = hit.block.cell;
    return [{ nodeId: hit.block.nodeId, cell, reason: hit.block.reason, runs: hit.runs }];
  });
}

/** Every distinct completion (last node, final output) with its runs, in order of first run. */
export function endsOf(states: readonly SimulationState[]): ExploredEnd[] {
  const byKey = new Map<string, ExploredEnd & { runs: number[] }>();
  const order: string[] = [];
  states.forEach((state, i) => {
    const last = state.trail[state.trail.length - 1];
    if (!state.complete || last?.type !== "end" || last.output === undefined) return;
    const nodeId = last.nodeId ?? "";
    // jsonText: an output nested 10,000 deep is valid JSON, and too deep for JSON.stringify.
    const key = `${nodeId.length}:${nodeId}${jsonText(last.output) ?? ""}`;
    const hit = byKey.get(key);
    if (hit !== undefined) hit.runs.push(i);
    else {
      byKey.set(key, { nodeId, output: last.output, runs: [i] });
      order.push(key);
    }
  });
  return order.flatMap((key) => {
    const hit = byKey.get(key);
    return hit === undefined ? [] : [hit];
  });
}
