/**
 * What `explore` reports about its runs: route coverage, distinct stops and distinct completions.
 * A tally takes each run as it ends, in run order, and reads its trail once (a decision with
 * 100,000 routes must not multiply its routes by the runs and their records); the lists come out
 * in document, route and run order. Tallied as they end, the runs' trails need not outlive them:
 * kept to the end of an exploration, they were what its garbage collections copied, a quarter of
 * its time.
 */
import type { Diagnostic } from "../model/index.js";
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
  /** What is wrong with the output (the `end` record's findings: `FINAL_OUTPUT_SCHEMA`). */
  readonly findings?: readonly Diagnostic[];
  readonly runs: readonly number[];
}

/** What the runs did with one route of one decision id. */
export interface RouteSeen {
  /** Runs that took it. */
  taken: number;
  /** The last run counted in `taken` (a run that loops counts once). */
  lastRun: number;
  /** The first stop on the route, in run and trail order. */
  blockedReason: string | undefined;
}

/** What the runs did at one decision id. */
export interface DecisionSeen {
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

/** What the runs so far did: at each decision id that has routes, their stops, their ends. */
export interface ExploreTally {
  readonly decisions: Map<string, DecisionSeen>;
  readonly blocks: Map<string, { readonly block: BlockedDecision; readonly runs: number[] }>;
  readonly ends: Map<string, ExploredEnd & { readonly runs: number[] }>;
  /** Runs tallied: the index of the next. */
  runs: number;
}

/** A tally of no runs yet, with a place for every decision of `plan` that has routes. */
export function newTally(plan: Plan): ExploreTally {
  const decisions = new Map<string, DecisionSeen>();
  plan.routes.forEach((routes, k) => {
    const id = plan.ids[k];
    if (routes.length > 0 && id !== undefined) {
      decisions.set(id, { reached: false, routes: new Map() });
    }
  });
  return { decisions, blocks: new Map(), ends: new Map(), runs: 0 };
}

/** Adds the next run's state to the tally (runs are numbered in the order they are added). */
export function tallyRun(tally: ExploreTally, state: SimulationState): void {
  const run = tally.runs++;
  for (const record of state.trail) {
    const seen = record.nodeId === undefined ? undefined : tally.decisions.get(record.nodeId);
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
  const b = state.blockedDecision;
  if (b !== null) {
    // Maps keep insertion order: the first run to meet a stop or an end places it.
    const key = JSON.stringify([b.nodeId, b.cell, b.reason]);
    const hit = tally.blocks.get(key);
    if (hit !== undefined) hit.runs.push(run);
    else tally.blocks.set(key, { block: b, runs: [run] });
  }
  const last = state.trail[state.trail.length - 1];
  if (state.complete && last?.type === "end" && last.output !== undefined) {
    const nodeId = last.nodeId ?? "";
    // jsonText: an output nested 10,000 deep is valid JSON, and too deep for JSON.stringify.
    const key = `${nodeId.length}:${nodeId}${jsonText(last.output) ?? ""}`;
    const hit = tally.ends.get(key);
    if (hit !== undefined) hit.runs.push(run);
    else {
      // The findings are the output's: one output, one set of them, whichever run gave it.
      const findings = last.findings === undefined ? {} : { findings: last.findings };
      tally.ends.set(key, { nodeId, output: last.output, ...findings, runs: [run] });
    }
  }
}

/** Coverage of every route of every decision, in document and route order. */
export function coverageOf(plan: Plan, tally: ExploreTally): RouteCoverage[] {
  const byId = tally.decisions;
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
export function blocksOf(tally: ExploreTally): ExploredBlock[] {
  return [...tally.blocks.values()].map(({ block, runs }) => {
    const cell: BlockCell = block.cell;
    return { nodeId: block.nodeId, cell, reason: block.reason, runs };
  });
}

/** Every distinct completion (last node, final output) with its runs, in order of first run. */
export function endsOf(tally: ExploreTally): ExploredEnd[] {
  return [...tally.ends.values()];
}
