/**
 * One trace's spans while its runs are open: held under their parents until a run is read, then
 * taken out with the spans below them. A nested `invoke_agent` span is a run of its own (a
 * delegate) and is never taken into its caller's run: the caller's run is given the delegation
 * instead, with the step it ran under, so that the caller's workflow can be asked whether it may
 * delegate there.
 */
import { roleOf } from "./otlp-map.js";
import type { Span } from "./otlp-span.js";

/** A trace's spans while some are open, and the runs its read spans went to (`null`: none). */
export interface Trace {
  readonly spans: Map<string, Span>;
  readonly children: Map<string, Span[]>;
  readonly done: Map<string, string | null>;
  /**
   * Nested `invoke_agent` spans whose own run was read before the span that called them, by that
   * span's id: the caller's run is given each delegation when it is read.
   */
  readonly delegated: Map<string, Span[]>;
  /** Nested `invoke_agent` spans whose delegation their caller's run was already given. */
  readonly called: Set<string>;
  closed: boolean;
}

/**
 * A span taken from the buffer, with the nearest llm or tool span at or above it in its run (a
 * span under a step is part of that step). `delegate`: the span is a nested `invoke_agent`, which
 * its caller's run reads as a delegation, not as one of its spans.
 */
export interface Taken {
  readonly span: Span;
  readonly step: Span | undefined;
  readonly delegate?: true;
}

/** An empty trace. */
export function newTrace(): Trace {
  return {
    spans: new Map(),
    children: new Map(),
    done: new Map(),
    delegated: new Map(),
    called: new Set(),
    closed: false,
  };
}

/** Buffers a span under its parent until its run is read. */
export function hold(trace: Trace, span: Span): void {
  trace.spans.set(span.spanId, span);
  const parent = span.parentSpanId;
  if (parent === undefined) return;
  const siblings = trace.children.get(parent);
  if (siblings === undefined) trace.children.set(parent, [span]);
  else siblings.push(span);
}

const isStep = (span: Span): boolean => roleOf(span) === "llm" || roleOf(span) === "tool";

/**
 * Removes `root` and its buffered descendants from the trace, breadth first. A nested
 * `invoke_agent` below them stays (its run is read on its own) and is returned as a delegation,
 * as is each one read earlier under a span taken here.
 */
export function take(trace: Trace, root: Span, rootStep: Span | undefined): Taken[] {
  const parent = root.parentSpanId;
  const siblings = parent === undefined ? undefined : trace.children.get(parent);
  if (siblings !== undefined && parent !== undefined) {
    const rest = siblings.filter((span) => span !== root);
    if (rest.length === 0) trace.children.delete(parent);
    else trace.children.set(parent, rest);
  }
  trace.spans.delete(root.spanId);
  const out: Taken[] = [{ span: root, step: rootStep }];
  // The loop reaches the children it appends: one pass, breadth first.
  for (const { span, step, delegate } of out) {
    if (delegate === true) continue;
    const below = isStep(span) ? span : step;
    for (const agent of trace.delegated.get(span.spanId) ?? []) {
      out.push({ span: agent, step: below, delegate: true });
    }
    trace.delegated.delete(span.spanId);
    const kept: Span[] = [];
    for (const child of trace.children.get(span.spanId) ?? []) {
      if (roleOf(child) === "run") {
        kept.push(child);
        trace.called.add(child.spanId);
        out.push({ span: child, step: below, delegate: true });
        continue;
      }
      trace.spans.delete(child.spanId);
      out.push({ span: child, step: below });
    }
    if (kept.length > 0) trace.children.set(span.spanId, kept);
    else trace.children.delete(span.spanId);
  }
  return out;
}
