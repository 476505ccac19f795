/**
 * What every reader needs of a record: whether a JSON value is an object, the event's `at`
 * (where the record was, its own time and ids), and agentflow's JSON-text, cost and text keys
 * read alike.
 */
import type { EventAt, RecordedObject } from "../types.js";
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

/** A copy of `value` as a null-prototype-free plain object (keys like `__proto__` stay data). */
export function plain(value: Readonly<Record<string, unknown>>): RecordedObject {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) Object.defineProperty(out, k, dataProp(v));
  return out;
}

/** An own, enumerable data property: what `plain` copies each key as. */
export function dataProp(value: unknown): PropertyDescriptor {
  return { value, enumerable: true, writable: true, configurable: true };
}

/**
 * The object an agentflow JSON-text key (`agentflow.node.output`, `agentflow.tool.args`) holds:
 * parsed text, an object as is, else why not — every reader says the same of a bad one.
 */
export function jsonObject(value: unknown): RecordedObject | string {
  if (isObject(value)) return plain(value);
  if (typeof value !== "string") return "it is neither JSON text nor an object";
  try {
    const parsed: unknown = JSON.parse(value);
    return isObject(parsed) ? plain(parsed) : "its JSON text is not an object";
  } catch {
    return "its text is not JSON";
  }
}

const COST_KEY = /^agentflow\.cost\.([A-Z]{3})$/;

/**
 * What an `agentflow.cost…` key records: an amount in an ISO 4217 currency, or why it cannot be
 * read; `undefined` for a key that is no cost. A cost decides the budget verdict, so a key in
 * another spelling (`agentflow.cost.usd`, a bare `agentflow.cost`) or an amount that is not a
 * number of zero or more is reported by every reader, never dropped or summed.
 */
export function costOf(
  key: string,
  value: unknown,
): { readonly code: string; readonly amount: number } | string | undefined {
  if (!key.startsWith("agentflow.cost")) return undefined;
  const code = COST_KEY.exec(key)?.[1];
  if (code === undefined)
    return `${key} names no currency: a cost is agentflow.cost.<ISO 4217 code>, such as agentflow.cost.USD`;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
    return `${key} is not an amount (a number, zero or more)`;
  return { code, amount: value };
}

/**
 * What a value recorded where text must be (a tool's, model's or prompt's name, a workflow, a node
 * or element id) is instead (`"is a list, not text"`), or `undefined` when it is non-empty text. Every reader reports such
 * a value as a record it could not read, never as absent: taken for absent, a name recorded as a
 * list would drop the very field a check compares, and the step would pass unchecked.
 */
export function notText(value: unknown): string | undefined {
  if (typeof value === "string") return value === "" ? "is empty" : undefined;
  if (value === null || value === undefined) return "holds no value";
  if (Array.isArray(value)) return "is a list, not text";
  if (typeof value === "object") return "is an object (key-value list), not text";
  return `is a ${typeof value}, not text`;
}

/**
 * A step's tokens from the counts it recorded under the names a reader knows: input plus output,
 * or the total when that is larger; `partial` when only the input or only the output was
 * recorded (and no total), so that the count is a lower bound. `undefined` when none was.
 */
export function combineTokens(
  input: number | undefined,
  output: number | undefined,
  total: number | undefined,
): { readonly tokens: number; readonly partial: boolean } | undefined {
  if (input === undefined && output === undefined && total === undefined) return undefined;
  return {
    tokens: Math.max((input ?? 0) + (output ?? 0), total ?? 0),
    partial: total === undefined && (input === undefined || output === undefined),
  };
}
