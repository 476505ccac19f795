/**
 * JSON copies and JSON text without recursion. `JSON.stringify` recurses once per nesting level
 * and throws a RangeError past a few thousand levels, so a fixture output nested 10,000 deep —
 * valid JSON that a fixture file can hold — crashed the simulator. These walk with an explicit
 * stack and give what `JSON.parse(JSON.stringify(value))` and `JSON.stringify(value)` give.
 */

/** A value to descend into (an object or an array). */
const OPEN = Symbol("open");
/** A value with no JSON form: dropped from an object, `null` in an array. */
const SKIP = Symbol("skip");

type Container = Record<string, unknown> | unknown[];

interface Frame {
  readonly source: object;
  /** The keys to copy; `undefined` for an array (indexes up to its length). */
  readonly keys: readonly string[] | undefined;
  readonly target: Container;
  index: number;
}

function setMember(target: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty: a key named `__proto__` stays data, as JSON.parse makes it.
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** `toJSON(key)` when the value has one, and boxed primitives unboxed, as JSON.stringify does. */
function prepared(value: unknown, key: string): unknown {
  let current = value;
  if ((typeof current === "object" && current !== null) || typeof current === "bigint") {
    const toJson: unknown = (current as { toJSON?: unknown }).toJSON;
    if (typeof toJson === "function")
      current = (toJson as (k: string) => unknown).call(current, key);
  }
  if (current instanceof Number) return Number(current);
  if (current instanceof String) return String(current);
  if (current instanceof Boolean) return current.valueOf();
  return current;
}

function form(value: unknown): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      // JSON has no NaN, infinities or negative zero.
      return Number.isFinite(value) ? value + 0 : null;
    case "bigint":
      throw new TypeError("a BigInt has no JSON form");
    case "object":
      return value === null ? null : OPEN;
    default:
      return SKIP;
  }
}

function open(source: object, active: Set<object>): Frame {
  if (active.has(source)) throw new TypeError("a value that contains itself has no JSON form");
  active.add(source);
  return Array.isArray(source)
    ? { source, keys: undefined, target: [], index: 0 }
    : { source, keys: Object.keys(source), target: {}, index: 0 };
}

/** What {@link plainCopy} returns for a value it leaves to the JSON round trip. */
const NOT_PLAIN = Symbol("not plain");

/**
 * Levels {@link plainCopy} descends before it leaves a value to the round trip: its recursion is
 * bounded by this, not by the input (a cycle, or an output nested 10,000 deep, goes on to the
 * round trip, which names the cycle and takes any depth).
 */
const PLAIN_DEPTH = 64;

/**
 * What {@link plainKind} says of a value: `"leaf"` a string, boolean, finite number other than -0
 * or `null`, which the round trip keeps; `"array"` (not a subclass's) or `"object"` (of
 * `Object.prototype` or none) a container to walk; `"no"` anything the round trip would change,
 * drop or refuse.
 */
type Plain = "no" | "leaf" | "array" | "object";

/**
 * The one statement of plain JSON data that {@link plainCopy} and {@link isPlainJson} walk: a
 * container with `toJSON`, or `depth` levels down, is not plain, and neither is a member that is
 * `undefined`, a function, a symbol or a BigInt. Keys are the walkers' to check (`__proto__`).
 */
function plainKind(value: unknown, depth: number): Plain {
  switch (typeof value) {
    case "string":
    case "boolean":
      return "leaf";
    case "number":
      // The round trip writes -0 as 0 and NaN and the infinities as null: not the same value.
      return Number.isFinite(value) && !Object.is(value, -0) ? "leaf" : "no";
    case "object":
      break;
    default:
      return "no";
  }
  if (value === null) return "leaf";
  if (depth === 0 || typeof (value as { toJSON?: unknown }).toJSON === "function") return "no";
  const proto: unknown = Object.getPrototypeOf(value);
  if (Array.isArray(value)) return proto === Array.prototype ? "array" : "no";
  return proto === Object.prototype || proto === null ? "object" : "no";
}

/**
 * A copy of plain JSON data ({@link plainKind}) equal to what the round trip makes of it;
 * `NOT_PLAIN` for anything the round trip would change, drop or refuse. A fixture output copied
 * this way costs a tenth of `JSON.parse(JSON.stringify(o))`, which builds and scans a string on
 * the way.
 */
function plainCopy(value: unknown, depth: number): unknown {
  const kind = plainKind(value, depth);
  if (kind === "leaf") return value;
  if (kind === "no") return NOT_PLAIN;
  if (kind === "array") {
    const out: unknown[] = [];
    // A hole reads as undefined, which the round trip writes as null: not plain.
    for (const item of value as readonly unknown[]) {
      const member = plainCopy(item, depth - 1);
      if (member === NOT_PLAIN) return NOT_PLAIN;
      out.push(member);
    }
    return out;
  }
  const source = value as Readonly<Record<string, unknown>>;
  const out: Record<string, unknown> = {};
  // for-in with an own check lists what Object.keys lists, in its order, without the array.
  for (const key in source) {
    if (!Object.hasOwn(source, key)) continue;
    if (key === "__proto__") return NOT_PLAIN;
    const member = plainCopy(source[key], depth - 1);
    if (member === NOT_PLAIN) return NOT_PLAIN;
    out[key] = member;
  }
  return out;
}

/**
 * Whether `value` is plain JSON data ({@link plainKind}) the round trip would give back
 * unchanged, nested at most {@link PLAIN_DEPTH} levels, without a `__proto__` key. Such a value
 * can be used as it is where a copy would be equal to it: a run reads a fixture output and never
 * writes it. Allocates nothing.
 */
export function isPlainJson(value: unknown): boolean {
  return plainWalk(value, PLAIN_DEPTH);
}

function plainWalk(value: unknown, depth: number): boolean {
  const kind = plainKind(value, depth);
  if (kind === "leaf") return true;
  if (kind === "no") return false;
  if (kind === "array") {
    for (const item of value as readonly unknown[]) if (!plainWalk(item, depth - 1)) return false;
    return true;
  }
  const source = value as Readonly<Record<string, unknown>>;
  for (const key in source) {
    if (!Object.hasOwn(source, key)) continue;
    if (key === "__proto__" || !plainWalk(source[key], depth - 1)) return false;
  }
  return true;
}

/**
 * What `JSON.parse(JSON.stringify(value))` returns, at any depth: plain objects, arrays and
 * scalars only; `undefined` when the value itself has no JSON form. Plain data is copied
 * directly; anything else goes through the native functions, and only a value they cannot
 * handle (too deep, or too large for one string) takes the explicit stack.
 * @throws TypeError on a BigInt or a cycle, as JSON.stringify does.
 */
export function jsonCopy(value: unknown): unknown {
  try {
    const plain = plainCopy(value, PLAIN_DEPTH);
    if (plain !== NOT_PLAIN) return plain;
    // undefined for a value without a JSON form, whatever the declared return type says.
    const text = JSON.stringify(value) as string | undefined;
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  return stackCopy(value);
}

/** {@link jsonCopy} with an explicit stack. */
function stackCopy(value: unknown): unknown {
  const root = prepared(value, "");
  const first = form(root);
  if (first !== OPEN) return first === SKIP ? undefined : first;
  const active = new Set<object>();
  const frames: Frame[] = [open(root as object, active)];
  const result = frames[0]?.target;
  for (let frame = frames.at(-1); frame !== undefined; frame = frames.at(-1)) {
    const length = frame.keys?.length ?? (frame.source as readonly unknown[]).length;
    if (frame.index >= length) {
      frames.pop();
      active.delete(frame.source);
      continue;
    }
    const i = frame.index++;
    const key = frame.keys?.[i] ?? String(i);
    const child = prepared((frame.source as Readonly<Record<string, unknown>>)[key], key);
    let copy = form(child);
    if (copy === SKIP) {
      if (frame.keys !== undefined) continue;
      copy = null;
    } else if (copy === OPEN) {
      const next = open(child as object, active);
      frames.push(next);
      copy = next.target;
    }
    if (Array.isArray(frame.target)) frame.target.push(copy);
    else setMember(frame.target, key, copy);
  }
  return result;
}

/** The text of a tree `jsonCopy` returned (plain objects, arrays and JSON scalars). */
function treeText(tree: unknown): string {
  const out: string[] = [];
  // A string on the stack is literal text; a value to write is wrapped, so strings stay apart.
  const stack: (string | { readonly value: unknown })[] = [{ value: tree }];
  for (let task = stack.pop(); task !== undefined; task = stack.pop()) {
    if (typeof task === "string") {
      out.push(task);
      continue;
    }
    const value = task.value;
    if (typeof value !== "object" || value === null) {
      out.push(JSON.stringify(value));
      continue;
    }
    // Pushed in reverse, so that they pop in document order.
    if (Array.isArray(value)) {
      stack.push("]");
      for (let i = value.length - 1; i >= 0; i--) {
        stack.push({ value: value[i] as unknown });
        if (i > 0) stack.push(",");
      }
      stack.push("[");
      continue;
    }
    const entries: [string, unknown][] = Object.entries(value);
    stack.push("}");
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, member]: [string, unknown] = entries[i] ?? ["", null];
      stack.push({ value: member });
      stack.push((i > 0 ? "," : "") + JSON.stringify(key) + ":");
    }
    stack.push("{");
  }
  return out.join("");
}

/**
 * What `JSON.stringify(value)` returns, at any depth (`undefined` when the value has no JSON
 * form). The native serialiser runs first; only a value too deep for it takes the explicit stack.
 * @throws TypeError on a BigInt or a cycle.
 */
export function jsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  const tree = stackCopy(value);
  return tree === undefined ? undefined : treeText(tree);
}
