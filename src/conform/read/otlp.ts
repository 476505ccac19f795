/**
 * The reader of OpenTelemetry GenAI spans in OTLP/JSON, as the collector's `file` exporter writes
 * them (docs/conform/otlp.md). A span belongs to the run of its nearest `invoke_agent` ancestor.
 * Spans are exported as they end, children before parents — but a collector that groups a trace
 * (tail sampling) writes a whole trace on one line in any order, and another service's spans of
 * the same run may come a line later. So a run is read {@link RUN_GRACE} records after its
 * `invoke_agent` span arrives (or at the end of the file): its buffered spans are then ordered
 * by start time, turned into events and forgotten. What is held is the spans of runs still open, the ids of the spans of the
 * last {@link CLOSED_TRACES} traces read to their root (to name a late span's run), and spans
 * whose parent has not arrived.
 */
import type { RunEvent } from "../types.js";
import {
  delegateEvent,
  gateEvents,
  operationOf,
  roleOf,
  routeEvents,
  runEnd,
  runStart,
  unknownOf,
} from "./otlp-map.js";
import { foreignOperation, otherSpanReason } from "./otlp-foreign.js";
import { isSpan, spansOf, type Span } from "./otlp-span.js";
import { stepEvents } from "./otlp-step.js";
import { hold, newTrace, take, type Taken, type Trace } from "./otlp-trace.js";
import { nanosToMs } from "./otlp-value.js";
import { isObject } from "./shared.js";
import type { RecordReader, RunReader } from "./types.js";

/** The GenAI semantic conventions version the reader follows (Development status). */
export const OTLP_SEMCONV_VERSION = "1.41.0";

/** How many traces read to their root keep their span ids, to recognise late spans. */
export const CLOSED_TRACES = 256;

/**
 * Records read after a run's `invoke_agent` span before the run is read: its spans written on
 * the same line, or by other services a few lines later, still belong to it.
 */
export const RUN_GRACE = 64;

/**
 * Where a span sorts: its start; a span whose start cannot be read at its end, else first. Either
 * is a guess, which is why such a span's run is unverified (its `unread` says so).
 */
const sortKey = (span: Span): bigint => span.startNanos ?? span.endNanos ?? 0n;

function byStart(a: Taken, b: Taken): number {
  const ka = sortKey(a.span);
  const kb = sortKey(b.span);
  if (ka !== kb) return ka < kb ? -1 : 1;
  return a.span.seq - b.span.seq;
}

/**
 * Whether a span below a step is that step's own plumbing (the HTTP request a model client
 * makes): it records nothing of GenAI or agentflow, and declares no operation in another
 * convention — a tool, a model call or an agent recorded by OpenInference or OpenLLMetry under a
 * step is something the step ran, not part of it.
 */
function isPlumbing(span: Span): boolean {
  for (const key of span.attributes.values.keys()) {
    if (key.startsWith("agentflow.") || key.startsWith("gen_ai.")) return false;
  }
  return foreignOperation(span) === undefined;
}

/** The events of the spans of a run (not its `invoke_agent` span), in start order. */
function bodyEvents(taken: Taken[], run: string): RunEvent[] {
  const out: RunEvent[] = [];
  for (const { span, step, delegate } of taken.sort(byStart)) {
    const role = roleOf(span);
    if (delegate === true) out.push(delegateEvent(span, run, step));
    else if (role === "llm" || role === "tool") out.push(...stepEvents(span, role, run));
    else if (role === "route") out.push(...routeEvents(span, run));
    else if (step !== undefined && isPlumbing(span)) continue;
    else {
      const op = operationOf(span);
      const reason =
        op !== undefined
          ? `gen_ai.operation.name ${op} is not an llm or tool step of an agent workflow`
          : otherSpanReason(span);
      out.push(unknownOf(span, reason, run));
    }
  }
  return out;
}

/** A reason, with what the span declares itself in another convention when it does. */
function withForeign(span: Span, reason: string): string {
  const foreign = foreignOperation(span);
  return foreign === undefined ? reason : `${reason}; it ${foreign}`;
}

/** A reader over one file. */
function createOtlpRecordReader(): RecordReader {
  const traces = new Map<string, Trace>();
  const closedOrder: string[] = [];
  /** Runs whose `invoke_agent` span has arrived, in arrival order, with the record they are due. */
  const pending: { readonly trace: Trace; readonly agent: Span; readonly due: number }[] = [];
  let records = 0;
  let seq = 0;

  function traceOf(traceId: string): Trace {
    let trace = traces.get(traceId);
    if (trace === undefined) {
      trace = newTrace();
      traces.set(traceId, trace);
    }
    return trace;
  }

  function close(traceId: string, trace: Trace): void {
    if (trace.closed) return;
    trace.closed = true;
    closedOrder.push(traceId);
    if (closedOrder.length <= CLOSED_TRACES) return;
    const oldest = closedOrder.shift();
    const evicted = oldest === undefined ? undefined : traces.get(oldest);
    if (oldest === undefined || evicted === undefined) return;
    evicted.done.clear();
    if (evicted.spans.size === 0) traces.delete(oldest);
  }

  function flushRun(trace: Trace, agent: Span, out: RunEvent[]): void {
    const run = `${agent.traceId}/${agent.spanId}`;
    const taken = take(trace, agent, undefined);
    for (const { span, delegate } of taken) if (delegate !== true) trace.done.set(span.spanId, run);
    out.push(...runStart(agent, run), ...bodyEvents(taken.slice(1), run), runEnd(agent, run));
    delegated(trace, agent, run, out);
  }

  /**
   * A nested run was read: the run that called it is given the delegation when it is read. One
   * read already (this run's span came late) was read without it, which is said, never dropped.
   */
  function delegated(trace: Trace, agent: Span, run: string, out: RunEvent[]): void {
    const parent = agent.parentSpanId;
    if (parent === undefined || trace.called.delete(agent.spanId)) return;
    const caller = trace.done.get(parent);
    if (caller === undefined) {
      const list = trace.delegated.get(parent);
      if (list === undefined) trace.delegated.set(parent, [agent]);
      else list.push(agent);
    } else if (caller !== null) {
      const reason = `the delegate run ${run} arrived after the run that called it was read, so whether its workflow may delegate there was not checked`;
      out.push(unknownOf(agent, reason, caller));
    }
  }

  function flushUnrun(
    trace: Trace,
    root: Span,
    run: string | null,
    reason: string,
    out: RunEvent[],
  ): void {
    const taken = take(trace, root, undefined).sort(byStart);
    for (const { span, delegate } of taken) {
      if (delegate === true) continue;
      trace.done.set(span.spanId, run);
      out.push(unknownOf(span, withForeign(span, reason), run ?? undefined));
    }
  }

  function accept(span: Span, out: RunEvent[]): void {
    const trace = traceOf(span.traceId);
    if (trace.spans.has(span.spanId) || trace.done.has(span.spanId)) {
      const reason = `span ${span.spanId} of trace ${span.traceId} was already read`;
      out.push(unknownOf(span, reason, undefined, "ambiguous"));
      return;
    }
    const parent = span.parentSpanId;
    const parentRun = parent === undefined ? undefined : trace.done.get(parent);
    if (roleOf(span) === "gate") {
      // A person's decision belongs to the process instance, not to an agent's run.
      trace.done.set(span.spanId, null);
      out.push(...gateEvents(span));
      if (parent === undefined) close(span.traceId, trace);
      return;
    }
    if (roleOf(span) === "run") {
      hold(trace, span);
      pending.push({ trace, agent: span, due: records + RUN_GRACE });
      return;
    }
    if (parent === undefined) {
      const reason = "the span is outside any invoke_agent span, so it belongs to no agent run";
      flushUnrun(trace, span, null, reason, out);
    } else if (parentRun !== undefined) {
      const reason =
        parentRun === null
          ? "the span arrived after its trace's root, outside any invoke_agent span"
          : "the span arrived after its run's invoke_agent span, so the run was read without it";
      flushUnrun(trace, span, parentRun, reason, out);
    } else {
      hold(trace, span);
      return;
    }
    if (parent === undefined) close(span.traceId, trace);
  }

  /** Reads the runs due by record `upTo` (every pending run with `Infinity`), innermost first. */
  function flushDue(upTo: number, out: RunEvent[]): void {
    const due = pending.filter((p) => p.due <= upTo);
    if (due.length === 0) return;
    const left = pending.filter((p) => p.due > upTo);
    pending.length = 0;
    pending.push(...left);
    // A nested agent ends before the agent that called it: read it first, so that its spans are
    // its own and the caller's run is read without them.
    const end = (span: Span): bigint => span.endNanos ?? 0n;
    due.sort((a, b) => (end(a.agent) < end(b.agent) ? -1 : end(a.agent) > end(b.agent) ? 1 : 0));
    for (const { trace, agent } of due) {
      if (!trace.spans.has(agent.spanId)) continue;
      flushRun(trace, agent, out);
      if (agent.parentSpanId === undefined) close(agent.traceId, trace);
    }
  }

  /** Spans whose parent never arrived: an unfinished run when they hold steps, else unknown. */
  function leftovers(trace: Trace, out: RunEvent[]): void {
    const roots = [...trace.spans.values()].filter(
      (span) => span.parentSpanId !== undefined && !trace.spans.has(span.parentSpanId),
    );
    const groups = new Map<string, Taken[]>();
    for (const root of roots) {
      const parent = root.parentSpanId;
      if (parent === undefined) continue;
      const group = groups.get(parent) ?? [];
      group.push(...take(trace, root, undefined));
      groups.set(parent, group);
    }
    for (const [parent, group] of groups) {
      const run = `${group[0]?.span.traceId ?? ""}/${parent}`;
      const own = group.filter(({ delegate }) => delegate !== true);
      if (own.some(({ span }) => roleOf(span) !== "other")) {
        // The invoke_agent span never arrived: the run is read, with no run-end.
        const first = [...own].sort(byStart)[0];
        if (first === undefined) continue;
        const time = nanosToMs(first.span.startNanos);
        const start = { kind: "run-start", run, at: first.span.at } as const;
        out.push(time !== undefined ? { ...start, time } : start, ...bodyEvents(group, run));
      } else {
        const reason = `the span's parent ${parent} never arrived, so it belongs to no agent run read`;
        for (const { span } of own.sort(byStart)) {
          out.push(unknownOf(span, withForeign(span, reason), undefined));
        }
      }
    }
    for (const span of trace.spans.values()) {
      out.push(unknownOf(span, "the span's parent chain is a cycle", undefined));
    }
    trace.spans.clear();
    trace.children.clear();
  }

  return {
    push(record) {
      const items = spansOf(record, seq);
      seq += items.length;
      const out: RunEvent[] = [];
      for (const item of items) {
        if (isSpan(item)) accept(item, out);
        else out.push({ kind: "unknown", reason: item.reason, class: "unknown", at: item.at });
      }
      flushDue(records, out);
      records++;
      return out;
    },
    end() {
      const out: RunEvent[] = [];
      flushDue(Infinity, out);
      for (const trace of traces.values()) leftovers(trace, out);
      traces.clear();
      closedOrder.length = 0;
      return out;
    },
  };
}

/** OpenTelemetry GenAI spans in OTLP/JSON (the collector's `file` exporter), source `otlp`. */
export const otlpReader: RunReader = {
  source: "otlp",
  schemaVersion: OTLP_SEMCONV_VERSION,
  sniff: (value) => isObject(value) && Array.isArray(value.resourceSpans),
  create: createOtlpRecordReader,
};
