/**
 * Beyond one run (SPEC 5): every combination of decision routes, forced through `decide`, up to a
 * bound on revisits. A depth-first search over decision visits: run with the routes forced so far;
 * the first decision visit the run decided by itself is the next branching point, one child per
 * route. What is reported is ordered by that search (route order), so it is deterministic.
 */
import type { AgentWorkflow } from "../model/index.js";
import { compileFlow } from "./machine.js";
import type { Plan } from "./plan.js";
import { simulate } from "./simulate.js";
import { runUsage } from "./state.js";
import type {
  BlockCell,
  BlockedDecision,
  DecideTable,
  JsonObject,
  SimulateOptions,
  SimulationState,
} from "./types.js";

/** Options of {@link explore}: those of `simulate` except `decide`, which explore supplies. */
export interface ExploreOptions extends Omit<SimulateOptions, "decide"> {
  /** Visits of one decision beyond the first at which every route is still tried (default 3). */
  readonly maxRevisits?: number;
  /** Runs to report at most (default 1,000); the report says when the bound cut the search. */
  readonly maxRuns?: number;
}

/** One route decision within a run. */
export interface ExploredChoice {
  readonly nodeId: string;
  readonly visit: number;
  readonly route: string;
  readonly forced: boolean;
}

/** One explored run. `simulate(wf, { ...options, decide })` reproduces it exactly. */
export interface ExploredRun {
  readonly index: number;
  readonly decide: DecideTable;
  readonly choices: readonly ExploredChoice[];
  readonly complete: boolean;
  readonly blockedDecision: BlockedDecision | null;
  /** The node the run ended or stopped at. */
  readonly lastNodeId: string;
  readonly steps: number;
}

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

/** The result of {@link explore}. */
export interface ExploreReport {
  readonly runs: readonly ExploredRun[];
  readonly coverage: readonly RouteCoverage[];
  readonly blocks: readonly ExploredBlock[];
  readonly ends: readonly ExploredEnd[];
  /** True when `maxRuns` stopped the search before every branch was run. */
  readonly truncated: boolean;
  /** True when `maxRevisits` kept a looping route from being tried again somewhere. */
  readonly bounded: boolean;
}

interface Branch {
  readonly k: number;
  readonly nodeId: string;
  readonly visit: number;
}

/** The first decision visit the run decided by itself (not forced, not a budget stop). */
function branchPoint(plan: Plan, state: SimulationState): Branch | undefined {
  for (const record of state.trail) {
    if (record.forced !== false || record.nodeId === undefined || record.visit === undefined) {
      continue;
    }
    if (record.type !== "decision" && record.type !== "decision-blocked") continue;
    const k = plan.graph.index.get(record.nodeId);
    if (k !== undefined && plan.graph.nodes[k]?.type === "decision") {
      return { k, nodeId: record.nodeId, visit: record.visit };
    }
  }
  return undefined;
}

function count(value: unknown, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new TypeError(`${what} must be a non-negative integer`);
  }
  return value;
}

function lastNode(state: SimulationState): string {
  return state.blockedDecision?.nodeId ?? state.trail[state.trail.length - 1]?.nodeId ?? "";
}

/**
 * Enumerates the distinct runs of a workflow over its decision routes, with the given fixtures,
 * and reports route coverage, every distinct stop and every distinct completion. Never throws on
 * a workflow; throws a TypeError when the options are of the wrong type.
 *
 * @example
 * ```ts
 * import { getTemplate } from "agentflow/model";
 * import { explore } from "agentflow/simulate";
 *
 * const research = getTemplate("research");
 * if (research === undefined) throw new Error("no such template");
 * const fixtures = { "llm-1": { outputs: [{ query: "q", answer: "a", sources: [], is_complete: false }] } };
 * const report = explore(research, { fixtures, input: { query: "q" } });
 * report.coverage.map((c) => [c.route, c.status]);
 * // → [["onTrue", "taken"], ["onFalse", "taken"]]
 * ```
 */
export function explore(wf: AgentWorkflow, options: ExploreOptions = {}): ExploreReport {
  const maxRevisits = count(options.maxRevisits, 3, "maxRevisits");
  const maxRuns = count(options.maxRuns, 1000, "maxRuns");
  const simulateOptions: SimulateOptions = {
    ...(options.fixtures !== undefined ? { fixtures: options.fixtures } : {}),
    ...(options.input !== undefined ? { input: options.input } : {}),
    ...(options.budget !== undefined ? { budget: options.budget } : {}),
    ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}),
    ...(options.costModel !== undefined ? { costModel: options.costModel } : {}),
  };
  const { plan } = compileFlow(wf, options.costModel);
  const runs: ExploredRun[] = [];
  const states: SimulationState[] = [];
  let bounded = false;
  const stack: DecideTable[] = [{}];
  while (stack.length > 0 && runs.length < maxRuns) {
    const decide = stack.pop() ?? {};
    const state = simulate(wf, { ...simulateOptions, decide });
    const branch = branchPoint(plan, state);
    const routes = branch === undefined ? [] : (plan.routes[branch.k] ?? []);
    const tried =
      branch !== undefined && branch.visit > maxRevisits + 1
        ? routes.filter((r) => !r.loopsBack)
        : routes;
    if (tried.length < routes.length) bounded = true;
    if (branch !== undefined && tried.length > 0) {
      const prefix = Object.hasOwn(decide, branch.nodeId) ? (decide[branch.nodeId] ?? []) : [];
      for (let i = tried.length - 1; i >= 0; i--) {
        const label = tried[i]?.label ?? "";
        stack.push({ ...decide, [branch.nodeId]: [...prefix, label] });
      }
      continue;
    }
    states.push(state);
    runs.push({
      index: runs.length,
      decide,
      choices: state.trail.flatMap((r) =>
        r.type === "decision" && r.nodeId !== undefined && r.route !== undefined
          ? [{ nodeId: r.nodeId, visit: r.visit ?? 0, route: r.route, forced: r.forced === true }]
          : [],
      ),
      complete: state.complete,
      blockedDecision: state.blockedDecision,
      lastNodeId: lastNode(state),
      steps: runUsage(state).steps,
    });
  }
  return {
    runs,
    coverage: coverageOf(plan, states),
    blocks: blocksOf(states),
    ends: endsOf(states),
    truncated: stack.length > 0,
    bounded,
  };
}

function coverageOf(plan: Plan, states: readonly SimulationState[]): RouteCoverage[] {
  const out: RouteCoverage[] = [];
  plan.routes.forEach((routes, k) => {
    const nodeId = plan.ids[k] ?? "";
    for (const route of routes) {
      let taken = 0;
      let reached = false;
      let blockedReason: string | undefined;
      for (const state of states) {
        let took = false;
        for (const record of state.trail) {
          if (record.nodeId !== nodeId) continue;
          if (record.type === "decision") reached = true;
          if (record.type === "decision" && record.route === route.label) took = true;
          if (record.type === "decision-blocked" && record.visit !== undefined) {
            reached ||= record.cell !== "budget";
            if (record.route === route.label) blockedReason ??= record.reason;
          }
        }
        if (took) taken++;
      }
      const base = { nodeId, route: route.label, next: route.next };
      if (taken > 0) out.push({ ...base, status: "taken", runs: taken });
      else if (plan.graph.reachable[k] !== 1) {
        const reason = `the entry cannot reach "${nodeId}"`;
        out.push({ ...base, status: "unreachable", runs: 0, reason });
      } else if (blockedReason !== undefined) {
        out.push({ ...base, status: "blocked", runs: 0, reason: blockedReason });
      } else {
        const reason = reached
          ? `no explored run took ${route.label}`
          : `no explored run reached "${nodeId}"`;
        out.push({ ...base, status: "not-reached", runs: 0, reason });
      }
    }
  });
  return out;
}

function blocksOf(states: readonly SimulationState[]): ExploredBlock[] {
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

function endsOf(states: readonly SimulationState[]): ExploredEnd[] {
  const byKey = new Map<string, ExploredEnd & { runs: number[] }>();
  const order: string[] = [];
  states.forEach((state, i) => {
    const last = state.trail[state.trail.length - 1];
    if (!state.complete || last?.type !== "end" || last.output === undefined) return;
    const nodeId = last.nodeId ?? "";
    const key = JSON.stringify([nodeId, last.output]);
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
