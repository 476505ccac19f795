/**
 * Canonical form and identity (SPEC 2.7): what a report or a promotion decision names is the hash
 * of the RFC 8785 (JCS) text, so key order and whitespace never change a document's identity.
 *
 * Four writers, fastest first. The native `JSON.stringify` writes RFC 8785 text for a plain value
 * whose objects enumerate their keys in sorted order: {@link sortedView} gives it a view where
 * they do (copying only the objects that are not sorted yet). Where a view cannot be trusted (an
 * integer-like or `__proto__` key, a `toJSON`), `JSON.stringify` with the sorted list of every key
 * writes the same order for a value with few distinct keys (tried on the whole value, then on each
 * member of the root, and on every flat object). A recursive writer takes the rest up to 256
 * levels. Deeper input, and cycles, go to an iterative writer: the `canonicalize` package recurses
 * once per level and overflows the stack on a 10,000-deep metadata object, which a governance tool
 * must hash rather than crash on. Tests check every writer against `canonicalize` as the reference.
 */
import type { WellFormed } from "./native.js";
import { isFlat, NO_VIEW, QUICK_DEPTH, sortedKeys, sortedView } from "./native.js";
import { sha256 } from "./sha256.js";

function scalar(value: unknown): string {
  if (typeof value === "number" && !Number.isFinite(value)) {
    throw new Error(Number.isNaN(value) ? "NaN is not allowed" : "Infinity is not allowed");
  }
  if (typeof value === "string" && !(value as WellFormed).isWellFormed()) {
    throw new Error("Lone surrogate is not allowed");
  }
  return JSON.stringify(value);
}

/** A unit of work: a value still to serialise, literal text, or leaving an object (cycle check). */
type Task =
  | { readonly kind: "value"; readonly value: unknown }
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "leave"; readonly object: object };

function hasToJson(value: object): value is { toJSON: () => unknown } {
  return typeof (value as { toJSON?: unknown }).toJSON === "function";
}

/** Skipped like `JSON.stringify` skips them: members with no JSON form. */
function isSkipped(value: unknown): boolean {
  return value === undefined || typeof value === "symbol" || typeof value === "function";
}

/** Quoted keys: documents repeat a few keys (`id`, `type`, `config`) thousands of times. */
const quotedKeys = new Map<string, string>();

function quotedKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = scalar(key) + ":";
    if (quotedKeys.size < 4_096) quotedKeys.set(key, quoted);
  }
  return quoted;
}

/**
 * Appends the canonical text to `out` by plain recursion; false when too deep. About ten times
 * faster than the task stack on a large document (no task object per value, one join at the
 * end); the depth bound keeps it off the call stack's limit and stops a cycle, which the
 * iterative writer then reports.
 */
function quick(value: unknown, depth: number, out: string[]): boolean {
  if (value === null || typeof value !== "object") {
    out.push(scalar(value));
    return true;
  }
  if (depth >= QUICK_DEPTH) return false;
  if (hasToJson(value)) return quick(value.toJSON(), depth + 1, out);
  if (depth === 1) {
    // The root had no sorted view (a metadata object of 100,000 unsorted keys), but each of its
    // members may: a workflow's nodes share a few keys.
    const view = sortedView(value, depth);
    if (view !== NO_VIEW) {
      out.push(JSON.stringify(view));
      return true;
    }
    const keys = sortedKeys(value);
    if (keys !== undefined) {
      out.push(JSON.stringify(value, keys));
      return true;
    }
  }
  if (Array.isArray(value)) {
    out.push("[");
    for (let i = 0; i < value.length; i += 1) {
      if (i > 0) out.push(",");
      const item: unknown = value[i];
      if (!quick(isSkipped(item) ? null : item, depth + 1, out)) return false;
    }
    out.push("]");
    return true;
  }
  const record = value as Readonly<Record<string, unknown>>;
  const keys = Object.keys(record).sort();
  if (isFlat(record, keys)) {
    // Only scalars, all writable as JSON: the native writer, given this object's own sorted keys.
    out.push(JSON.stringify(record, keys));
    return true;
  }
  let separator = "{";
  for (const key of keys) {
    const member = record[key];
    if (isSkipped(member)) continue;
    out.push(separator, quotedKey(key));
    separator = ",";
    if (!quick(member, depth + 1, out)) return false;
  }
  out.push(separator === "{" ? "{}" : "}");
  return true;
}

/**
 * The RFC 8785 (JCS) serialisation of a JSON value: object keys sorted by UTF-16 code units, no
 * whitespace, numbers in their shortest ECMAScript form. Object members with no JSON form are
 * dropped and array holes become `null`, as in `JSON.stringify`.
 *
 * @throws TypeError when `value` itself has no JSON form (`undefined`, a function, a symbol):
 *   returning `"null"` would give it the identity of `null`.
 * @throws Error for `NaN`, infinities, lone surrogates and cycles.
 *
 * @example
 * ```ts
 * import { canonicalJson } from "agentflow/model";
 *
 * canonicalJson({ b: [1, 2.50, "x"], a: { d: null, c: true } }); // → '{"a":{"c":true,"d":null},"b":[1,2.5,"x"]}'
 * ```
 */
export function canonicalJson(value: unknown): string {
  if (isSkipped(value)) {
    throw new TypeError(`canonicalJson: a value of type ${typeof value} has no JSON form`);
  }
  if (typeof value === "object" && value !== null) {
    // An object root is viewed member by member (in quick): one member without a view (100,000
    // unsorted metadata keys) then costs no walk of the others.
    if (Array.isArray(value)) {
      const view = sortedView(value, 0);
      if (view !== NO_VIEW) return JSON.stringify(view);
    }
  }
  const parts: string[] = [];
  if (quick(value, 0, parts)) return parts.join("");
  const out: string[] = [];
  const inProgress = new Set<object>();
  const stack: Task[] = [{ kind: "value", value }];
  for (let task = stack.pop(); task !== undefined; task = stack.pop()) {
    if (task.kind === "text") {
      out.push(task.text);
      continue;
    }
    if (task.kind === "leave") {
      inProgress.delete(task.object);
      continue;
    }
    const current = task.value;
    if (current === null || typeof current !== "object") {
      out.push(scalar(current));
      continue;
    }
    if (inProgress.has(current)) throw new Error("Circular reference detected");
    inProgress.add(current);
    stack.push({ kind: "leave", object: current });
    if (hasToJson(current)) {
      stack.push({ kind: "value", value: current.toJSON() });
      continue;
    }
    // Tasks are pushed in reverse so that they pop in document order.
    if (Array.isArray(current)) {
      stack.push({ kind: "text", text: "]" });
      for (let i = current.length - 1; i >= 0; i -= 1) {
        const item: unknown = current[i];
        stack.push({ kind: "value", value: isSkipped(item) ? null : item });
        if (i > 0) stack.push({ kind: "text", text: "," });
      }
      stack.push({ kind: "text", text: "[" });
      continue;
    }
    const record = current as Readonly<Record<string, unknown>>;
    const keys = Object.keys(record)
      .filter((k) => !isSkipped(record[k]))
      .sort();
    stack.push({ kind: "text", text: "}" });
    for (let i = keys.length - 1; i >= 0; i -= 1) {
      const key = keys[i] ?? "";
      stack.push({ kind: "value", value: record[key] });
      stack.push({ kind: "text", text: (i > 0 ? "," : "") + scalar(key) + ":" });
    }
    stack.push({ kind: "text", text: "{" });
  }
  return out.join("");
}

/**
 * `"sha256:"` + the lowercase hex SHA-256 of {@link canonicalJson}; throws as it does.
 *
 * @example
 * ```ts
 * import { contentHash } from "agentflow/model";
 *
 * const a = contentHash({ id: "agnt-x", version: "1.0.0" });
 * const b = contentHash({ version: "1.0.0", id: "agnt-x" }); // key order does not matter
 * a === b; // → true
 * a.startsWith("sha256:"); // → true
 * ```
 */
export function contentHash(value: unknown): string {
  return "sha256:" + sha256(canonicalJson(value));
}
