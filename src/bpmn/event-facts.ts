/**
 * What the events of a process do to its flow (SPEC 7; docs/bpmn.md, "How gates are found"):
 * which boundary events and event sub-process starts interrupt, which end events throw an error
 * or an escalation (and which error or escalation), which end events terminate their scope, and
 * which elements belong to compensation rather than the normal flow. Read once per event node,
 * after the walk, so the walk itself stays one read per element.
 */
import type { ModdleObject } from "./moddle.js";
import { boolProp, idOf, instanceOf, listProp, objectProp, stringProp } from "./moddle.js";
import { NodeFlag } from "./node-flags.js";

/** What an event throws or catches, as far as the gate analysis cares. */
export const EventKind = {
  none: 0,
  error: 1,
  escalation: 2,
  terminate: 3,
  compensate: 4,
} as const;

/** A value of {@link EventKind}. */
export type EventKindCode = (typeof EventKind)[keyof typeof EventKind];

/** Per node facts of its events; nodes that are no events have `none` and are not interrupting. */
export interface EventFacts {
  /** Per node: the {@link EventKind} of its (first relevant) event definition. */
  readonly kind: Uint8Array;
  /**
   * Per node: the error or escalation it throws or catches, as a key (`code:<errorCode>` or
   * `ref:<id>`), or `undefined` for a catch-all or a node with none.
   */
  readonly ref: readonly (string | undefined)[];
  /**
   * Per node: 1 for a boundary event that cancels its host (`cancelActivity` absent or true; an
   * error boundary always does) and for the start event of an interrupting event sub-process.
   */
  readonly interrupting: Uint8Array;
  /** Per node: 1 for a compensation handler (`isForCompensation`) or compensation boundary. */
  readonly compensation: Uint8Array;
  /**
   * Per event node: 1 when something outside the flow may trigger it — a timer, message, signal,
   * conditional or cancel definition, or no definition agentflow knows (BPMN 2.0.2, 10.5.4): such
   * a boundary or event sub-process start can fire whatever the process throws.
   */
  readonly external: Uint8Array;
  /**
   * Per boundary event: 1 when it fires at most once while its host runs — a timer with a
   * `timeDate` or `timeDuration` and no `timeCycle`. Any other non-interrupting event (a cycle, a
   * message, a signal, a condition, an escalation thrown again, a timer agentflow cannot read)
   * may fire again and start its branch once more.
   */
  readonly once: Uint8Array;
  /**
   * Per throw or end event: 1 when it sends a message. Camunda 8 runs such an event as a job
   * (`zeebe:taskDefinition`) and Camunda 7 as a delegate, and either may throw a BPMN error, as a
   * task may: an error catcher around it fires whenever it runs.
   */
  readonly job: Uint8Array;
}

const EVENT_FLAGS =
  NodeFlag.startEvent |
  NodeFlag.endEvent |
  NodeFlag.boundaryEvent |
  NodeFlag.catchEvent |
  NodeFlag.throwEvent;

const DEFINITIONS: readonly (readonly [string, EventKindCode, string | undefined])[] = [
  ["bpmn:ErrorEventDefinition", EventKind.error, "errorRef"],
  ["bpmn:EscalationEventDefinition", EventKind.escalation, "escalationRef"],
  ["bpmn:TerminateEventDefinition", EventKind.terminate, undefined],
  ["bpmn:CompensateEventDefinition", EventKind.compensate, undefined],
];

/**
 * The key of an error or escalation whose code is a FEEL expression (`=outcome`, which Camunda 8
 * evaluates when the event is thrown): its value is known only then, so it may match any catcher
 * (catchers.ts). Apart from every other key, which starts `code:` or `ref:`.
 */
export const COMPUTED_REF = "computed";

/**
 * The key two events are matched by: an error's (or escalation's) code when it has one, as the
 * engines match them, else the referenced element's id; {@link COMPUTED_REF} for a FEEL code.
 */
function refKey(target: ModdleObject | undefined, codeName: string): string | undefined {
  if (target === undefined) return undefined;
  const code = stringProp(target, codeName);
  if (code?.startsWith("=") === true) return COMPUTED_REF;
  if (code !== undefined && code !== "") return `code:${code}`;
  const id = idOf(target);
  return id === undefined ? undefined : `ref:${id}`;
}

/** Reads the event facts of every node of an index (`elements` and their `flags`). */
export function readEventFacts(elements: readonly ModdleObject[], flags: Int32Array): EventFacts {
  const count = elements.length;
  const kind = new Uint8Array(count);
  const ref: (string | undefined)[] = new Array<string | undefined>(count);
  const interrupting = new Uint8Array(count);
  const compensation = new Uint8Array(count);
  const external = new Uint8Array(count);
  const once = new Uint8Array(count);
  const job = new Uint8Array(count);
  const sends = NodeFlag.throwEvent | NodeFlag.endEvent;
  for (let i = 0; i < count; i++) {
    const element = elements[i];
    const f = flags[i] ?? 0;
    if (element === undefined) continue;
    if ((f & NodeFlag.activity) !== 0) {
      if (boolProp(element, "isForCompensation")) compensation[i] = 1;
      continue;
    }
    if ((f & EVENT_FLAGS) === 0) continue;
    const definitions = listProp(element, "eventDefinitions");
    if (definitions.length === 0) external[i] = 1;
    for (const definition of definitions) {
      if ((f & sends) !== 0 && instanceOf(definition, "bpmn:MessageEventDefinition")) job[i] = 1;
      const found = DEFINITIONS.find(([type]) => instanceOf(definition, type));
      // The definitions the flow throws itself: those above, and links.
      if (found === undefined && !instanceOf(definition, "bpmn:LinkEventDefinition"))
        external[i] = 1;
      if (found === undefined || kind[i] !== EventKind.none) continue;
      const [, code, refName] = found;
      kind[i] = code;
      if (refName !== undefined) {
        const codeName = code === EventKind.error ? "errorCode" : "escalationCode";
        ref[i] = refKey(objectProp(definition, refName), codeName);
      }
    }
    if ((f & NodeFlag.boundaryEvent) !== 0) {
      if (definitions.length === 1 && firesOnce(definitions[0])) once[i] = 1;
      if (kind[i] === EventKind.compensate) compensation[i] = 1;
      else if (kind[i] === EventKind.error || element.cancelActivity !== false) interrupting[i] = 1;
    } else if ((f & NodeFlag.startEvent) !== 0 && element.isInterrupting !== false) {
      interrupting[i] = 1;
    }
  }
  return { kind, ref, interrupting, compensation, external, once, job };
}

/** Whether an event definition is a timer that fires once: a date or a duration, no cycle. */
function firesOnce(definition: ModdleObject | undefined): boolean {
  if (definition === undefined || !instanceOf(definition, "bpmn:TimerEventDefinition"))
    return false;
  if (objectProp(definition, "timeCycle") !== undefined) return false;
  return (
    objectProp(definition, "timeDate") !== undefined ||
    objectProp(definition, "timeDuration") !== undefined
  );
}
