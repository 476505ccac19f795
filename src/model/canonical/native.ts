/**
 * The view that lets the native `JSON.stringify` write RFC 8785 (JCS) text: it writes members in
 * enumeration order, calls `toJSON`, and reads `__proto__` through the prototype, so the view
 * sorts every object's keys and refuses every value where one of those would show.
 */

/** `String.prototype.isWellFormed` (ES2024, in Node 20), not in the ES2022 lib this builds with. */
export type WellFormed = string & { isWellFormed: () => boolean };

/** Deeper than this the view is refused: it recurses, and a cycle must stop somewhere. */
const VIEW_DEPTH = 256;

/** What {@link sortedView} returns when the value needs the general writer. */
export const NO_VIEW: unique symbol = Symbol("no view");

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
 * `value` with every object's keys in RFC 8785 order, for the native `JSON.stringify`. Objects
 * already sorted, with nothing changed below them, are reused; the rest are copied. Returns
 * {@link NO_VIEW} for anything whose native text could differ from the canonical one: a key that
 * enumerates out of insertion order (integer-like) or sets the prototype (`__proto__`), an object
 * that is not plain (it may have `toJSON`), a value with no canonical form or no JSON form (a
 * function, a symbol), or nesting past 256 levels from the root (which also stops a cycle).
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
  if (depth >= VIEW_DEPTH) return NO_VIEW;
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
    if (i > 0 && (keys[i - 1] ?? "") > key) sorted = false;
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
