/**
 * The events that end a scope with everything running in it (BPMN 2.0.2, 13.5.6 and 10.5.6;
 * docs/bpmn.md, "What cancels a gate"):
 *
 * - a terminate end event ends its own scope;
 * - an error end event nothing catches ends the process;
 * - an error, or an escalation an interrupting catcher takes, ends the scope the catcher serves
 *   (a boundary event's sub-process, an event sub-process's parent) and goes on at the catcher.
 *
 * Each is listed at every scope from its own out to the one it ends, as the child of that scope
 * that holds it (itself, or the sub-process it runs in), so that each scope's splits can tell
 * which of its nodes may run beside it. Events that end the scope the same way share a kind:
 * one for terminates, one for uncaught errors, one per set of catchers.
 */
import type { Caught } from "./catchers.js";
import { EventKind } from "./event-facts.js";
import type { ProcessIndex } from "./process-index.js";
import { NodeFlag } from "./process-index.js";

/** One event that cancels the scope of a node, as the node's entry in {@link Cancellers}. */
export interface Canceller {
  /** 0 for a terminate, 1 for an uncaught error, then one per set of catchers. */
  readonly kind: number;
  /** The event itself: the path that cancels goes on from it. */
  readonly by: number;
}

/** Per node (a scope's child): the events it holds that end that scope. */
export interface Cancellers {
  readonly of: ReadonlyMap<number, readonly Canceller[]>;
  /** How many kinds there are. */
  readonly kinds: number;
  /** False when the caught errors and escalations were not listed: their walk ran over budget. */
  readonly complete: boolean;
  /** Steps taken, counted against the caller's budget. */
  readonly work: number;
}

const TERMINATE = 0;
const UNCAUGHT = 1;

/** The scope a catcher serves: a boundary event's sub-process, an event sub-process's parent. */
function servedScope(index: ProcessIndex, catcher: number): number {
  const host = index.attachedTo[catcher] ?? -1;
  if (host >= 0) return index.opens[host] ?? -1;
  return index.containers[index.container[catcher] ?? -1]?.parent ?? -1;
}

/** Lists the cancelling events of `index`; `uncaught` are its uncaught error end events. */
export function findCancellers(
  index: ProcessIndex,
  uncaught: readonly number[],
  catchers: (node: number) => Caught,
  budget: number,
): Cancellers {
  const { flags, opens, container, containers } = index;
  const { kind, compensation } = index.events;
  const of = new Map<number, Canceller[]>();
  const add = (node: number, entry: Canceller): void => {
    const list = of.get(node);
    if (list === undefined) of.set(node, [entry]);
    else list.push(entry);
  };
  const inside = new Int32Array(containers.length).fill(-1);
  for (const y of uncaught) {
    add(y, { kind: UNCAUGHT, by: y });
    const c = container[y] ?? 0;
    if ((inside[c] ?? -1) < 0) inside[c] = y;
  }
  // A container comes after its parent in the index, so one backward pass covers the subtrees.
  for (let c = containers.length - 1; c > 0; c--) {
    const parent = containers[c]?.parent ?? -1;
    if (parent >= 0 && (inside[parent] ?? -1) < 0) inside[parent] = inside[c] ?? -1;
  }
  const kinds = new Map<string, number>();
  let work = 0;
  let complete = true;
  for (let i = 0; i < flags.length; i++) {
    const held = inside[opens[i] ?? -1] ?? -1;
    if (held >= 0) add(i, { kind: UNCAUGHT, by: held });
    const f = flags[i] ?? 0;
    const k = kind[i] ?? EventKind.none;
    if (compensation[i] === 1 || (f & (NodeFlag.endEvent | NodeFlag.throwEvent)) === 0) continue;
    if (k === EventKind.terminate && (f & NodeFlag.endEvent) !== 0) {
      add(i, { kind: TERMINATE, by: i });
      continue;
    }
    if (k !== EventKind.error && k !== EventKind.escalation) continue;
    const caught = catchers(i);
    const first = caught.nodes[0];
    if (first === undefined || (k === EventKind.escalation && !caught.interrupting)) continue;
    if (!complete) continue;
    const key = caught.nodes.join(",");
    const own = kinds.get(key) ?? kinds.size + 2;
    kinds.set(key, own);
    const scope = servedScope(index, first);
    for (let c = container[i] ?? -1, child = i; c >= 0;) {
      add(child, { kind: own, by: i });
      if (c === scope || ++work > budget) break;
      child = containers[c]?.node ?? -1;
      c = containers[c]?.parent ?? -1;
    }
    if (work > budget) complete = false;
  }
  if (!complete) {
    // Drop the partial lists of caught events: the caller makes their catchers fire any time.
    for (const [node, list] of of) {
      const kept = list.filter((e) => e.kind <= UNCAUGHT);
      if (kept.length > 0) of.set(node, kept);
      else of.delete(node);
    }
  }
  return { of, kinds: complete ? kinds.size + 2 : 2, complete, work };
}
