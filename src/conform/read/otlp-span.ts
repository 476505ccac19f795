/**
 * One OTLP/JSON `ExportTraceServiceRequest` (a line of the collector's `file` exporter) into its
 * spans: `resourceSpans[].scopeSpans[].spans[]`, each with hex ids (either case; lower case
 * kept), times in nanoseconds, decoded attributes and whether its status is ERROR. What is not a
 * span is a problem with a reason, for an `unknown` event.
 */
import type { EventAt } from "../types.js";
import type { SourceRecord } from "./types.js";
import { nanosToMs, readAttributes, readTime, type Attributes } from "./otlp-value.js";
import { isObject } from "./shared.js";

/** A span as the reader keeps it while its run is open. */
export interface Span {
  readonly traceId: string;
  readonly spanId: string;
  /** The parent's span id; `undefined` for a trace's root span. */
  readonly parentSpanId: string | undefined;
  readonly name: string;
  /**
   * Start and end in nanoseconds since the epoch, for exact ordering; `undefined` when the span
   * does not record the time readably (then {@link Span.unread} says why).
   */
  readonly startNanos: bigint | undefined;
  readonly endNanos: bigint | undefined;
  readonly attributes: Attributes;
  /** `status.code` is ERROR (2, or the enum name). */
  readonly error: boolean;
  /**
   * What the span records and cannot be read: a time that is absent or unreadable (OTLP calls
   * both semantically required), a status that is no OTLP status. Each names the field and what
   * it holds; the span is still read, and its run is unverified.
   */
  readonly unread: readonly string[];
  /** The status is recorded and is no OTLP status (one of {@link Span.unread}). */
  readonly statusUnread: boolean;
  /** Arrival order in the file: breaks ties of equal start times. */
  readonly seq: number;
  /** Where the span is: its record, line and ids (its time is set per event). */
  readonly at: EventAt;
}

/** Something in a record that is not a span. */
export interface SpanProblem {
  readonly reason: string;
  readonly at: EventAt;
}

const TRACE_ID = /^[0-9a-fA-F]{32}$/;
const SPAN_ID = /^[0-9a-fA-F]{16}$/;
const ZERO = /^0+$/;

function where(record: SourceRecord, ids?: Readonly<Record<string, string>>): EventAt {
  return {
    index: record.index,
    ...(record.file !== undefined ? { file: record.file } : {}),
    ...(record.line !== undefined ? { line: record.line } : {}),
    ...(ids !== undefined ? { ids } : {}),
  };
}

/** A hex id in lower case, or `undefined` when it is not `pattern` or is all zeros (invalid). */
function hexId(value: unknown, pattern: RegExp): string | undefined {
  return typeof value === "string" && pattern.test(value) && !ZERO.test(value)
    ? value.toLowerCase()
    : undefined;
}

/** A recorded value as a reason names it: short text quoted, a number as written, else its kind. */
function shown(value: unknown): string {
  if (typeof value === "string") return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return "a list";
  return isObject(value) ? "an object" : `a ${typeof value}`;
}

/** OTLP's status codes (UNSET, OK, ERROR) as proto3 JSON writes them, by whether each is ERROR. */
const STATUS_CODES: ReadonlyMap<unknown, boolean> = new Map<unknown, boolean>([
  [0, false],
  [1, false],
  [2, true],
  // The same integers as decimal text, as 64-bit integers are written: the reader took "2" before.
  ["0", false],
  ["1", false],
  ["2", true],
  ["STATUS_CODE_UNSET", false],
  ["STATUS_CODE_OK", false],
  ["STATUS_CODE_ERROR", true],
]);

/**
 * The span's status: ERROR or not, or what it holds instead of an OTLP `Status`. Absent (or
 * `null`, proto3 JSON's "not set") is UNSET, as is an absent `code`; any other value of `code`
 * (`"ERROR"`, 3, a list) or a status that is no object is not read as UNSET or OK — a failure
 * recorded in a spelling the reader does not know would otherwise pass as a success.
 */
function statusOf(status: unknown): "error" | "other" | { readonly unread: string } {
  if (status === undefined || status === null) return "other";
  if (!isObject(status)) return { unread: `status is ${shown(status)}, not an OTLP Status object` };
  const code = status.code;
  if (code === undefined || code === null) return "other";
  const error = STATUS_CODES.get(code);
  if (error !== undefined) return error ? "error" : "other";
  return {
    unread: `status.code is ${shown(code)}, which is no OTLP status code (0, 1, 2, STATUS_CODE_UNSET, STATUS_CODE_OK or STATUS_CODE_ERROR)`,
  };
}

/** What of the span's times cannot be read, each naming its field. */
function timeProblems(start: bigint | string, end: bigint | string): string[] {
  const out: string[] = [];
  if (typeof start === "string") out.push(`startTimeUnixNano ${start}`);
  if (typeof end === "string") out.push(`endTimeUnixNano ${end}`);
  if (typeof start === "bigint" && typeof end === "bigint" && end < start) {
    out.push("endTimeUnixNano is before startTimeUnixNano");
  }
  return out;
}

/** The items of `value[key]` when it is an array; `undefined` when present and not one. */
function listOf(
  value: Readonly<Record<string, unknown>>,
  key: string,
): readonly unknown[] | undefined {
  const list = value[key];
  if (list === undefined || list === null) return [];
  return Array.isArray(list) ? (list as readonly unknown[]) : undefined;
}

/** One span object, or a problem saying why it is not one. */
function readSpan(raw: unknown, record: SourceRecord, seq: number): Span | SpanProblem {
  if (!isObject(raw)) return { reason: "a span is not a JSON object", at: where(record) };
  const traceId = hexId(raw.traceId, TRACE_ID);
  const spanId = hexId(raw.spanId, SPAN_ID);
  const ids: Record<string, string> = {};
  if (typeof raw.traceId === "string") ids.traceId = traceId ?? raw.traceId;
  if (typeof raw.spanId === "string") ids.spanId = spanId ?? raw.spanId;
  if (traceId === undefined || spanId === undefined) {
    return {
      reason: "the span has no valid traceId (32 hex digits) and spanId (16 hex digits)",
      at: where(record, ids),
    };
  }
  const parentRaw = raw.parentSpanId;
  const parentSpanId =
    parentRaw === undefined || parentRaw === null || parentRaw === ""
      ? undefined
      : hexId(parentRaw, SPAN_ID);
  if (
    parentSpanId === undefined &&
    parentRaw !== undefined &&
    parentRaw !== null &&
    parentRaw !== ""
  ) {
    return { reason: "the span's parentSpanId is not 16 hex digits", at: where(record, ids) };
  }
  if (parentSpanId !== undefined) ids.parentSpanId = parentSpanId;
  const start = readTime(raw.startTimeUnixNano);
  const end = readTime(raw.endTimeUnixNano);
  const startNanos = typeof start === "bigint" ? start : undefined;
  const startMs = nanosToMs(startNanos);
  const status = statusOf(raw.status);
  const unread = timeProblems(start, end);
  if (typeof status === "object") unread.push(status.unread);
  return {
    traceId,
    spanId,
    parentSpanId,
    name: typeof raw.name === "string" ? raw.name : "",
    startNanos,
    endNanos: typeof end === "bigint" ? end : undefined,
    attributes: readAttributes(raw.attributes),
    error: status === "error",
    unread,
    statusUnread: typeof status === "object",
    seq,
    at: {
      ...where(record, ids),
      ...(startMs !== undefined ? { time: new Date(startMs).toISOString() } : {}),
    },
  };
}

/** The spans of a record in file order, and what in it is not a span. */
export function spansOf(record: SourceRecord, firstSeq: number): (Span | SpanProblem)[] {
  const out: (Span | SpanProblem)[] = [];
  const value = record.value;
  const resourceSpans = isObject(value) ? listOf(value, "resourceSpans") : undefined;
  if (resourceSpans === undefined || !isObject(value) || !("resourceSpans" in value)) {
    return [
      {
        reason: "the record is not an OTLP/JSON ExportTraceServiceRequest (no resourceSpans array)",
        at: where(record),
      },
    ];
  }
  for (const resource of resourceSpans) {
    const scopes = isObject(resource) ? listOf(resource, "scopeSpans") : undefined;
    if (scopes === undefined) {
      out.push({ reason: "a resourceSpans entry has no scopeSpans array", at: where(record) });
      continue;
    }
    for (const scope of scopes) {
      const spans = isObject(scope) ? listOf(scope, "spans") : undefined;
      if (spans === undefined) {
        out.push({ reason: "a scopeSpans entry has no spans array", at: where(record) });
        continue;
      }
      for (const raw of spans) out.push(readSpan(raw, record, firstSeq + out.length));
    }
  }
  return out;
}

/** True when `item` is a span, not a problem. */
export function isSpan(item: Span | SpanProblem): item is Span {
  return "spanId" in item;
}

/** `at` with the time set to `nanos` (when set): a run's end points at its span's end time. */
export function atTime(at: EventAt, nanos: bigint | undefined): EventAt {
  const ms = nanosToMs(nanos);
  return ms === undefined ? at : { ...at, time: new Date(ms).toISOString() };
}
