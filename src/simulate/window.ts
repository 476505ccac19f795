/**
 * Which machine a simulation drives. XState builds every state of a machine when it is created —
 * about 100 µs per node, so 10 s for a 100,000-node workflow before the first step — while a run
 * visits the nodes it reaches within `maxSteps`, often a handful. A workflow of more than
 * {@link FIRST_WINDOW} nodes is therefore run on the workflow's machine restricted to a window: the
 * same states and transitions for the nodes inside it, and an `outside` state where the full
 * machine would enter a node outside it. A run that gets there is repeated on a window four times
 * as large that holds the node it went to; runs are deterministic, so the repeated run is the
 * same run up to that point, and the result is the one the full machine gives.
 */
import { buildMachine, OUTSIDE } from "./machine-build.js";
import { fullMachine, type FlowMachine } from "./machine.js";
import type { FlowContext } from "./context.js";
import { TO_END, type Plan } from "./plan.js";

/** Nodes in the first window; a workflow with at most this many is run on its full machine. */
export const FIRST_WINDOW = 256;

/** A machine and the nodes it has states for. */
export interface MachineWindow {
  readonly machine: FlowMachine;
  /** 1 for each node index with a state (every node for the full machine). */
  readonly has: Uint8Array;
  readonly size: number;
}

/** How much larger each window is than the last. */
const GROWTH = 4;

const windows = new WeakMap<Plan, MachineWindow>();

/** Where a run can go from node `k`: an llm/tool node's next node, a decision's route targets. */
function runSuccessors(plan: Plan, k: number): number[] {
  const routes = plan.routes[k];
  if (routes !== undefined && routes.length > 0) {
    return routes.flatMap((route) => (route.target >= 0 ? [route.target] : []));
  }
  const next = plan.next[k] ?? TO_END;
  return next >= 0 ? [next] : [];
}

/**
 * Adds up to `limit` nodes to `has`, breadth first from `seeds` in order along the routes a run can
 * take (through nodes already in it). Returns the number added.
 */
function fill(plan: Plan, has: Uint8Array, seeds: readonly number[], limit: number): number {
  const queued = new Uint8Array(has.length);
  const queue: number[] = [];
  for (const seed of seeds) {
    if (queued[seed] === 1) continue;
    queued[seed] = 1;
    queue.push(seed);
  }
  let added = 0;
  for (let head = 0; head < queue.length && added < limit; head++) {
    const k = queue[head] ?? 0;
    if (has[k] === 0) {
      has[k] = 1;
      added++;
    }
    for (const next of runSuccessors(plan, k)) {
      if (queued[next] === 1) continue;
      queued[next] = 1;
      queue.push(next);
    }
  }
  return added;
}

function restricted(plan: Plan, has: Uint8Array, size: number): MachineWindow {
  const window = { machine: buildMachine(plan, (k) => has[k] === 1), has, size };
  windows.set(plan, window);
  return window;
}

/**
 * The machine to start a run with: the full machine of a small workflow, else the largest window
 * built so far for the plan (explore's runs share it) when it is no smaller than the first
 * window, else the first window from the entry: 256 nodes, or `maxSteps + 1` when that is
 * larger and under 1,024.
 */
export function startWindow(plan: Plan, maxSteps?: number): MachineWindow {
  // A run of at most 1,023 steps reaches at most that many nodes and one more: starting with a
  // window that large (the entry's nodes, breadth first) spares building 256 first, running to
  // its edge, and running again (an audit report's runs stop at 1,000 steps).
  const first =
    maxSteps !== undefined && maxSteps < GROWTH * FIRST_WINDOW
      ? Math.max(FIRST_WINDOW, maxSteps + 1)
      : FIRST_WINDOW;
  const hit = windows.get(plan);
  const n = plan.ids.length;
  if (hit !== undefined && hit.size >= Math.min(first, n)) return hit;
  const entry = plan.graph.entry;
  if (n <= first || entry === undefined) {
    const window = { machine: fullMachine(plan), has: new Uint8Array(n).fill(1), size: n };
    windows.set(plan, window);
    return window;
  }
  const has = new Uint8Array(n);
  return restricted(plan, has, fill(plan, has, [entry], first));
}

/**
 * The next window after a run left `window` for node `target`: `target` and what a run reaches
 * from it first, then the rest breadth first from the entry, four times as many nodes in all — so
 * a run is repeated at most log4(nodes / 256) times, and the states built stay within 4/3 of the
 * last window's. Past half the workflow, the full machine is cheaper than another window.
 */
export function widerWindow(plan: Plan, window: MachineWindow, target: number): MachineWindow {
  const n = plan.ids.length;
  if (window.size * GROWTH > n / 2) {
    const full = { machine: fullMachine(plan), has: new Uint8Array(n).fill(1), size: n };
    windows.set(plan, full);
    return full;
  }
  const has = window.has.slice();
  const seeds = plan.graph.entry === undefined ? [target] : [target, plan.graph.entry];
  const added = fill(plan, has, seeds, window.size * (GROWTH - 1));
  return restricted(plan, has, window.size + added);
}

/** Whether a snapshot is in a restricted machine's `outside` state. */
export function isOutside(snapshot: { readonly value: unknown }): boolean {
  return snapshot.value === OUTSIDE;
}

/**
 * The node a run in the `outside` state was going to: the next node of the llm/tool node that
 * just ran, or the target of the route the decision just took (its `decision` record's `next`).
 */
export function outsideTarget(plan: Plan, ctx: FlowContext): number {
  const k = ctx.prev;
  if (plan.graph.nodes[k]?.type !== "decision") return plan.next[k] ?? TO_END;
  const next = ctx.trail?.record.next;
  return next === undefined ? TO_END : (plan.graph.index.get(next) ?? TO_END);
}
