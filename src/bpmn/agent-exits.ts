/**
 * Where an agent task's work may go on besides its outgoing flows (docs/bpmn.md, "Where an
 * agent's work goes on"), both read off the process graph once per graph and kept:
 *
 * - an agent that is a sub-process (a Camunda AI agent's ad-hoc tool container) runs what it
 *   holds, so an error or escalation thrown inside it and caught outside it — a boundary event
 *   on the agent, an event sub-process of an enclosing scope — starts a path after the agent's
 *   work as surely as its completion does;
 * - an agent inside the body of a parallel multi-instance sub-process with a completion
 *   condition may complete, and then have its instance cancelled, gate and all, when another
 *   instance's completion makes the condition true: the flow goes on from the sub-process's
 *   exit with the agent's output and without its gate. An ad-hoc sub-process that completes on
 *   its condition and cancels what is still active (or whose job worker completes it) does the
 *   same to an agent among its elements.
 *
 * Containers are numbered in a depth-first order, so "inside a container" is an interval test,
 * and the nodes with a flow into another container are sorted by it: an agent's throws are one
 * slice. The work is O(V + E log E) for the graph, then per agent the slice it owns (an agent
 * nested in another agent's container is in the outer one's slice too).
 */
import type { ProcessGraph } from "./process-graph.js";
import type { ModdleObject } from "./moddle.js";
import { jobTypeReading } from "./camunda/zeebe.js";
import { boolProp, extensionValues, instanceOf, objectProp } from "./moddle.js";

interface Exits {
  /** Per container: its first and one-past-last position in the depth-first order. */
  readonly tin: Int32Array;
  readonly tout: Int32Array;
  /** Nodes with a successor node in another container, by their container's `tin`. */
  readonly crossing: Int32Array;
  /** Per container: the nearest enclosing-or-same container whose parallel body may be cut short. */
  readonly cutShort: Int32Array;
}

const cache = new WeakMap<ProcessGraph, Exits>();

/**
 * Whether a sub-process may complete while work inside it is still pending, and cancel that
 * work: a parallel multi-instance body with a completion condition, or an ad-hoc sub-process that
 * completes when its condition holds with `cancelRemainingInstances` (true unless set false) or
 * whose job worker decides (Camunda 8: the worker completes it, and says whether to cancel what
 * is still active, whatever the attributes say).
 */
function cutsShort(element: ModdleObject | undefined): boolean {
  if (element === undefined) return false;
  if (instanceOf(element, "bpmn:AdHocSubProcess")) {
    if (jobTypeReading(extensionValues(element)) !== undefined) return true;
    return (
      objectProp(element, "completionCondition") !== undefined &&
      element.cancelRemainingInstances !== false
    );
  }
  const loop = objectProp(element, "loopCharacteristics");
  if (loop === undefined || !instanceOf(loop, "bpmn:MultiInstanceLoopCharacteristics")) {
    return false;
  }
  return !boolProp(loop, "isSequential") && objectProp(loop, "completionCondition") !== undefined;
}

function exitsOf(graph: ProcessGraph): Exits {
  const known = cache.get(graph);
  if (known !== undefined) return known;
  const { containers, container, flags } = graph.index;
  const count = containers.length;
  const children: number[][] = containers.map(() => []);
  const roots: number[] = [];
  containers.forEach((c, i) => {
    if (c.parent >= 0) children[c.parent]?.push(i);
    else roots.push(i);
  });
  const tin = new Int32Array(count);
  const tout = new Int32Array(count);
  const cutShort = new Int32Array(count).fill(-1);
  let clock = 0;
  // Iterative depth-first order: a nesting as deep as the input makes must not be a call stack.
  const stack: number[] = [];
  for (const root of roots.reverse()) stack.push(root);
  const entered = new Uint8Array(count);
  while (stack.length > 0) {
    const c = stack[stack.length - 1] ?? 0;
    if (entered[c] === 1) {
      stack.pop();
      tout[c] = clock;
      continue;
    }
    entered[c] = 1;
    tin[c] = clock++;
    const info = containers[c];
    const parent = info?.parent ?? -1;
    const body = info?.kind === "sub-process" || info?.kind === "ad-hoc";
    const own = body && cutsShort(graph.index.elements[info.node]);
    cutShort[c] = own ? c : parent >= 0 ? (cutShort[parent] ?? -1) : -1;
    const kids = children[c] ?? [];
    for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k] ?? 0);
  }
  const nodeCount = flags.length;
  const list: number[] = [];
  const { offsets, targets } = graph.successors;
  for (let t = 0; t < nodeCount; t++) {
    const own = container[t] ?? -1;
    for (let e = offsets[t] ?? 0, end = offsets[t + 1] ?? 0; e < end; e++) {
      const v = targets[e] ?? 0;
      if (v < nodeCount && container[v] !== own) {
        list.push(t);
        break;
      }
    }
  }
  list.sort((a, b) => (tin[container[a] ?? 0] ?? 0) - (tin[container[b] ?? 0] ?? 0));
  const exits: Exits = { tin, tout, crossing: Int32Array.from(list), cutShort };
  cache.set(graph, exits);
  return exits;
}

/** The first position in `crossing` whose container starts at or after `at`. */
function firstFrom(exits: Exits, container: Int32Array, at: number): number {
  let lo = 0;
  let hi = exits.crossing.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((exits.tin[container[exits.crossing[mid] ?? 0] ?? 0] ?? 0) < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The vertices, other than its successors (or, for a sub-process, its exit and interrupt
 * vertices), at which a path goes on after the agent task at flow node `node` has done its work.
 */
export function agentExits(graph: ProcessGraph, node: number): number[] {
  const exits = exitsOf(graph);
  const { container, opens, containers } = graph.index;
  const out: number[] = [];
  const scope = opens[node] ?? -1;
  if (scope >= 0) {
    const from = exits.tin[scope] ?? 0;
    const to = exits.tout[scope] ?? 0;
    const inside = (v: number): boolean => {
      const at = exits.tin[container[v] ?? 0] ?? 0;
      return at >= from && at < to;
    };
    const { offsets, targets } = graph.successors;
    const nodeCount = graph.index.flags.length;
    for (let k = firstFrom(exits, container, from); k < exits.crossing.length; k++) {
      const t = exits.crossing[k] ?? 0;
      if (!inside(t)) break;
      for (let e = offsets[t] ?? 0, end = offsets[t + 1] ?? 0; e < end; e++) {
        const v = targets[e] ?? 0;
        if (v < nodeCount && !inside(v)) out.push(v);
      }
    }
  }
  for (let c = exits.cutShort[container[node] ?? 0] ?? -1; c >= 0;) {
    const exit = graph.exitOf[c] ?? -1;
    if (exit >= 0) out.push(exit);
    const parent = containers[c]?.parent ?? -1;
    c = parent >= 0 ? (exits.cutShort[parent] ?? -1) : -1;
  }
  return [...new Set(out)];
}
