/**
 * A brute-force oracle for `checkGatePath` (src/bpmn/gate-require.ts): every simple path of the
 * process graph from the agent task to an end, depth first with an explicit stack, with the gate
 * passes and roles each has, read from the passing rule docs/bpmn.md states (a gate completes
 * along its outgoing flows and non-interrupting boundary events, a sub-process gate at its exit;
 * an interrupting boundary event or a cancellation passes nothing). The fewest passes or roles
 * over walks are those over simple paths (cutting a loop out of a walk only drops passes), so no
 * shortest-path reasoning is shared with the code under test.
 */
import type { PreparedProcess } from "../../src/bpmn/index.js";
import { downstreamOf } from "../../src/bpmn/gate-reach.js";
import { neighbours } from "../../src/model/index.js";

/** What the enumeration found. A gate's role here is its approvers, one name each, as JSON. */
export interface PathOracle {
  /** Some path from the task reaches an end (the task itself, when it has no outgoing flow). */
  readonly endReachable: boolean;
  /** Roles of the gates whose element some path from the task enters. */
  readonly enterableRoles: ReadonlySet<string>;
  readonly anyGateEnterable: boolean;
  /**
   * Over all paths to an end: the fewest gate passes, and the fewest gates with pairwise disjoint
   * roles ({@link disjointCount}) passed.
   */
  readonly fewestPasses: number;
  readonly fewestRoles: number;
  /** The roles (of all the process's gates) that some path to an end does not pass. */
  readonly lacking: ReadonlySet<string>;
  /** False when the enumeration stopped at its budget (the answers above are then partial). */
  readonly complete: boolean;
}

/** A gate's role as the oracle keys it: its approvers, as JSON. */
export const roleOf = (approvers: readonly string[]): string => JSON.stringify(approvers);

/** The names who may approve, read apart from the code under test: `=…` may be anyone (`*`). */
const names = (approvers: readonly string[]): string[] =>
  approvers.flatMap((n) => {
    const name = n.trim().toLowerCase();
    return name === "" ? [] : [name.startsWith("=") ? "*" : name];
  });

/**
 * The most of `roles` (gates' approvers, each a list of who may approve) no two of which one
 * name can approve: every subset tried, by brute force.
 */
export function disjointCount(roles: readonly (readonly string[])[]): number {
  const sets = [...new Set(roles.map(roleOf))]
    .map((key) => names(JSON.parse(key) as string[]))
    .filter((s) => s.length > 0);
  const clash = (a: string[], b: string[]) =>
    a.includes("*") || b.includes("*") || a.some((n) => b.includes(n));
  let best = 0;
  for (let pick = 1; pick < 1 << sets.length; pick++) {
    const chosen = sets.filter((_, i) => (pick & (1 << i)) !== 0);
    if (chosen.length <= best) continue;
    if (chosen.every((a, i) => chosen.every((b, j) => j <= i || !clash(a, b))))
      best = chosen.length;
  }
  return best;
}

/** Enumerates at most `budget` path steps. */
export function pathOracle(prepared: PreparedProcess, node: number, budget: number): PathOracle {
  const { graph, gates } = prepared;
  const { opens, attachedTo, events, flags } = graph.index;
  const roleKey = (g: (typeof gates)[number]): string | undefined =>
    g.approvers.length === 0 ? undefined : roleOf(g.approvers);
  const roles = [...new Set(gates.flatMap((g) => roleKey(g) ?? []))];
  const count = graph.kinds.length;
  // Where a gate completes, and the roles it adds there.
  const block = new Uint8Array(count);
  const mask = new Int32Array(count);
  const mark = (v: number, role: string | undefined): void => {
    block[v] = 1;
    if (role !== undefined) mask[v] = (mask[v] ?? 0) | (1 << roles.indexOf(role));
  };
  for (const g of gates) {
    const opened = opens[g.node] ?? -1;
    if (opened < 0) {
      mark(g.node, roleKey(g));
      continue;
    }
    mark(graph.exitOf[opened] ?? -1, roleKey(g));
    for (let b = 0; b < flags.length; b++) {
      if (attachedTo[b] === g.node && events.interrupting[b] === 0) mark(b, roleKey(g));
    }
  }
  const starts = downstreamOf(graph, node);
  const seen = new Uint8Array(count);
  const todo = [...starts];
  for (const s of todo) seen[s] = 1;
  for (let v = todo.pop(); v !== undefined; v = todo.pop()) {
    for (const w of [...neighbours(graph.successors, v), ...neighbours(graph.cancels, v)]) {
      if (seen[w] === 0) todo.push(w);
      seen[w] = 1;
    }
  }
  const sinkAgent = graph.sinks[node] === 1;
  const entered = gates.filter((g) => seen[g.node] === 1);
  const enterableRoles = new Set(entered.flatMap((g) => roleKey(g) ?? []));
  const endReachable = sinkAgent || seen.some((s, v) => s === 1 && graph.sinks[v] === 1);
  let fewestPasses = Infinity;
  let fewestRoles = Infinity;
  const lacking = new Set<string>();
  const memo = new Map<number, number>();
  const record = (passes: number, passed: number): void => {
    fewestPasses = Math.min(fewestPasses, passes);
    let disjoint = memo.get(passed);
    if (disjoint === undefined) {
      const passedRoles = roles.filter((_, i) => (passed & (1 << i)) !== 0);
      disjoint = disjointCount(passedRoles.map((r) => JSON.parse(r) as string[]));
      memo.set(passed, disjoint);
    }
    fewestRoles = Math.min(fewestRoles, disjoint);
    roles.forEach((r, i) => {
      if ((passed & (1 << i)) === 0) lacking.add(r);
    });
  };
  if (sinkAgent) record(0, 0);
  let steps = 0;
  const onPath = new Uint8Array(count);
  interface Frame {
    readonly v: number;
    readonly passes: number;
    readonly passed: number;
    readonly next: { readonly w: number; readonly cancel: boolean }[];
  }
  const stack: Frame[] = [];
  const enter = (v: number, passes: number, passed: number): void => {
    steps++;
    onPath[v] = 1;
    if (graph.sinks[v] === 1) {
      record(passes + (block[v] ?? 0), passed | (block[v] === 1 ? (mask[v] ?? 0) : 0));
    }
    const next = [
      ...[...neighbours(graph.successors, v)].map((w) => ({ w, cancel: false })),
      ...[...neighbours(graph.cancels, v)].map((w) => ({ w, cancel: true })),
    ];
    stack.push({ v, passes, passed, next });
  };
  for (const s of sinkAgent ? [] : starts) {
    enter(s, 0, 0);
    while (stack.length > 0 && steps <= budget) {
      const top = stack[stack.length - 1];
      if (top === undefined) break;
      const step = top.next.pop();
      if (step === undefined) {
        onPath[top.v] = 0;
        stack.pop();
        continue;
      }
      if (onPath[step.w] === 1) continue;
      const v = top.v;
      const cancelled =
        step.w < flags.length && attachedTo[step.w] === v && events.interrupting[step.w] === 1;
      const passes = !step.cancel && !cancelled && block[v] === 1;
      enter(step.w, top.passes + (passes ? 1 : 0), top.passed | (passes ? (mask[v] ?? 0) : 0));
    }
    for (const frame of stack.splice(0)) onPath[frame.v] = 0;
  }
  return {
    endReachable,
    enterableRoles,
    anyGateEnterable: entered.length > 0,
    fewestPasses,
    fewestRoles,
    lacking,
    complete: steps <= budget,
  };
}
