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

/** A copy being filled: its source, the keys left to copy (all indices for an array), the copy. */
interface CloneFrame {
  readonly from: Readonly<Record<string, unknown>>;
  /** The object's own keys; `undefined` for an array, which is walked by index. */
  readonly keys: readonly string[] | undefined;
  readonly length: number;
  readonly to: Record<string, unknown>;
  next: number;
}

/** An empty array or object to copy `value` into, or `undefined` for a leaf (copied as is). */
function shellOf(value: unknown): Record<string, unknown> | undefined {
  if (Array.isArray(value))
    return new Array<unknown>(value.length) as unknown as Record<string, unknown>;
  return isRecord(value) ? {} : undefined;
}

function frameOf(from: object, to: Record<string, unknown>): CloneFrame {
  const keys = Array.isArray(from) ? undefined : Object.keys(from);
  const length = keys === undefined ? (from as unknown[]).length : keys.length;
  return { from: from as Readonly<Record<string, unknown>>, keys, length, to, next: 0 };
}

/**
 * A deep copy of a JSON value, so that an imported workflow never aliases (and is never changed
 * through) the caller's document. A `__proto__` key is defined as data, so it is copied as a key
 * instead of replacing the prototype; an array's holes stay holes. The walk keeps its own stack,
 * so a 10,000-deep value copies without exhausting the call stack; a value that contains itself
 * has no JSON form and is a `TypeError`.
 */
export function cloneJson<T>(value: T): T {
  const root = shellOf(value);
  if (root === undefined) return value;
  const stack: CloneFrame[] = [frameOf(value as object, root)];
  // The objects on the path from the root: meeting one again is a cycle, not shared data.
  const open = new Set<object>([value as object]);
  for (let frame = stack.at(-1); frame !== undefined; frame = stack.at(-1)) {
    if (frame.next === frame.length) {
      open.delete(frame.from);
      stack.pop();
      continue;
    }
    const index = frame.next;
    frame.next += 1;
    const key = frame.keys === undefined ? index : (frame.keys[index] ?? "");
    if (typeof key === "number" && !(key in frame.from)) continue;
    const child = frame.from[key];
    const shell = shellOf(child);
    if (key === "__proto__") {
      Object.defineProperty(frame.to, key, {
        value: shell ?? child,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    } else frame.to[key] = shell ?? child;
    if (shell === undefined) continue;
    const from = child as object;
    if (open.has(from)) throw new TypeError("cloneJson: the value contains itself (a cycle)");
    open.add(from);
    stack.push(frameOf(from, shell));
  }
  return root as T;
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
