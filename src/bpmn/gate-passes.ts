/**
 * Counting gate passes along paths (a policy's `require: gates`, docs/gate-paths.md), under the
 * passing semantics of `gate-reach.ts`: a path passes a gate when it steps out of one of the gate's
 * `blocks` vertices other than into an interrupting boundary event of it, or ends on one; a
 * `graph.cancels` step passes nothing. AGENT_GATE_BYPASS asks whether some path passes none; a
 * policy asks how many a path passes at least, hence a 0-1 breadth-first search instead of a plain
 * one.
 */
import { neighbours, reverseAdjacency } from "../model/index.js";
import type { GateNode } from "./gate-collect.js";
import type { GateReach, PathStep } from "./gate-reach.js";
import { downstreamOf, unpassed } from "./gate-reach.js";
import type { ProcessGraph } from "./process-graph.js";

/** Per vertex, the fewest gate passes on a path from it to an end, and one such path. */
export interface FewestPasses {
  /** The fewest passes; -1 where no end is reachable at all. */
  readonly passes: Int32Array;
  /** The vertex after this one on a path with that many passes; -1 at the path's end. */
  readonly next: Int32Array;
  /** 1 where the step to `next` is a cancellation (a `graph.cancels` edge). */
  readonly viaCancel: Uint8Array;
}

const UNREACHED = 0x7fffffff;

/**
 * A 0-1 breadth-first search backwards from the ends, O(V+E), iterative: a step out of a `blocks`
 * vertex costs 1 unless it enters an interrupting boundary event of that vertex (which cancels
 * the gate); a cancellation step costs 0; an end that is itself a `blocks` vertex (a gate with no
 * outgoing flow) costs 1, as `computeGateReach` never counts it gate-free.
 */
export function fewestPasses(graph: ProcessGraph, reach: GateReach): FewestPasses {
  const count = graph.kinds.length;
  const flows = reverseAdjacency(graph.successors);
  const cancelled = reverseAdjacency(graph.cancels);
  const passes = new Int32Array(count).fill(UNREACHED);
  const next = new Int32Array(count).fill(-1);
  const viaCancel = new Uint8Array(count);
  const done = new Uint8Array(count);
  // A deque in one array: a vertex goes in once per relaxation, so seeds + edges bound each end.
  const capacity = count + flows.targets.length + cancelled.targets.length;
  const deque = new Int32Array(2 * capacity + 1);
  let head = capacity;
  let tail = capacity;
  // Seeds in order of cost, so that the deque holds at most two costs, ascending.
  for (const cost of [0, 1]) {
    for (let v = 0; v < count; v++) {
      if (graph.sinks[v] === 1 && (reach.blocks[v] ?? 0) === cost) {
        passes[v] = cost;
        deque[tail++] = v;
      }
    }
  }
  const relax = (p: number, cost: number, v: number, cancel: number): void => {
    if (cost >= (passes[p] ?? 0)) return;
    passes[p] = cost;
    next[p] = v;
    viaCancel[p] = cancel;
    // Relaxed from a settled vertex: following `next` always reaches an end, never a cycle.
    if (cost === (passes[v] ?? 0)) deque[--head] = p;
    else deque[tail++] = p;
  };
  while (head < tail) {
    const v = deque[head++] ?? 0;
    if (done[v] === 1) continue;
    done[v] = 1;
    const d = passes[v] ?? 0;
    for (let e = flows.offsets[v] ?? 0, end = flows.offsets[v + 1] ?? 0; e < end; e++) {
      const p = flows.targets[e] ?? 0;
      relax(p, unpassed(graph, reach, p, v) ? d : d + 1, v, 0);
    }
    for (let e = cancelled.offsets[v] ?? 0; e < (cancelled.offsets[v + 1] ?? 0); e++) {
      relax(cancelled.targets[e] ?? 0, d, v, 1);
    }
  }
  for (let v = 0; v < count; v++) if (passes[v] === UNREACHED) passes[v] = -1;
  return { passes, next, viaCancel };
}

/** The path `next` gives from `start` (first) to an end. */
export function fewestWalk(fewest: FewestPasses, start: number): PathStep[] {
  const steps: PathStep[] = [{ vertex: start, cancel: false }];
  for (let v = fewest.next[start] ?? -1; v >= 0;) {
    const from = steps[steps.length - 1]?.vertex ?? start;
    steps.push({ vertex: v, cancel: fewest.viaCancel[from] === 1 });
    v = fewest.next[v] ?? -1;
  }
  return steps;
}

/**
 * Per vertex, the gates a step out of it passes (the `blocks` vertices of `computeGateReach`):
 * an atomic gate itself, a sub-process gate's exit and its non-interrupting boundary events.
 */
export function passVertices(
  graph: ProcessGraph,
  gates: readonly GateNode[],
): Map<number, GateNode[]> {
  const { opens, attachedTo, events, flags } = graph.index;
  const at = new Map<number, GateNode[]>();
  const add = (v: number, gate: GateNode): void => {
    const list = at.get(v);
    if (list === undefined) at.set(v, [gate]);
    else list.push(gate);
  };
  const subGates = new Map<number, GateNode>();
  for (const gate of gates) {
    const opened = opens[gate.node] ?? -1;
    if (opened < 0) {
      add(gate.node, gate);
      continue;
    }
    add(graph.exitOf[opened] ?? gate.node, gate);
    subGates.set(gate.node, gate);
  }
  for (let b = 0; b < flags.length; b++) {
    const gate = subGates.get(attachedTo[b] ?? -1);
    if (gate !== undefined && events.interrupting[b] === 0) add(b, gate);
  }
  return at;
}

/** 1 for the vertices some path from the vertices right after the task at `node` reaches. */
export function reachableAfter(graph: ProcessGraph, node: number): Uint8Array {
  const seen = new Uint8Array(graph.kinds.length);
  const stack = downstreamOf(graph, node);
  for (const s of stack) seen[s] = 1;
  for (let v = stack.pop(); v !== undefined; v = stack.pop()) {
    for (const edges of [graph.successors, graph.cancels]) {
      for (const w of neighbours(edges, v)) {
        if (seen[w] === 1) continue;
        seen[w] = 1;
        stack.push(w);
      }
    }
  }
  return seen;
}

/** What a path passes: how many gate passes, and the gates passed (each once, in path order). */
export interface PassesOnPath {
  readonly count: number;
  readonly gates: readonly GateNode[];
}

/**
 * The gate passes along `steps` (an end last), of the gates in `at` that `counts` accepts.
 * `reach` is the full gate set's: a step passes what its source vertex blocks.
 */
export function passesOn(
  graph: ProcessGraph,
  reach: GateReach,
  at: ReadonlyMap<number, readonly GateNode[]>,
  steps: readonly PathStep[],
  counts: (gate: GateNode) => boolean,
): PassesOnPath {
  let count = 0;
  const gates = new Set<GateNode>();
  steps.forEach((step, i) => {
    const following = steps[i + 1];
    const passed =
      following === undefined
        ? graph.sinks[step.vertex] === 1 && reach.blocks[step.vertex] === 1
        : !following.cancel && !unpassed(graph, reach, step.vertex, following.vertex);
    if (!passed) return;
    const here = (at.get(step.vertex) ?? []).filter(counts);
    if (here.length > 0) count++;
    for (const gate of here) gates.add(gate);
  });
  return { count, gates: [...gates] };
}
