/**
 * What every reader needs of a record: whether a JSON value is an object, and the event's
 * `at` (where the record was, its own time and ids).
 */
import type { EventAt } from "../types.js";
import type { SourceRecord } from "./types.js";

/** A JSON object (not an array, not null). */
export function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The `at` of an event read from `record`: its place, and the time and ids it recorded. */
export function eventAt(
  record: SourceRecord,
  time?: string,
  ids?: Readonly<Record<string, string>>,
): EventAt {
  return {
    index: record.index,
    ...(record.file === undefined ? {} : { file: record.file }),
    ...(record.line === undefined ? {} : { line: record.line }),
    ...(time === undefined ? {} : { time }),
    ...(ids === undefined || Object.keys(ids).length === 0 ? {} : { ids }),
  };
}
