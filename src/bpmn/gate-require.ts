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
import { roleFamilies, roleNames } from "./gate-role-sets.js";

export type { GatePathRequirement, GatePathResult };
export { MAX_ROLE_STEPS, MAX_ROLE_SWEEPS, roleKey, roleNames } from "./gate-role-sets.js";

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

/**
 * A path lacks `n` gates no one role may approve two of iff the role sets it passes lie in one
 * maximal family with no `n` pairwise disjoint ({@link roleFamilies}): one AGENT_GATE_BYPASS
 * sweep per family, over the gates whose role set is outside it (role-less gates never count).
 * Only gates some path from the task can meet are read; the rest change no sweep.
 */
function checkDistinctRoles(task: Task, n: number): GatePathResult | undefined {
  const { graph } = task.prepared;
  const seen = reachableAfter(graph, task.node);
  // Per gate, its names as one key (a name holds no line break: roleKey folds white space).
  const keys = new Map<GateNode, string | undefined>();
  const names = new Map<string, readonly string[]>();
  const keyOf = (gate: GateNode): string | undefined => {
    if (keys.has(gate)) return keys.get(gate);
    const list = roleNames(gate.approvers);
    const key = list.length === 0 ? undefined : list.join("\n");
    keys.set(gate, key);
    if (key !== undefined) names.set(key, list);
    return key;
  };
  const met = new Set<string>();
  for (const [v, list] of task.at) {
    for (const gate of list) {
      const key = keyOf(gate);
      if (key !== undefined && (seen[v] === 1 || seen[gate.node] === 1)) met.add(key);
    }
  }
  const sets = [...met].sort();
  const families = roleFamilies(
    sets.map((k) => names.get(k) ?? []),
    n,
  );
  if (typeof families === "string")
    return { holds: false, failed: "undecidable", reason: families, path: [] };
  if (families.length === 1 && families[0]?.length === sets.length) {
    const steps = task.anyEnd();
    return steps === undefined ? undefined : failure(task, "distinctRoles", steps, () => false);
  }
  for (const family of families) {
    const allowed = new Set(family.map((i) => sets[i]));
    const outside = (g: GateNode) => {
      const key = keyOf(g);
      return key !== undefined && !allowed.has(key);
    };
    const found = bypassOf(task, "distinctRoles", outside);
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
 * - `distinctRoles: n`: a path fails unless it passes n gates no one name may approve two of:
 *   gates whose approvers ({@link roleNames}: the declared role and everyone the assignment lets
 *   complete it) are pairwise disjoint; role-less gates do not count, and names that read alike
 *   are one ({@link roleKey}). Up to {@link MAX_ROLE_SWEEPS} sweeps and {@link MAX_ROLE_STEPS}
 *   steps; beyond, `undecidable` (fail closed).
 * - `roles`: per role one AGENT_GATE_BYPASS sweep over the gates of that role, those everyone
 *   who may approve is of it (named exactly); the path is its bypass path, or for a role no gate
 *   of which the task can enter, the path with fewest passes.
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
    // A gate of this role only when everyone who may approve it is of it (fail closed).
    const only = (g: GateNode) => g.approvers.length > 0 && g.approvers.every((a) => a === role);
    const found = bypassOf(task, "roles", only);
    if (found !== undefined) return { ...found, missingRole: role };
  }
  return HOLDS;
}
