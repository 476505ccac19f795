/**
 * Whether a boundary event or an event sub-process can fire at all, and when (BPMN 2.0.2, 10.5;
 * docs/bpmn.md, "When a boundary event is a path"). A timer, message, signal or conditional event
 * comes from outside the flow and may fire whenever its host runs. An error or an escalation
 * comes from the flow: an error boundary on a task or call activity fires whenever the host runs
 * (the job or the called process may fail), and one on a sub-process whenever something inside
 * it runs if it holds a task, a call activity or an event that sends a message (a job too); an
 * escalation boundary on a sub-process fires any time only if it holds a call activity (the
 * called process may escalate). Otherwise such an event fires only where an error or escalation
 * thrown inside reaches it (`catchers.ts`), and when nothing inside throws one that reaches it,
 * it is no path at all. Unsure is "any time": a path kept by mistake can only add a bypass,
 * never hide one.
 */
import type { Caught } from "./catchers.js";
import { EventKind } from "./event-facts.js";
import type { ProcessIndex } from "./process-index.js";
import { NodeFlag } from "./process-index.js";

/** When an event can fire. */
export const Trigger = {
  /** Nothing can trigger it: it is no path. */
  never: 0,
  /** Only a throw event inside that reaches it triggers it, as the flow arrives there. */
  thrown: 1,
  /** Whenever its host (or, for an event sub-process, its scope) runs. */
  anyTime: 2,
} as const;

/** A value of {@link Trigger}. */
export type TriggerCode = (typeof Trigger)[keyof typeof Trigger];

/** When each boundary event and event sub-process of an index can fire. */
export interface Triggers {
  /** Per node: for a boundary event or an event sub-process's start event, its {@link Trigger}. */
  readonly node: Uint8Array;
  /** Per container: for an event sub-process, the most its start events allow; else `never`. */
  readonly eventSub: Uint8Array;
}

/**
 * Per container: whether its content, at any depth, holds something that may fail (a task, or an
 * event that sends a message, which runs as a job) and a call activity.
 */
function holdings(index: ProcessIndex): { task: Uint8Array; call: Uint8Array } {
  const count = index.containers.length;
  const task = new Uint8Array(count);
  const call = new Uint8Array(count);
  const { job } = index.events;
  for (let i = 0; i < index.flags.length; i++) {
    const f = index.flags[i] ?? 0;
    const c = index.container[i] ?? 0;
    if ((f & NodeFlag.activity) !== 0 && (f & NodeFlag.subProcess) === 0) task[c] = 1;
    if (job[i] === 1) task[c] = 1;
    if ((f & NodeFlag.callActivity) !== 0) call[c] = 1;
  }
  // A container comes after its parent in the index, so one backward pass sums the subtrees.
  for (let c = count - 1; c > 0; c--) {
    const parent = index.containers[c]?.parent ?? -1;
    if (parent < 0) continue;
    task[parent] = (task[parent] ?? 0) | (task[c] ?? 0);
    call[parent] = (call[parent] ?? 0) | (call[c] ?? 0);
  }
  return { task, call };
}

/** Reads the triggers of `index`; `catchers` says who catches each thrown error or escalation. */
export function readTriggers(index: ProcessIndex, catchers: (node: number) => Caught): Triggers {
  const { flags, attachedTo, opens, containers } = index;
  const { kind, external } = index.events;
  const count = flags.length;
  const thrown = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const k = kind[i] ?? EventKind.none;
    if (k !== EventKind.error && k !== EventKind.escalation) continue;
    for (const c of catchers(i).nodes) thrown[c] = 1;
  }
  const holds = holdings(index);
  const node = new Uint8Array(count);
  const eventSub = new Uint8Array(containers.length);
  const fromFlow = (i: number, scope: number): TriggerCode => {
    const k = kind[i] ?? EventKind.none;
    if (external[i] === 1 || (k !== EventKind.error && k !== EventKind.escalation))
      return Trigger.anyTime;
    // scope < 0: a boundary on a task or call activity, which may itself fail or escalate.
    if (scope < 0) return Trigger.anyTime;
    const inside = k === EventKind.error ? holds.task : holds.call;
    if (inside[scope] === 1) return Trigger.anyTime;
    return thrown[i] === 1 ? Trigger.thrown : Trigger.never;
  };
  for (let i = 0; i < count; i++) {
    const f = flags[i] ?? 0;
    if ((f & NodeFlag.boundaryEvent) !== 0) {
      node[i] = fromFlow(i, opens[attachedTo[i] ?? -1] ?? -1);
    } else if ((f & NodeFlag.startEvent) !== 0) {
      const within = index.container[i] ?? 0;
      const c = containers[within];
      if (c?.kind !== "event-sub-process") continue;
      node[i] = fromFlow(i, c.parent);
      eventSub[within] = Math.max(eventSub[within] ?? 0, node[i] ?? 0);
    }
  }
  return { node, eventSub };
}
