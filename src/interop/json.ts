/**
 * Defensive readers for decoded JSON shared by the importers: a source document is untrusted, so
 * only own properties are read (never a prototype's) and copies are made with data properties,
 * so that a key such as `__proto__` stays ordinary data.
 */
import { pointerTokens } from "../model/index.js";

/** True for a plain JSON object (not `null`, not an array). */
export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The own property `key` of `obj`, or `undefined`; inherited properties are never read. */
export function own(obj: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/**
 * A deep copy of a JSON value, so that an imported workflow never aliases (and is never changed
 * through) the caller's document. `Object.fromEntries` defines data properties, so `__proto__`
 * is copied as a key instead of replacing the prototype.
 */
export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => cloneJson(item)) as T;
  if (isRecord(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cloneJson(v)])) as T;
  }
  return value;
}

/** A short description of a value for messages: strings quoted and cut, others by kind. */
export function describeValue(value: unknown): string {
  if (typeof value === "string") {
    return `'${value.length > 64 ? `${value.slice(0, 64)}...` : value}'`;
  }
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * Removes the value at a JSON Pointer, in place. Only for copies an importer made itself: the
 * caller's document is never edited.
 */
export function removeAt(draft: Record<string, unknown>, path: string): void {
  const tokens = pointerTokens(path);
  const last = tokens.pop();
  let current: unknown = draft;
  for (const token of tokens) {
    current = Array.isArray(current)
      ? (current as unknown[])[Number(token)]
      : isRecord(current)
        ? own(current, token)
        : undefined;
  }
  if (isRecord(current) && last !== undefined) Reflect.deleteProperty(current, last);
}
