/**
 * OTLP/JSON values into plain JSON values: an attribute's `AnyValue` (`stringValue`, `intValue`
 * as a string or a number, `doubleValue`, `boolValue`, `bytesValue`, `arrayValue`,
 * `kvlistValue`), span times in nanoseconds, and the JSON text GenAI attributes may hold. The
 * collector writes 64-bit integers as strings, the JavaScript SDK as numbers: both are read.
 */
import type { RecordedObject } from "../types.js";
import { isObject } from "./shared.js";

/** A 64-bit integer as OTLP/JSON writes it (a decimal string or a number), or `undefined`. */
export function readInt(value: unknown): bigint | undefined {
  if (typeof value === "number") return Number.isSafeInteger(value) ? BigInt(value) : undefined;
  if (typeof value === "string" && /^-?[0-9]{1,20}$/.test(value)) return BigInt(value);
  return undefined;
}

const INT32_MIN = -(2 ** 31);
const UINT32_END = 2 ** 32;
const LONG_KEYS: ReadonlySet<string> = new Set(["low", "high", "unsigned"]);

const isWord = (value: unknown): value is number =>
  typeof value === "number" && Number.isInteger(value) && value >= INT32_MIN && value < UINT32_END;

/**
 * A 64-bit integer written as its two 32-bit halves, `{low, high}` (with protobufjs's
 * `unsigned`): how protobufjs's `Long` and the OpenTelemetry JS `toLongBits` serialise one. Each
 * half is read as the 32 bits it holds, signed or not; `unsigned: false` with the sign bit set is
 * a negative number. `undefined` when the object is not exactly that.
 */
function readLongBits(value: Readonly<Record<string, unknown>>): bigint | undefined {
  if (!Object.keys(value).every((key) => LONG_KEYS.has(key))) return undefined;
  const { low, high, unsigned } = value;
  if (!isWord(low) || !isWord(high)) return undefined;
  if (unsigned !== undefined && typeof unsigned !== "boolean") return undefined;
  const bits = (BigInt(high >>> 0) << 32n) | BigInt(low >>> 0);
  return unsigned === false ? BigInt.asIntN(64, bits) : bits;
}

const clip = (text: string): string => (text.length > 40 ? `${text.slice(0, 40)}…` : text);

/**
 * A span's time (`startTimeUnixNano`, `endTimeUnixNano`: nanoseconds since the epoch, which OTLP
 * calls semantically required) as recorded, or what it holds instead. Read: a decimal string (the
 * collector), a safe integer, and `{low, high}` — an exact encoding of the same 64 bits (older
 * JavaScript exporters), so reading it guesses nothing. Not read: an absent time, 0 (proto3's
 * default, "unset"), a negative one, a number past 2^53 (JSON parsing has already rounded its
 * nanoseconds), and text that is no integer (an ISO date).
 */
export function readTime(value: unknown): bigint | string {
  if (value === undefined || value === null) return "is absent";
  let nanos: bigint | undefined;
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) {
      return Number.isInteger(value)
        ? `is the number ${String(value)}, past 2^53: its nanoseconds were rounded`
        : `is the number ${String(value)}, not an integer`;
    }
    nanos = BigInt(value);
  } else if (typeof value === "string") {
    nanos = readInt(value);
    if (nanos === undefined) return `is the text "${clip(value)}", not an integer`;
  } else if (isObject(value)) {
    nanos = readLongBits(value);
    if (nanos === undefined) return "is an object that is not a {low, high} 64-bit integer";
  } else return Array.isArray(value) ? "is a list" : `is a ${typeof value}`;
  if (nanos === 0n) return "is 0 (unset)";
  return nanos < 0n ? `is negative (${String(nanos)})` : nanos;
}

/** Nanoseconds since the epoch into milliseconds (floored); `undefined` for 0 (OTLP's "unset"). */
export function nanosToMs(nanos: bigint | undefined): number | undefined {
  if (nanos === undefined || nanos <= 0n) return undefined;
  return Number(nanos / 1_000_000n);
}

/** One pending container of the iterative decoder: its source entries and what it fills. */
interface Frame {
  readonly entries: readonly unknown[];
  readonly keyed: boolean;
  readonly out: unknown[] | Record<string, unknown>;
  next: number;
}

/** Why an `AnyValue` could not be decoded. */
const BAD: unique symbol = Symbol("bad AnyValue");

/** A scalar `AnyValue`, or the container to fill for `arrayValue` / `kvlistValue`. */
function scalarOrContainer(value: unknown): unknown {
  if (!isObject(value)) return BAD;
  if (typeof value.stringValue === "string") return value.stringValue;
  if (typeof value.boolValue === "boolean") return value.boolValue;
  if ("intValue" in value) {
    const int = readInt(value.intValue);
    return int === undefined ? BAD : Number(int);
  }
  if ("doubleValue" in value) {
    const double = value.doubleValue;
    if (typeof double === "number") return double;
    return typeof double === "string" && double.trim() !== "" ? Number(double) : BAD;
  }
  if (typeof value.bytesValue === "string") return value.bytesValue;
  if (isObject(value.arrayValue)) {
    const values = value.arrayValue.values ?? [];
    return Array.isArray(values) ? { entries: values, keyed: false, out: [], next: 0 } : BAD;
  }
  if (isObject(value.kvlistValue)) {
    const values = value.kvlistValue.values ?? [];
    return Array.isArray(values) ? { entries: values, keyed: true, out: {}, next: 0 } : BAD;
  }
  // An empty AnyValue is OTLP's "no value".
  return Object.keys(value).length === 0 ? null : BAD;
}

function isFrame(value: unknown): value is Frame {
  return isObject(value) && "entries" in value && "keyed" in value;
}

/** Puts `item` into a frame's output under the entry's key (kvlist) or at the end (array). */
function place(frame: Frame, key: string, item: unknown): void {
  if (frame.keyed) {
    // defineProperty: a recorded key `__proto__` must stay a key, not change the prototype.
    Object.defineProperty(frame.out, key, {
      value: item,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else (frame.out as unknown[]).push(item);
}

/**
 * An `AnyValue` as a JSON value, or `undefined` when it is not one. Iterative: the nesting of
 * `arrayValue` and `kvlistValue` is the input's to choose, the stack is not.
 */
export function decodeAnyValue(value: unknown): unknown {
  const first = scalarOrContainer(value);
  if (first === BAD) return undefined;
  if (!isFrame(first)) return first;
  const stack: Frame[] = [first];
  for (let frame = stack.at(-1); frame !== undefined; frame = stack.at(-1)) {
    if (frame.next >= frame.entries.length) {
      stack.pop();
      continue;
    }
    const entry = frame.entries[frame.next];
    frame.next += 1;
    let key = "";
    let raw: unknown = entry;
    if (frame.keyed) {
      if (!isObject(entry) || typeof entry.key !== "string") return undefined;
      key = entry.key;
      raw = entry.value ?? {};
    }
    const item = scalarOrContainer(raw);
    if (item === BAD) return undefined;
    if (isFrame(item)) {
      place(frame, key, item.out);
      stack.push(item);
    } else place(frame, key, item);
  }
  return first.out;
}

/** A span's attributes by key; `duplicates` names keys recorded more than once. */
export interface Attributes {
  readonly values: ReadonlyMap<string, unknown>;
  readonly duplicates: ReadonlySet<string>;
  /** Keys whose value is not an `AnyValue`. */
  readonly invalid: ReadonlySet<string>;
}

/** A `[{key, value}]` list into {@link Attributes}; entries without a string key are invalid. */
export function readAttributes(list: unknown): Attributes {
  const values = new Map<string, unknown>();
  const duplicates = new Set<string>();
  const invalid = new Set<string>();
  const entries = Array.isArray(list) ? (list as readonly unknown[]) : [];
  for (const entry of entries) {
    if (!isObject(entry) || typeof entry.key !== "string") continue;
    if (values.has(entry.key) || invalid.has(entry.key)) duplicates.add(entry.key);
    const decoded = decodeAnyValue(entry.value ?? {});
    if (decoded === undefined) invalid.add(entry.key);
    else values.set(entry.key, decoded);
  }
  return { values, duplicates, invalid };
}

/** JSON text or an already structured value, as the GenAI conventions allow for `any` attributes. */
export function structured(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

/** An attribute that must be a JSON object (structured, or JSON text of one), or `undefined`. */
export function objectOf(value: unknown): RecordedObject | undefined {
  const parsed = structured(value);
  return isObject(parsed) ? parsed : undefined;
}

/** A string attribute, or `undefined`. */
export function stringOf(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A finite number attribute, or `undefined`. */
export function numberOf(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
