/**
 * A report's `data` as agentflow keeps it from a rule it did not write: a copy, made when the
 * report is made, of what is plain JSON data. Every output writes `data` (JSON, SARIF, a worker
 * thread's message, the cache), so a BigInt, a cycle, a Map, a getter or `toJSON` that throws
 * would crash one output and not another, or be flattened unseen; a value the rule keeps and
 * changes later would change a finding already judged. Anything else is the rule's own mistake,
 * said with the place (`data/extra`), which the run loop turns into `RULE_CRASHED`.
 */
import { escapePointerToken } from "../model/index.js";

/** Nesting past this is no finding's data; recursion must not exhaust the stack. */
const MAX_DEPTH = 256;
/** Values past this (shared references counted at each place) are no finding's data either. */
const MAX_VALUES = 100_000;

class NotData extends Error {}

/** A lone high surrogate, or a low surrogate without its high half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function text(value: string, where: string): string {
  if (LONE_SURROGATE.test(value)) {
    throw new NotData(`${where} holds a lone surrogate, which is not Unicode text`);
  }
  return value;
}

function isPlain(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return Array.isArray(value) || proto === Object.prototype || proto === null;
}

interface Walk {
  readonly ancestors: object[];
  values: number;
}

function copy(value: unknown, where: string, walk: Walk): unknown {
  walk.values += 1;
  if (walk.values > MAX_VALUES) throw new NotData(`data holds more than ${MAX_VALUES} values`);
  switch (typeof value) {
    case "string":
      return text(value, where);
    case "boolean":
      return value;
    case "number":
      if (Number.isFinite(value)) return value;
      throw new NotData(`${where} is ${String(value)}, not a JSON number`);
    case "bigint":
      throw new NotData(`${where} is the BigInt ${String(value)}n, not a JSON number`);
    case "object":
      return value === null ? null : copyObject(value, where, walk);
    default:
      throw new NotData(
        `${where} is ${typeof value === "undefined" ? "undefined" : `a ${typeof value}`}, which has no JSON form`,
      );
  }
}

function copyObject(value: object, where: string, walk: Walk): unknown {
  if (walk.ancestors.includes(value)) throw new NotData(`${where} contains itself`);
  if (walk.ancestors.length >= MAX_DEPTH) {
    throw new NotData(`${where} is nested deeper than ${MAX_DEPTH} levels`);
  }
  if (!isPlain(value)) {
    throw new NotData(`${where} is not a plain object or array (JSON would flatten it)`);
  }
  walk.ancestors.push(value);
  let out: unknown;
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (let i = 0; i < value.length; i += 1) {
      items.push(copy((value as unknown[])[i], `${where}/${i}`, walk));
    }
    out = items;
  } else {
    const record: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const at = `${where}/${escapePointerToken(text(key, `${where}: a key`))}`;
      const member = (value as Record<string, unknown>)[key];
      // Absent, as JSON has it; a function member (a `toJSON`) is no data.
      if (member !== undefined) record[key] = copy(member, at, walk);
    }
    out = record;
  }
  walk.ancestors.pop();
  return out;
}

/**
 * `data` copied as plain JSON data (`{}` when there is none), or why it is not (`data/extra is the BigInt 10n, …`). Reading
 * it may run a rule's getter: one that throws is said the same way, never thrown on.
 */
export function copyReportData(data: unknown): Record<string, unknown> | string {
  // No data is no placeholder filled: what a message without placeholders needs.
  if (data === undefined) return {};
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    return `its report's data must be an object of JSON data, not ${describeValue(data)}`;
  }
  try {
    return copy(data, "data", { ancestors: [], values: 0 }) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof NotData) return `its report's ${error.message}`;
    const reason = error instanceof Error ? error.message : String(error);
    return `reading its report's data threw: ${reason}`;
  }
}

/** A value as an error message names it: `undefined`, `5`, `"x"`, `an object`. */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
    case "number":
    case "boolean":
    case "undefined":
      return String(value);
    case "bigint":
      return `${String(value)}n`;
    case "object":
      return value === null ? "null" : Array.isArray(value) ? "an array" : "an object";
    default:
      return `a ${typeof value}`;
  }
}
