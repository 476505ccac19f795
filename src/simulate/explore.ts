/**
 * Beyond one run (SPEC 5): every combination of decision routes, forced through `decide`, up to a
 * bound on revisits. A depth-first search over decision visits: run with the routes forced so far;
 * the first decision visit the run decided by itself is the next branching point, one child per
 * route. What is reported is ordered by that search (route order), so it is deterministic.
 * A run stops at its branching point and its children go on from copies of it: run from the
 * start, each child ran its parent's prefix again, half of the steps of a workflow whose
 * decisions come one after another.
 */
import type { AgentWorkflow } from "../model/index.js";
import type { ExploredBlock, ExploredEnd, RouteCoverage } from "./explore-report.js";
import { blocksOf, coverageOf, endsOf, newTally, tallyRun } from "./explore-report.js";
import { forkedContext, nextContext, type FlowContext } from "./context.js";
import { compilePlan, interpret, runFrom, type StopAt } from "./run.js";
import type { Plan, PlannedRoute } from "./plan.js";
import { copiedInput, normalizeDecide } from "./options.js";
import { fixtureSource, type FixtureSource } from "./fixtures.js";
import { runUsage, toSimulationState } from "./state.js";
import type {
  BlockedDecision,
  DecideTable,
  MachineInput,
  SimulateOptions,
  SimulationState,
} from "./types.js";

export type { ExploredBlock, ExploredEnd, RouteCoverage } from "./explore-report.js";

/** Options of {@link explore}: those of `simulate` except `decide`, which explore supplies. */
export interface ExploreOptions extends Omit<SimulateOptions, "decide"> {
  /** Visits of one decision beyond the first at which every route is still tried (default 3). */
  readonly maxRevisits?: number;
  /** Runs to report at most (default 1,000); the report says when the bound cut the search. */
  readonly maxRuns?: number;
  /**
   * Also return each run's final state in `states`: what `simulate(wf, { ...options, decide })`
   * returns for it, without running it again (default false: a thousand trails are large). Runs
   * with a common prefix share the records of that prefix.
   */
  readonly keepStates?: boolean;
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
  /** llm/tool executions that produced an output (`usage.steps`). */
  readonly steps: number;
}

/** The result of {@link explore}. */
export interface ExploreReport {
  readonly runs: readonly ExploredRun[];
  readonly coverage: readonly RouteCoverage[];
  readonly blocks: readonly ExploredBlock[];
  readonly ends: readonly ExploredEnd[];
  /** True when `maxRuns` stopped the search before every branch was run. */
  readonly truncated: boolean;
  /** Each run's final state, in the order of `runs`, when `keepStates` was set. */
  readonly states?: readonly SimulationState[];
  /** True when `maxRevisits` kept a looping route from being tried again somewhere. */
  readonly bounded: boolean;
}

interface Branch {
  /** The decision's first node with its id (what the trail names), and the node the run is at. */
  readonly k: number;
  readonly at: number;
  readonly nodeId: string;
  readonly visit: number;
  /** The routes to try from it: all, or past `maxRevisits` those that do not loop back. */
  readonly tried: readonly PlannedRoute[];
}

/**
 * Watches one run for its branch point: the first decision visit the run decides by itself (not
 * forced, not a budget stop), as its trail would show it. The run ends there when the branch has
 * routes to try — its children run them, so the rest of it would be thrown away; a branch with
 * none (every route loops back past `maxRevisits`) leaves the run to go on to its end.
 */
function branchWatch(
  plan: Plan,
  maxRevisits: number,
): { readonly stopAt: StopAt; readonly branch: () => Branch | undefined } {
  let found: Branch | undefined;
  const stopAt: StopAt = (k, visit) => {
    if (found !== undefined) return false;
    // The trail names the decision by id: a duplicated id is read as its first node.
    const first = plan.graph.firstOf[k] ?? k;
    if (plan.graph.nodes[first]?.type !== "decision") return false;
    const routes = plan.routes[first] ?? [];
    const tried = visit > maxRevisits + 1 ? routes.filter((r) => !r.loopsBack) : routes;
    found = { k: first, at: k, nodeId: plan.ids[first] ?? "", visit, tried };
    return tried.length > 0;
  };
  return { stopAt, branch: () => found };
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
  return exploreWith(wf, options, FORK_SLOTS);
}

/**
 * What the copies of stopped runs that explore keeps for their routes may hold at once, in slots
 * (a node's counters and output, a record, an id mark): about 64 MB. Past it, a branch's routes
 * run from the start again, as they did before runs were forked: the same runs, more work.
 */
const FORK_SLOTS = 1 << 23;

/**
 * A run stopped at its branch point, which the routes of the branch go on from: each from its own
 * copy, the last from the run itself. It holds about `slots` until the last route starts.
 */
interface Fork {
  readonly ctx: FlowContext;
  readonly k: number;
  readonly slots: number;
  /** Routes of the branch not started yet. */
  left: number;
}

/** A run to make: its decide table, and the stopped run it goes on from, if one was kept. */
interface PendingRun {
  readonly decide: DecideTable;
  readonly from: Fork | undefined;
}

/**
 * {@link explore}, with `forkSlots` in place of {@link FORK_SLOTS} (0: every run from the start),
 * for the tests that hold both ways to the same report.
 */
export function exploreWith(
  wf: AgentWorkflow,
  options: ExploreOptions,
  forkSlots: number,
): ExploreReport {
  const maxRevisits = count(options.maxRevisits, 3, "maxRevisits");
  const maxRuns = count(options.maxRuns, 1000, "maxRuns");
  const keepStates = options.keepStates ?? false;
  if (typeof keepStates !== "boolean") throw new TypeError("keepStates must be a boolean");
  const input: MachineInput = {
    ...(options.input !== undefined ? { input: copiedInput(options.input) } : {}),
    ...(options.budget !== undefined ? { budget: options.budget } : {}),
    ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}),
    ...(options.strictParams !== undefined ? { strictParams: options.strictParams } : {}),
  };
  const plan = compilePlan(wf, options.costModel);
  // One source for every run: each fixture is checked once, when a run first reaches its node,
  // not again by each run of a 100,000-route decision.
  const fixtures = fixtureSource(options.fixtures, options.sampleOutputs);
  const runs: ExploredRun[] = [];
  // Each run is tallied as it ends; its state is kept only when asked for.
  const tally = newTally(plan);
  const states: SimulationState[] = [];
  let bounded = false;
  // Slots the kept forks hold (see FORK_SLOTS).
  let held = 0;
  const stack: PendingRun[] = [{ decide: {}, from: undefined }];
  while (stack.length > 0 && runs.length < maxRuns) {
    const { decide, from } = stack.pop() ?? { decide: {}, from: undefined };
    const watch = branchWatch(plan, maxRevisits);
    let end: FlowContext;
    if (from === undefined) {
      end = interpret(plan, fixtures, { ...input, decide }, watch.stopAt);
    } else {
      if (--from.left === 0) held -= from.slots;
      end = goOn(plan, fixtures, from, decide, watch.stopAt);
    }
    const branch = watch.branch();
    const tried = branch?.tried ?? [];
    if (branch !== undefined && tried.length < (plan.routes[branch.k] ?? []).length) bounded = true;
    if (branch !== undefined && tried.length > 0) {
      const prefix = Object.hasOwn(decide, branch.nodeId) ? (decide[branch.nodeId] ?? []) : [];
      const slots = forkSlots > 0 ? slotsOf(end) : Infinity;
      const fork =
        held + slots <= forkSlots
          ? { ctx: end, k: branch.at, slots, left: tried.length }
          : undefined;
      if (fork !== undefined) held += slots;
      for (let i = tried.length - 1; i >= 0; i--) {
        const label = tried[i]?.label ?? "";
        stack.push({ decide: { ...decide, [branch.nodeId]: [...prefix, label] }, from: fork });
      }
      continue;
    }
    const state = toSimulationState(plan, end);
    tallyRun(tally, state);
    if (keepStates) states.push(state);
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
    coverage: coverageOf(plan, tally),
    blocks: blocksOf(tally),
    ends: endsOf(tally),
    truncated: stack.length > 0,
    bounded,
    ...(keepStates ? { states } : {}),
  };
}

/** What a kept stopped run holds, in {@link FORK_SLOTS}' slots. */
function slotsOf(ctx: FlowContext): number {
  return 6 * ctx.nodes.size + ctx.trail.records.length;
}

/**
 * The run of `decide` from the stopped run `from`, whose decide table lacked only this branch's
 * label: a copy of it while other routes are left to start (`from.left` already counts this one
 * out), the run itself for the last. Each goes on where the stopped run was, so its records are
 * those a run from the start with `decide` makes.
 */
function goOn(
  plan: Plan,
  fixtures: FixtureSource,
  from: Fork,
  decide: DecideTable,
  stopAt: StopAt,
): FlowContext {
  const table = normalizeDecide(decide);
  const ctx =
    from.left === 0 ? nextContext(from.ctx, { decide: table }) : forkedContext(from.ctx, table);
  return runFrom(plan, fixtures, ctx, from.k, stopAt);
}
