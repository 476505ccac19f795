/**
 * What makes a value JSON data. A workflow's identity is the hash of its RFC 8785 form (SPEC 2.7),
 * and RFC 8785 has no form for `NaN`, infinities, lone surrogates, cycles, BigInts, or objects
 * that `JSON.stringify` would flatten (a `Map` becomes `{}`). A document holding one of these,
 * which only the API can pass, is refused at parse time with the place named, instead of crashing
 * the hash later or being stored as something else.
 */
import { escapePointerToken } from "./pointer.js";

/** Why a value is not JSON data. */
export type JsonDataProblemKind =
  | "lone-surrogate"
  | "not-finite"
  | "bigint"
  | "cycle"
  | "not-plain-object"
  | "no-json-form"
  | "too-large";

/** One place where a value is not JSON data. */
export interface JsonDataProblem {
  /** JSON Pointer of the offending value (of the member, for a key). */
  readonly path: string;
  readonly kind: JsonDataProblemKind;
  /** What was found there, for the message: `NaN`, `Map`, `U+D800`… */
  readonly found: string;
}

/** A lone high surrogate, or a low surrogate without its high half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function loneSurrogate(text: string): string | undefined {
  const match = LONE_SURROGATE.exec(text);
  if (match === null) return undefined;
  return `U+${match[0].charCodeAt(0).toString(16).toUpperCase()}`;
}

function constructorName(value: object): string {
  const proto: unknown = Object.getPrototypeOf(value);
  const ctor: unknown =
    typeof proto === "object" && proto !== null
      ? (proto as { constructor?: unknown }).constructor
      : undefined;
  return typeof ctor === "function" && ctor.name !== "" ? ctor.name : "an object with a prototype";
}

function isPlain(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null || Array.isArray(value);
}

/** A scalar's problem, or `undefined` when it is JSON. `undefined` in an object is absence. */
function scalarProblem(
  value: unknown,
  inArray: boolean,
): [JsonDataProblemKind, string] | undefined {
  switch (typeof value) {
    case "string": {
      const at = loneSurrogate(value);
      return at === undefined ? undefined : ["lone-surrogate", at];
    }
    case "number":
      return Number.isFinite(value) ? undefined : ["not-finite", String(value)];
    case "bigint":
      return ["bigint", `${String(value)}n`];
    case "function":
    case "symbol":
      return ["no-json-form", `a ${typeof value}`];
    case "undefined":
      return inArray ? ["no-json-form", "undefined"] : undefined;
    default:
      return undefined;
  }
}

/**
 * The most values a document may hold, counting a shared object at every place it appears (as
 * its JSON text would). It bounds the walk of a crafted value whose shared references expand
 * exponentially; a 100,000-node workflow holds about 1,000,000.
 */
export const MAX_JSON_VALUES = 10_000_000;

/** Past this depth the quick check gives up and leaves the answer to the exact walk. */
const QUICK_DEPTH = 512;

/** `String.prototype.isWellFormed` (ES2024, in Node 20), not in the ES2022 lib this builds with. */
type WellFormed = string & { isWellFormed: () => boolean };

/**
 * True when `value` is surely JSON data; false when it has a problem or is too deep to tell here.
 * Several times faster than {@link jsonDataProblems} (no paths, no cycle bookkeeping: the depth
 * bound stops a cycle), so that a valid document pays little for the check.
 */
function quickCheck(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return quickScalar(value) === SCALAR;
  // Only objects are pushed: scalars, most of a document, are checked where they are met.
  const objects: object[] = [value];
  const depths: number[] = [0];
  let budget = MAX_JSON_VALUES;
  for (let current = objects.pop(); current !== undefined; current = objects.pop()) {
    const depth = depths.pop() ?? 0;
    if (depth >= QUICK_DEPTH || !isPlain(current)) return false;
    if (Array.isArray(current)) {
      budget -= current.length;
      for (const item of current as unknown[]) {
        const kind = quickScalar(item);
        if (kind === BAD) return false;
        if (kind === OBJECT) {
          objects.push(item as object);
          depths.push(depth + 1);
        }
      }
    } else {
      const record = current as Record<string, unknown>;
      // for…in reads through V8's enum cache; plain objects have no enumerable inherited keys.
      for (const key in record) {
        budget -= 1;
        if (!(key as WellFormed).isWellFormed()) return false;
        const member = record[key];
        if (member === undefined) continue;
        const kind = quickScalar(member);
        if (kind === BAD) return false;
        if (kind === OBJECT) {
          objects.push(member as object);
          depths.push(depth + 1);
        }
      }
    }
    if (budget < 0) return false;
  }
  return true;
}

const SCALAR = 0;
const OBJECT = 1;
const BAD = 2;

/** A JSON scalar, an object (or array) to walk, or something the exact walk must look at. */
function quickScalar(value: unknown): typeof SCALAR | typeof OBJECT | typeof BAD {
  switch (typeof value) {
    case "string":
      return (value as WellFormed).isWellFormed() ? SCALAR : BAD;
    case "number":
      return Number.isFinite(value) ? SCALAR : BAD;
    case "boolean":
      return SCALAR;
    case "object":
      return value === null ? SCALAR : OBJECT;
    default:
      return BAD; // undefined in an array, bigint, function, symbol: the exact walk decides
  }
}

/** An object being walked: its members are read one at a time, and no path string is built
 * for a value unless it has a problem. */
interface Frame {
  readonly object: object;
  /** Own keys of an object; `undefined` for an array. */
  readonly keys: readonly string[] | undefined;
  /** The members' values, in the order of `keys` (the array itself for an array). */
  readonly values: readonly unknown[];
  /** Index of the member read last; the path token of the child being walked. */
  at: number;
}

function tokenOf(frame: Frame): string {
  const key = frame.keys?.[frame.at];
  return key === undefined ? String(frame.at) : escapePointerToken(key);
}

function pathOf(frames: readonly Frame[]): string {
  return frames.map((frame) => `/${tokenOf(frame)}`).join("");
}

function frameOf(object: object): Frame {
  if (Array.isArray(object))
    return { object, keys: undefined, values: object as unknown[], at: -1 };
  // Both list own enumerable string keys in the same order; reading values by key instead is a
  // megamorphic keyed load per member, several times slower on a large document.
  return { object, keys: Object.keys(object), values: Object.values(object), at: -1 };
}

/**
 * How many enclosing objects are compared one by one to find a cycle; deeper ones go in a set.
 * Documents are shallow, and a set would give every object of a 100,000-node document an
 * identity hash, which costs more than the whole rest of the walk.
 */
const SHALLOW = 32;

/** Whether `child` is one of the objects being walked (a cycle). */
function encloses(frames: readonly Frame[], deep: ReadonlySet<object>, child: object): boolean {
  const shallow = Math.min(frames.length, SHALLOW);
  for (let i = 0; i < shallow; i += 1) if (frames[i]?.object === child) return true;
  return frames.length > SHALLOW && deep.has(child);
}

/**
 * Every place in `value` that is not JSON data, in document order. Iterative: 10,000-deep input
 * must not overflow the stack. Linear in the size of the value as JSON text; an object shared by
 * two members (no cycle) is checked at each place, as `JSON.stringify` would write it twice.
 *
 * @example
 * ```ts
 * import { jsonDataProblems } from "agentflow/model";
 *
 * const problems = jsonDataProblems({ a: [1, Number.NaN], b: "\ud800", c: new Map() });
 * problems.map((p) => `${p.path} ${p.kind}`); // → ["/a/1 not-finite", "/b lone-surrogate", "/c not-plain-object"]
 * jsonDataProblems({ nodes: [{ id: "n1" }] }); // → []
 * ```
 */
export function jsonDataProblems(value: unknown): JsonDataProblem[] {
  if (quickCheck(value)) return [];
  const root = scalarProblem(value, false);
  if (root !== undefined) return [{ path: "", kind: root[0], found: root[1] }];
  if (typeof value !== "object" || value === null) return [];
  if (!isPlain(value))
    return [{ path: "", kind: "not-plain-object", found: constructorName(value) }];
  const problems: JsonDataProblem[] = [];
  const report = (kind: JsonDataProblemKind, found: string): void => {
    problems.push({ path: pathOf(frames), kind, found });
  };
  const deep = new Set<object>();
  const frames: Frame[] = [frameOf(value)];
  let budget = MAX_JSON_VALUES;
  for (let top = frames.at(-1); top !== undefined; top = frames.at(-1)) {
    if (--budget < 0) {
      const found = `more than ${String(MAX_JSON_VALUES)} values`;
      return [...problems, { path: "", kind: "too-large", found }];
    }
    top.at += 1;
    if (top.at >= top.values.length) {
      frames.pop();
      if (frames.length >= SHALLOW) deep.delete(top.object);
      continue;
    }
    const key = top.keys?.[top.at];
    const badKey = key === undefined ? undefined : loneSurrogate(key);
    if (badKey !== undefined) report("lone-surrogate", badKey);
    const child = top.values[top.at];
    if (typeof child !== "object" || child === null) {
      const problem = scalarProblem(child, key === undefined);
      if (problem !== undefined) report(problem[0], problem[1]);
    } else if (encloses(frames, deep, child)) {
      report("cycle", "a reference to an enclosing value");
    } else if (!isPlain(child)) {
      report("not-plain-object", constructorName(child));
    } else {
      if (frames.length >= SHALLOW) deep.add(child);
      frames.push(frameOf(child));
    }
  }
  return problems;
}

/** What was found, per kind, as the subject of the sentence. */
const NOT_JSON_FOUND: Readonly<Record<JsonDataProblem["kind"], (found: string) => string>> = {
  "lone-surrogate": (found) => `a string holding a lone surrogate (${found}) is not Unicode text`,
  "not-finite": (found) => `${found} is not a JSON number`,
  bigint: (found) => `the BigInt ${found} is not a JSON number`,
  cycle: () => "a value that contains itself has no JSON text",
  "not-plain-object": (found) =>
    `${found} is not a plain object or array (JSON.stringify would flatten it)`,
  "no-json-form": (found) => `${found} has no JSON form (JSON.stringify would drop it)`,
  "too-large": (found) =>
    `the value holds ${found}, counting shared references at every place they appear`,
};

/** The sentence for a value with no canonical JSON form (RFC 8785), so no content hash. */
export function notJsonDataMessage(problem: JsonDataProblem): string {
  const at = problem.path === "" ? "the document" : problem.path;
  return `${at}: ${NOT_JSON_FOUND[problem.kind](problem.found)}, so the document has no canonical form or content hash`;
}
