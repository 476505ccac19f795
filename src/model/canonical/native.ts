/**
 * Which values the native `JSON.stringify` writes in RFC 8785 (JCS) form, and the views that make
 * it do so (see canonical.ts for the writers that use them). Native writing is several times
 * quicker than any writer in JavaScript, but it writes members in enumeration order, calls
 * `toJSON`, and reads `__proto__` through the prototype: each check here rules one of those out.
 */

/** `String.prototype.isWellFormed` (ES2024, in Node 20), not in the ES2022 lib this builds with. */
export type WellFormed = string & { isWellFormed: () => boolean };

/** Deeper than this, the recursive writer hands over to the iterative one (which finds cycles). */
export const QUICK_DEPTH = 256;

/** Checks one member for {@link sortedKeys}, queueing it when it is an object. */
function plainMember(member: unknown, depth: number, objects: object[], depths: number[]): boolean {
  switch (typeof member) {
    case "object":
      if (member !== null) {
        objects.push(member);
        depths.push(depth + 1);
      }
      return true;
    case "string":
      return (member as WellFormed).isWellFormed();
    case "number":
      return Number.isFinite(member);
    case "boolean":
    case "undefined":
      return true;
    default:
      return false;
  }
}

/** Whether every member is a scalar that `JSON.stringify` writes as RFC 8785 does (or skips). */
export function isFlat(
  record: Readonly<Record<string, unknown>>,
  keys: readonly string[],
): boolean {
  for (const key of keys) {
    if (!(key as WellFormed).isWellFormed()) return false;
    const member = record[key];
    if (typeof member === "object" ? member !== null : !plainMember(member, 0, [], []))
      return false;
  }
  return true;
}

/**
 * The most distinct keys the native path takes. `JSON.stringify` looks every key of the list up
 * on every object, so the list must stay short: 100,000 distinct keys (a schema of 100,000
 * fields) on a document of 300,000 objects would be 3e10 look-ups.
 */
const LIST_KEYS = 64;

/**
 * Every key of a plain JSON value, sorted by UTF-16 code units, or `undefined` when the native
 * fast path cannot be trusted with the value: a string or key that is not well-formed, a number
 * that is not finite, a BigInt, a function, an object that is not plain (it may have `toJSON`),
 * nesting past {@link QUICK_DEPTH} (or a cycle), more than {@link LIST_KEYS} distinct keys, or an
 * `__proto__` key, which `JSON.stringify` would read through the prototype of every object that
 * lacks it.
 */
export function sortedKeys(value: object): string[] | undefined {
  const keys = new Set<string>();
  const objects: object[] = [value];
  const depths: number[] = [0];
  for (let current = objects.pop(); current !== undefined; current = objects.pop()) {
    const depth = depths.pop() ?? 0;
    if (depth >= QUICK_DEPTH) return undefined;
    if (Array.isArray(current)) {
      for (const item of current as unknown[]) {
        if (!plainMember(item, depth, objects, depths)) return undefined;
      }
      continue;
    }
    const proto: unknown = Object.getPrototypeOf(current);
    if (proto !== Object.prototype && proto !== null) return undefined;
    const record = current as Readonly<Record<string, unknown>>;
    for (const key in record) {
      if (!(key as WellFormed).isWellFormed()) return undefined;
      keys.add(key);
      if (keys.size > LIST_KEYS) return undefined;
      if (!plainMember(record[key], depth, objects, depths)) return undefined;
    }
  }
  return keys.has("__proto__") ? undefined : [...keys].sort();
}

/** What {@link sortedView} returns when the value needs another writer. */
export const NO_VIEW: unique symbol = Symbol("no view");

/** The most keys of an unsorted object {@link sortedView} copies. */
const COPY_KEYS = 1_000;

/** Whether a key keeps its place when set in order: integer-like keys enumerate first. */
function viewableKey(key: string): boolean {
  const first = key.charCodeAt(0);
  return !(first >= 48 && first <= 57) && key !== "__proto__" && (key as WellFormed).isWellFormed();
}

function viewableProto(value: object, array: boolean): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return array ? proto === Array.prototype : proto === Object.prototype || proto === null;
}

/**
 * `value` with every object's keys in RFC 8785 order, for the native `JSON.stringify` (no property
 * list: its fast path, several times quicker than a list looked up on every object). Objects
 * already sorted, with nothing changed below them, are reused; the rest are copied. Returns
 * {@link NO_VIEW} for anything whose native text could differ from the canonical one: a key that
 * enumerates out of insertion order (integer-like) or sets the prototype (`__proto__`), an object
 * that is not plain (it may have `toJSON`), a value with no canonical form, or nesting past
 * {@link QUICK_DEPTH} (which also stops a cycle).
 */
export function sortedView(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case "string":
      return (value as WellFormed).isWellFormed() ? value : NO_VIEW;
    case "number":
      return Number.isFinite(value) ? value : NO_VIEW;
    case "boolean":
    case "undefined":
      return value;
    case "object":
      break;
    default:
      return NO_VIEW;
  }
  if (value === null) return null;
  if (depth >= QUICK_DEPTH) return NO_VIEW;
  if (Array.isArray(value)) {
    if (!viewableProto(value, true)) return NO_VIEW;
    const items = value as readonly unknown[];
    let copy: unknown[] | undefined;
    for (let i = 0; i < items.length; i += 1) {
      const item = items[i];
      const viewed = sortedView(item, depth + 1);
      if (viewed === NO_VIEW) return NO_VIEW;
      if (copy === undefined && viewed !== item) copy = items.slice(0, i);
      copy?.push(viewed);
    }
    return copy ?? value;
  }
  if (!viewableProto(value, false)) return NO_VIEW;
  const record = value as Readonly<Record<string, unknown>>;
  const keys = Object.keys(record);
  let sorted = true;
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i] ?? "";
    if (!viewableKey(key)) return NO_VIEW;
    if (i > 0 && (keys[i - 1] ?? "") > key) {
      // A copy of that many keys is a dictionary-mode object: the property list is quicker.
      if (keys.length > COPY_KEYS) return NO_VIEW;
      sorted = false;
    }
  }
  if (!sorted) keys.sort();
  let copy: Record<string, unknown> | undefined = sorted ? undefined : {};
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i] ?? "";
    const member = record[key];
    const viewed = sortedView(member, depth + 1);
    if (viewed === NO_VIEW) return NO_VIEW;
    if (copy === undefined && viewed !== member) {
      copy = {};
      for (let j = 0; j < i; j += 1) copy[keys[j] ?? ""] = record[keys[j] ?? ""];
    }
    if (copy !== undefined) copy[key] = viewed;
  }
  return copy ?? value;
}
