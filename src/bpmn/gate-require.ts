/**
 * The path predicates a policy pack's `require: gates` states (docs/gate-paths.md),
 * decided under the BPMN semantics of AGENT_GATE_BYPASS: each asks whether some path from the
 * agent task to an end of the process passes too few gates, and names one if so.
 */
import type { GatePathRequirement, GatePathResult } from "../policy/index.js";
import type { PreparedProcess } from "./analysis.js";
import type { GateNode } from "./gate-collect.js";
import { passesOn, passVertices, reachableAfter, fewestPasses, fewestWalk } from "./gate-passes.js";
import type { GateReach, PathStep } from "./gate-reach.js";
import {
  bypassStart,
  computeGateReach,
  downstreamOf,
  gateFreeWalk,
  gateVerdict,
  pathLabels,
} from "./gate-reach.js";

export type { GatePathRequirement, GatePathResult };

/**
 * Most sets of roles `distinctRoles` tries, one O(V+E) sweep each: finding a path with fewest
 * distinct roles is NP-hard in general (a minimum-label path), so beyond this many the check
 * fails closed, as `undecidable`. With `distinctRoles: n` and `r` roles reachable from the task
 * the sweeps are C(r, n-1): two roles of 13 take 13 sweeps, three of 40 take 780; two of up to
 * 4096 roles, three of 91 and four of 30 are decided (docs/gate-paths.md).
 */
export const MAX_ROLE_SWEEPS = 4096;

const HOLDS: GatePathResult = { holds: true };

/** A counter-example: the variant of {@link GatePathResult} with a path. */
type Failure = Extract<GatePathResult, { readonly failed: "min" | "distinctRoles" | "roles" }>;

/** What one check needs of the process and the task, each part worked out at most once. */
interface Task {
  readonly prepared: PreparedProcess;
  readonly node: number;
  readonly at: ReadonlyMap<number, readonly GateNode[]>;
  /** The steps of a path to an end with the fewest gate passes; `undefined`: no end reachable. */
  anyEnd(): readonly PathStep[] | undefined;
  fewestAfter(): { readonly passes: number; readonly steps: readonly PathStep[] } | undefined;
}

function taskOf(prepared: PreparedProcess, node: number): Task {
  const { graph, reach, gates } = prepared;
  let fewest: { readonly passes: number; readonly steps: readonly PathStep[] } | null | undefined;
  const fewestAfter: Task["fewestAfter"] = () => {
    if (fewest !== undefined) return fewest ?? undefined;
    const found = fewestPasses(graph, reach);
    let best: number | undefined;
    for (const s of downstreamOf(graph, node)) {
      const d = found.passes[s] ?? -1;
      if (d >= 0 && (best === undefined || d < (found.passes[best] ?? 0))) best = s;
    }
    fewest =
      best === undefined
        ? null
        : { passes: found.passes[best] ?? 0, steps: fewestWalk(found, best) };
    return fewest ?? undefined;
  };
  return {
    prepared,
    node,
    at: passVertices(graph, gates),
    fewestAfter,
    // An agent task with no outgoing flow is itself an end: the path is the task alone.
    anyEnd: () => (graph.sinks[node] === 1 ? [] : fewestAfter()?.steps),
  };
}

/**
 * A counter-example on `steps`. `ignored` are the gates of a set none of which the task can
 * enter: AGENT_GATE_BYPASS counts none of them on any path (its `missing`), and neither does the
 * report, even where the path leaves a gate sub-process the task runs inside.
 */
function failure(
  task: Task,
  failed: "min" | "distinctRoles" | "roles",
  steps: readonly PathStep[],
  ignored: (gate: GateNode) => boolean,
  path: readonly string[] = pathLabels(
    task.prepared.graph,
    task.node,
    steps.map((s) => s.vertex),
  ),
): Failure {
  const { graph, reach } = task.prepared;
  const passed = passesOn(graph, reach, task.at, steps, (gate) => !ignored(gate));
  const roles = new Set(passed.gates.flatMap((g) => (g.role === undefined ? [] : [g.role])));
  return {
    holds: false,
    failed,
    path,
    rolesOnPath: [...roles].sort(),
    gatesOnPath: passed.count,
  };
}

/**
 * AGENT_GATE_BYPASS's verdict for the gates `chosen` accepts: `undefined` when every path passes
 * one of them (or no end is reachable), else the counter-example.
 */
function bypassOf(
  task: Task,
  failed: "distinctRoles" | "roles",
  chosen: (gate: GateNode) => boolean,
): Failure | undefined {
  const { graph, gates } = task.prepared;
  const set = gates.filter(chosen).map((g) => g.node);
  const reach: GateReach = computeGateReach(graph, set);
  const verdict = gateVerdict(graph, reach, task.node);
  if (verdict.status === "reached") return undefined;
  if (verdict.status === "missing") {
    const steps = task.anyEnd();
    return steps === undefined ? undefined : failure(task, failed, steps, chosen);
  }
  const start = graph.sinks[task.node] === 1 ? undefined : bypassStart(graph, reach, task.node);
  const steps = start === undefined ? [] : gateFreeWalk(graph, reach, start);
  return failure(task, failed, steps, () => false, verdict.bypassPath);
}

function checkMin(task: Task, min: number): Failure | undefined {
  const { graph, reach } = task.prepared;
  const steps = task.anyEnd();
  if (steps === undefined) return undefined;
  // No gate the task can enter: AGENT_GATE_BYPASS's `missing`, no path passes any.
  const none = !downstreamOf(graph, task.node).some((s) => reach.canReachGate[s] === 1);
  if (none || graph.sinks[task.node] === 1) return failure(task, "min", steps, () => none);
  const fewest = task.fewestAfter();
  if (fewest === undefined || fewest.passes >= min) return undefined;
  return failure(task, "min", fewest.steps, () => false);
}

/** The k-subsets of `0..n-1`, in lexicographic order, as index arrays (iteratively). */
function* subsets(n: number, k: number): Generator<readonly number[]> {
  if (k > n) return;
  const pick = Array.from({ length: k }, (_, i) => i);
  for (;;) {
    yield pick;
    let i = k - 1;
    while (i >= 0 && pick[i] === n - k + i) i--;
    if (i < 0) return;
    pick[i] = (pick[i] ?? 0) + 1;
    for (let j = i + 1; j < k; j++) pick[j] = (pick[j - 1] ?? 0) + 1;
  }
}

/** C(n, k), or `cap + 1` once past `cap`. */
function choose(n: number, k: number, cap: number): number {
  let out = 1;
  for (let i = 1; i <= k; i++) {
    out = (out * (n - k + i)) / i;
    if (out > cap) return cap + 1;
  }
  return Math.round(out);
}

/**
 * The key two approver roles count as one under, for `distinctRoles`: a reviewer reads
 * `credit-officer`, `Credit-Officer` and `credit\u200B-officer` as one role, so a path through
 * them must not pass as separation of duties. Compared after NFKC, without default-ignorable
 * characters (zero-width spaces and joiners, soft hyphens), case-folded, with runs of white space
 * as one space. Stricter only: `roles` still names each role exactly.
 */
export function roleKey(role: string): string {
  return role
    .normalize("NFKC")
    .replace(/\p{Default_Ignorable_Code_Point}/gu, "")
    .toLowerCase()
    .replace(/\s+/gu, " ")
    .trim();
}

/**
 * A path with fewer than `n` roles exists iff, for some set S of n-1 roles, some path passes no
 * gate whose role is outside S (role-less gates never count): one AGENT_GATE_BYPASS sweep per S.
 * Only roles some path from the task can meet are tried; the rest change no sweep.
 */
function checkDistinctRoles(task: Task, n: number): GatePathResult | undefined {
  const { graph } = task.prepared;
  const seen = reachableAfter(graph, task.node);
  const met = new Set<string>();
  for (const [v, list] of task.at) {
    for (const gate of list) {
      if (gate.role !== undefined && (seen[v] === 1 || seen[gate.node] === 1))
        met.add(roleKey(gate.role));
    }
  }
  const roles = [...met].sort();
  if (roles.length < n) {
    const steps = task.anyEnd();
    return steps === undefined ? undefined : failure(task, "distinctRoles", steps, () => false);
  }
  const sweeps = choose(roles.length, n - 1, MAX_ROLE_SWEEPS);
  if (sweeps > MAX_ROLE_SWEEPS) {
    const reason = `distinctRoles ${String(n)} over ${String(roles.length)} approver roles needs more than ${String(MAX_ROLE_SWEEPS)} sweeps of the process`;
    return { holds: false, failed: "undecidable", reason, path: [] };
  }
  for (const pick of subsets(roles.length, n - 1)) {
    const allowed = new Set(pick.map((i) => roles[i]));
    const found = bypassOf(
      task,
      "distinctRoles",
      (g) => g.role !== undefined && !allowed.has(roleKey(g.role)),
    );
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Why a requirement cannot be checked as given, if it cannot (it may come from untyped data). */
function requirementProblem(req: GatePathRequirement): string | undefined {
  for (const key of ["min", "distinctRoles"] as const) {
    const value: unknown = req[key];
    if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) >= 0))
      return `${key} must be a whole number of at least 0, not ${JSON.stringify(value)}`;
  }
  const roles: unknown = req.roles;
  if (roles === undefined) return undefined;
  if (!Array.isArray(roles) || roles.some((r) => typeof r !== "string" || r.trim() === ""))
    return "roles must be a list of approver role names";
  return undefined;
}

/**
 * Whether every path from the agent task at flow node `node` (as `PreparedAgent.node`) to an end
 * of the process passes the gates `req` asks for; all keys given must hold, and the first that
 * fails is reported, in the order `min`, `distinctRoles`, `roles`.
 *
 * A gate is passed as AGENT_GATE_BYPASS passes it (docs/bpmn.md): when it completes, so never
 * along an interrupting boundary event of it or a cancellation (terminate, uncaught error); a
 * sub-process gate at its exit. A path is a path of the process graph, as AGENT_GATE_BYPASS reads
 * one: after a parallel split it follows one branch, so a gate on another branch is not on it,
 * even past a join that waits for both (gates that must all approve go in a row). A task from
 * which no end is reachable holds vacuously; one from which no gate of a set can be entered
 * passes none of that set on any path (AGENT_GATE_BYPASS's `missing`).
 *
 * - `min: n`: the fewest gate passes on any path (0-1 BFS, O(V+E)); a gate passed twice on a
 *   path counts twice, but the fewest never needs a loop.
 * - `distinctRoles: n`: a path with fewer than n `btv:approverRole`s fails; role-less gates do
 *   not count, and roles that read alike count once ({@link roleKey}). Up to {@link MAX_ROLE_SWEEPS} sweeps; beyond, `undecidable` (fail closed).
 * - `roles`: per role one AGENT_GATE_BYPASS sweep over the gates of that role; the path is its
 *   bypass path, or for a role no gate of which the task can enter, the path with fewest passes.
 *
 * A requirement that is not a whole number of at least 0, or not a list of role names, is
 * `undecidable`, never a pass.
 */
export function checkGatePath(
  prepared: PreparedProcess,
  node: number,
  req: GatePathRequirement,
): GatePathResult {
  const problem = requirementProblem(req);
  if (problem !== undefined)
    return { holds: false, failed: "undecidable", reason: problem, path: [] };
  const task = taskOf(prepared, node);
  if (req.min !== undefined && req.min > 0) {
    const found = checkMin(task, req.min);
    if (found !== undefined) return found;
  }
  if (req.distinctRoles !== undefined && req.distinctRoles > 0) {
    const found = checkDistinctRoles(task, req.distinctRoles);
    if (found !== undefined) return found;
  }
  for (const role of new Set(req.roles ?? [])) {
    const found = bypassOf(task, "roles", (g) => g.role === role);
    if (found !== undefined) return { ...found, missingRole: role };
  }
  return HOLDS;
}
