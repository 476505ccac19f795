/**
 * One Zeebe exported record (the protocol's Record JSON, as `Record.toJson()` and the JSON-writing
 * exporters give it) read into what conform needs: an element event of a process instance, a
 * record conform has no use for (skipped, not a deviation), or a record that cannot be read.
 */
import type { ElementEvent, ElementState, EventAt } from "../types.js";
import type { SourceRecord } from "./types.js";
import { eventAt, isObject } from "./shared.js";

/** The process-instance intents conform reads, and the element state each one means. */
const STATES: Readonly<Record<string, ElementState>> = {
  ELEMENT_ACTIVATED: "activated",
  ELEMENT_COMPLETED: "completed",
  ELEMENT_TERMINATED: "terminated",
  // A sequence flow has a one-step lifecycle: taken. Taken is its completion.
  SEQUENCE_FLOW_TAKEN: "completed",
};

/**
 * A Zeebe key (a JSON number, or a string when a tool or the record reader kept int64 exact) as
 * text. A number past 2^53 was rounded when read: which key it was is not known.
 */
export function keyText(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  if (typeof value === "string" && /^-?\d+$/.test(value)) return value;
  return undefined;
}

/** What one record means to conform. */
export type ZeebeRead =
  | {
      readonly kind: "element";
      readonly instance: string;
      readonly position: number;
      /** The process instance itself completed or was terminated: nothing of it follows. */
      readonly closes: boolean;
      readonly event: ElementEvent;
    }
  | { readonly kind: "skip" }
  | { readonly kind: "unknown"; readonly reason: string; readonly at: EventAt };

/** True when `value` has the Record JSON envelope (whatever its value type). */
export function isZeebeRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return (
    isObject(value) &&
    typeof value.valueType === "string" &&
    typeof value.recordType === "string" &&
    "intent" in value &&
    isObject(value.value)
  );
}

function atOf(record: SourceRecord, ids: Record<string, string>, time?: number): EventAt {
  return eventAt(
    record,
    time === undefined || !Number.isFinite(time) ? undefined : isoOf(time),
    ids,
  );
}

function isoOf(ms: number): string | undefined {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The record's own ids, as far as they can be read. */
function idsOf(raw: Readonly<Record<string, unknown>>): Record<string, string> {
  const ids: Record<string, string> = {};
  const key = keyText(raw.key);
  if (key !== undefined) ids.key = key;
  if (typeof raw.position === "number") ids.position = String(raw.position);
  if (typeof raw.partitionId === "number") ids.partitionId = String(raw.partitionId);
  const value = raw.value;
  if (isObject(value)) {
    const instance = keyText(value.processInstanceKey);
    if (instance !== undefined) ids.processInstanceKey = instance;
  }
  return ids;
}

/** The first required field of a used record that is missing or of the wrong type. */
function missing(raw: Readonly<Record<string, unknown>>, value: Readonly<Record<string, unknown>>) {
  if (typeof raw.position !== "number") return "position";
  if (typeof raw.timestamp !== "number") return "timestamp";
  if (keyText(value.processInstanceKey) === undefined) return "value.processInstanceKey";
  if (typeof value.bpmnProcessId !== "string" || value.bpmnProcessId === "") {
    return "value.bpmnProcessId";
  }
  if (typeof value.elementId !== "string" || value.elementId === "") return "value.elementId";
  if (typeof value.bpmnElementType !== "string") return "value.bpmnElementType";
  return undefined;
}

/**
 * Reads one record. Commands, rejections, other value types and the transitional intents
 * (`ELEMENT_ACTIVATING`, `ELEMENT_COMPLETING`...) are skipped: they repeat what the events say.
 */
export function readZeebeRecord(record: SourceRecord): ZeebeRead {
  const raw = record.value;
  if (!isZeebeRecord(raw)) {
    const reason = isObject(raw)
      ? "The record lacks Zeebe's record envelope (valueType, recordType, intent, value)."
      : "The record is not a JSON object.";
    return { kind: "unknown", reason, at: atOf(record, {}) };
  }
  if (raw.valueType !== "PROCESS_INSTANCE" || raw.recordType !== "EVENT") return { kind: "skip" };
  const state = typeof raw.intent === "string" ? STATES[raw.intent] : undefined;
  if (state === undefined) return { kind: "skip" };
  const value = raw.value as Readonly<Record<string, unknown>>;
  const ids = idsOf(raw);
  const time = typeof raw.timestamp === "number" ? raw.timestamp : undefined;
  const field = missing(raw, value);
  if (field !== undefined) {
    const reason = `The ${String(raw.intent)} record has no readable ${field}.`;
    return { kind: "unknown", reason, at: atOf(record, ids, time) };
  }
  const instance = keyText(value.processInstanceKey) ?? "";
  const elementType = value.bpmnElementType as string;
  const event: ElementEvent = {
    kind: "element",
    instance,
    process: value.bpmnProcessId as string,
    element: value.elementId as string,
    elementType,
    state,
    ...(time === undefined ? {} : { time }),
    at: atOf(record, ids, time),
  };
  const closes = elementType === "PROCESS" && state !== "activated";
  return { kind: "element", instance, position: raw.position as number, closes, event };
}
