/**
 * Canonical form and identity (SPEC 2.7): what a report or a promotion decision names is the hash
 * of the RFC 8785 (JCS) text, so key order and whitespace never change a document's identity.
 *
 * Two writers, both kept by measurement (`bench/canonical.ts`; the figures are in
 * docs/performance.md, "Hashing and canonical JSON"). The native `JSON.stringify` over a view with
 * sorted keys ({@link sortedView}) writes a plain document; the `canonicalize` package takes about
 * twice as long on large documents, where hostile input is held to a 1 s bound. Whatever the view
 * refuses (integer-like or `__proto__` keys, `toJSON`, members with no JSON form, nesting, cycles)
 * goes to one iterative writer, which tries the view again on the objects near the root.
 * `canonicalize` cannot be that writer: it recurses once per level and throws a RangeError at
 * 10,000 levels (hostile input a governance tool must hash, not crash on; the fallback writes
 * 100,000 levels well within the bound), and it writes `"f":undefined` and `[1,,2]` for function
 * members and array holes. It stays the reference the tests check both writers against;
 * digests.test.ts checks the examples' digests against those recorded before.
 */
import type { WellFormed } from "./native.js";
import { NO_VIEW, sortedView } from "./native.js";
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

/**
 * How many levels below the root the fallback writer tries the native view again. A refused
 * object is walked once for each level above the refusal, so this bounds that extra work to a few
 * walks of the document; below, the fallback writes on its own.
 */
const VIEW_LEVELS = 8;

/** A unit of work: a value still to serialise, literal text, or leaving an object (cycles). */
type Task =
  | { readonly kind: "value"; readonly value: unknown; readonly depth: number }
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "leave"; readonly object: object };

function hasToJson(value: object): value is { toJSON: () => unknown } {
  return typeof (value as { toJSON?: unknown }).toJSON === "function";
}

/** Skipped like `JSON.stringify` skips them: members with no JSON form. */
function isSkipped(value: unknown): boolean {
  return value === undefined || typeof value === "symbol" || typeof value === "function";
}

/**
 * The canonical text of any value, with a task stack instead of recursion: no depth overflows it,
 * and it reports a cycle. An object in the top {@link VIEW_LEVELS} levels that the native view
 * accepts is written natively, so one odd member (a `Date`, a map keyed by status codes) does not
 * slow down the rest of the document.
 */
function written(value: unknown): string {
  const out: string[] = [];
  const inProgress = new Set<object>();
  const stack: Task[] = [{ kind: "value", value, depth: 0 }];
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
    const depth = task.depth;
    if (depth > 0 && depth <= VIEW_LEVELS) {
      const view = sortedView(current, depth);
      if (view !== NO_VIEW) {
        out.push(JSON.stringify(view));
        continue;
      }
    }
    if (inProgress.has(current)) throw new Error("Circular reference detected");
    inProgress.add(current);
    stack.push({ kind: "leave", object: current });
    if (hasToJson(current)) {
      stack.push({ kind: "value", value: current.toJSON(), depth });
      continue;
    }
    // Tasks are pushed in reverse so that they pop in document order.
    if (Array.isArray(current)) {
      stack.push({ kind: "text", text: "]" });
      for (let i = current.length - 1; i >= 0; i -= 1) {
        const item: unknown = current[i];
        stack.push({ kind: "value", value: isSkipped(item) ? null : item, depth: depth + 1 });
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
      stack.push({ kind: "value", value: record[key], depth: depth + 1 });
      stack.push({ kind: "text", text: (i > 0 ? "," : "") + scalar(key) + ":" });
    }
    stack.push({ kind: "text", text: "{" });
  }
  return out.join("");
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
  // An object root goes to the fallback, which views its members one by one: a document's odd
  // member (a `Date` in its metadata) then costs no second walk of the others.
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return written(value);
  const view = sortedView(value, 0);
  return view === NO_VIEW ? written(value) : JSON.stringify(view);
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
