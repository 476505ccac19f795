/**
 * What one GenAI span means (semantic conventions v1.41.0, Development status): an
 * `invoke_agent` span is a run (its start and end), `chat` / `text_completion` /
 * `generate_content` an llm step, `execute_tool` a tool step, a span with
 * `agentflow.route.*` a decision the run recorded. The mapping table is docs/conform/otlp.md.
 */
import type { DelegateEvent, DelegatingStep, RunEvent, UnknownEvent } from "../types.js";
import { atTime, type Span } from "./otlp-span.js";
import { nanosToMs, stringOf } from "./otlp-value.js";
import { notText } from "./shared.js";

/** The `gen_ai.operation.name` values that are model calls (llm steps). */
const LLM_OPERATIONS: ReadonlySet<string> = new Set([
  "chat",
  "text_completion",
  "generate_content",
]);

/** What a span is to a run; `gate` is a human approval, which belongs to a process instance. */
export type SpanRole = "run" | "llm" | "tool" | "route" | "gate" | "other";

const OP = "gen_ai.operation.name";
/** The agentflow attribute naming the node a span executed. */
export const NODE = "agentflow.node.id";
const ROUTE_LABEL = "agentflow.route.label";
const ROUTE_NEXT = "agentflow.route.next";
/** The agentflow attribute naming the BPMN gate a span records the completion of. */
const GATE = "agentflow.gate.element";

/** The span's `gen_ai.operation.name`, when it has one. */
export function operationOf(span: Span): string | undefined {
  return stringOf(span.attributes.values.get(OP));
}

/** The span's role: by its operation, else by the agentflow route attributes. */
export function roleOf(span: Span): SpanRole {
  const op = operationOf(span);
  if (op === "invoke_agent") return "run";
  if (op === "execute_tool") return "tool";
  if (op !== undefined && LLM_OPERATIONS.has(op)) return "llm";
  const values = span.attributes.values;
  if (op === undefined && values.has(GATE)) return "gate";
  if (op === undefined && (values.has(ROUTE_LABEL) || values.has(ROUTE_NEXT))) return "route";
  return "other";
}

/** An `unknown` event for `span`. */
export function unknownOf(
  span: Span,
  reason: string,
  run: string | undefined,
  kind: "unknown" | "ambiguous" = "unknown",
): UnknownEvent {
  return run === undefined
    ? { kind: "unknown", reason, class: kind, at: span.at }
    : { kind: "unknown", run, reason, class: kind, at: span.at };
}

/**
 * What of the span's own fields cannot be read (a time absent or unreadable, a status that is no
 * OTLP status), each a record not read of `run`: the span is read without it, never with a
 * guessed value passed as recorded.
 */
export function unreadOf(span: Span, run: string | undefined): UnknownEvent[] {
  return span.unread.map((why) => unknownOf(span, `the span's ${why}`, run));
}

/**
 * A text attribute that names something a check compares (a tool, a model, a prompt, a workflow,
 * a node): its text, or `undefined` when the span does not record it. Recorded as anything but
 * non-empty text (a list, a kvlist, a number, `""`), it is not taken for absent: an unknown event
 * in `out` says it could not be read, and `undefined` is returned.
 */
export function textAttribute(
  span: Span,
  key: string,
  run: string | undefined,
  out: RunEvent[],
): string | undefined {
  const values = span.attributes.values;
  if (!values.has(key)) return undefined;
  const value = values.get(key);
  const why = notText(value);
  if (why === undefined) return value as string;
  out.push(unknownOf(span, `attribute ${key} ${why}`, run));
  return undefined;
}

/** The first read attribute that is recorded twice or is not an `AnyValue`, as an unknown event. */
export function attributeProblem(span: Span, run: string | undefined): UnknownEvent | undefined {
  const { duplicates, invalid } = span.attributes;
  for (const key of duplicates) {
    if (key.startsWith("gen_ai.") || key.startsWith("agentflow.")) {
      return unknownOf(span, `attribute ${key} is recorded more than once`, run, "ambiguous");
    }
  }
  for (const key of invalid) {
    if (key.startsWith("gen_ai.") || key.startsWith("agentflow.")) {
      return unknownOf(span, `attribute ${key} does not hold an OTLP AnyValue`, run);
    }
  }
  return undefined;
}

/**
 * The run's workflow: `agentflow.workflow`, else `gen_ai.agent.id@gen_ai.agent.version`; what of
 * them is recorded and unreadable goes to `out`.
 */
function workflowOf(span: Span, run: string, out: RunEvent[]): string | undefined {
  const values = span.attributes.values;
  const own = textAttribute(span, "agentflow.workflow", run, out);
  if (own !== undefined) return own;
  const id = textAttribute(span, "gen_ai.agent.id", run, out);
  const version = textAttribute(span, "gen_ai.agent.version", run, out);
  if (id !== undefined && version !== undefined) return `${id}@${version}`;
  // A version recorded and unreadable was said above; one not recorded at all is said here.
  if (id !== undefined && !values.has("gen_ai.agent.version")) {
    const reason = `the run names agent ${id} without gen_ai.agent.version, so its workflow version is not known`;
    out.push(unknownOf(span, reason, run, "ambiguous"));
  }
  return undefined;
}

/** A process instance key as a string (the key is a 64-bit integer or a string). */
function keyOf(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  return stringOf(value);
}

/** The process instance key attribute; recorded and no key, it goes to `out` as unreadable. */
function keyAttribute(span: Span, key: string, run: string, out: RunEvent[]): string | undefined {
  const values = span.attributes.values;
  if (!values.has(key)) return undefined;
  const read = keyOf(values.get(key));
  if (read === undefined) {
    const reason = `attribute ${key} is neither an integer nor non-empty text`;
    out.push(unknownOf(span, reason, run));
  }
  return read;
}

/** `run-start` for an `invoke_agent` span, preceded by what in it cannot be read. */
export function runStart(span: Span, run: string): RunEvent[] {
  const out: RunEvent[] = [];
  const problem = attributeProblem(span, run);
  if (problem !== undefined) out.push(problem);
  const workflow = workflowOf(span, run, out);
  const instance = keyAttribute(span, "agentflow.process.instance", run, out);
  const element = textAttribute(span, "agentflow.bpmn.element", run, out);
  const processId = textAttribute(span, "agentflow.bpmn.process", run, out);
  out.push(...unreadOf(span, run));
  const time = nanosToMs(span.startNanos);
  out.unshift({
    kind: "run-start",
    run,
    ...(workflow !== undefined ? { workflow } : {}),
    ...(time !== undefined ? { time } : {}),
    ...(instance !== undefined
      ? {
          process: {
            instance,
            ...(element !== undefined ? { element } : {}),
            ...(processId !== undefined ? { process: processId } : {}),
          },
        }
      : {}),
    at: span.at,
  });
  return out;
}

/** `run-end` for an `invoke_agent` span: `failed` when its status is ERROR or it has `error.type`. */
export function runEnd(span: Span, run: string): RunEvent {
  const time = nanosToMs(span.endNanos);
  return {
    kind: "run-end",
    run,
    status: failed(span) ? "failed" : "completed",
    ...(time !== undefined ? { time } : {}),
    at: atTime(span.at, span.endNanos),
  };
}

/** The span failed: its status is ERROR or it records an `error.type`. */
export function failed(span: Span): boolean {
  return span.error || stringOf(span.attributes.values.get("error.type")) !== undefined;
}

/** The events of a route span: the decision it records, by `agentflow.node.id`. */
export function routeEvents(span: Span, run: string): RunEvent[] {
  const problem = attributeProblem(span, run);
  if (problem !== undefined) return [problem, ...unreadOf(span, run)];
  const out: RunEvent[] = unreadOf(span, run);
  const node = textAttribute(span, NODE, run, out);
  const route = textAttribute(span, ROUTE_LABEL, run, out);
  const next = textAttribute(span, ROUTE_NEXT, run, out);
  if (node === undefined) {
    if (span.attributes.values.has(NODE)) return out;
    const reason = "a span records a route but names no decision (agentflow.node.id)";
    return [...out, unknownOf(span, reason, run)];
  }
  return [
    {
      kind: "route",
      run,
      node,
      ...(route !== undefined ? { route } : {}),
      ...(next !== undefined ? { next } : {}),
      at: span.at,
    },
    ...out,
  ];
}

/**
 * The element event of a gate span: the GenAI conventions have no attribute for a human
 * approval, so agentflow's own say which gate (`agentflow.gate.element`) of which process
 * instance (`agentflow.process.instance`, `agentflow.bpmn.process`) was decided: completed, or
 * (status ERROR) not passed. A status that cannot be read passes no gate; it and a time that
 * cannot be read are records not read beside the event.
 */
export function gateEvents(span: Span): RunEvent[] {
  return [gateEvent(span), ...unreadOf(span, undefined)];
}

function gateEvent(span: Span): RunEvent {
  const values = span.attributes.values;
  const element = stringOf(values.get(GATE));
  const instance = keyOf(values.get("agentflow.process.instance"));
  const process = stringOf(values.get("agentflow.bpmn.process"));
  if (element === undefined || instance === undefined || process === undefined) {
    const reason =
      "a gate span needs agentflow.gate.element, agentflow.process.instance and agentflow.bpmn.process (strings)";
    return unknownOf(span, reason, undefined);
  }
  const time = nanosToMs(span.endNanos);
  return {
    kind: "element",
    instance,
    process,
    element,
    elementType: "GATE",
    state: span.error || span.statusUnread ? "terminated" : "completed",
    ...(time === undefined ? {} : { time }),
    at: atTime(span.at, span.endNanos),
  };
}

/**
 * The delegation a nested `invoke_agent` span records for the run that called it: the delegate's
 * run and workflow (its own events say what of its workflow cannot be read), and the step it ran
 * under, by the node or tool that step names.
 */
export function delegateEvent(agent: Span, run: string, step: Span | undefined): DelegateEvent {
  const delegate = `${agent.traceId}/${agent.spanId}`;
  // The delegate's own run-start reports what of these cannot be read; here they are only asked.
  const quiet: RunEvent[] = [];
  const workflow = workflowOf(agent, delegate, quiet);
  const role = step === undefined ? undefined : roleOf(step);
  let by: DelegatingStep | undefined;
  if (step !== undefined && (role === "llm" || role === "tool")) {
    const node = textAttribute(step, NODE, run, quiet);
    const tool = role === "tool" ? textAttribute(step, "gen_ai.tool.name", run, quiet) : undefined;
    by = {
      nodeType: role,
      ...(node === undefined ? {} : { node }),
      ...(tool === undefined ? {} : { tool }),
    };
  }
  return {
    kind: "delegate",
    run,
    delegate,
    ...(workflow === undefined ? {} : { workflow }),
    ...(by === undefined ? {} : { step: by }),
    at: agent.at,
  };
}
