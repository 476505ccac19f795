/**
 * Literal OTLP/JSON spans for the reader's and checker's tests: a span as the collector writes it
 * (ints as strings, times in nanoseconds after {@link T0_NS}), a request holding spans, and a
 * conforming run of the research template (llm-1 → tool-2 → dec-3, ending when `is_complete`
 * holds) to seed one change into.
 */
import type { ApprovedModel, ConformanceReport, RunEvent } from "../../../src/conform/index.js";
import { createConformanceChecker } from "../../../src/conform/index.js";
import { otlpReader } from "../../../src/conform/read/otlp.js";
import type { AgentEdge, AgentWorkflow } from "../../../src/model/index.js";
import { research, search } from "../research.js";

/** The epoch nanoseconds every span's times count from (2026-01-01T00:00:00Z). */
export const T0_NS = 1_767_225_600_000n * 1_000_000n;

/** Nanoseconds `ms` after {@link T0_NS}, as the collector writes them (a decimal string). */
export const nanos = (ms: number): string => String(T0_NS + BigInt(ms) * 1_000_000n);

/** The same nanoseconds as protobufjs / the OpenTelemetry JS `toLongBits` write them. */
export function longBits(ms: number): { low: number; high: number } {
  const value = T0_NS + BigInt(ms) * 1_000_000n;
  return { low: Number(BigInt.asUintN(32, value)), high: Number(value >> 32n) };
}

/** The trace of every span here. */
export const TRACE = "0af7651916cd43dd8448eb211c80319c";

/** An attribute's `AnyValue`: text as `stringValue`, an integer as `intValue`, else `doubleValue`. */
const anyValue = (value: string | number): Record<string, unknown> =>
  typeof value === "string"
    ? { stringValue: value }
    : Number.isInteger(value)
      ? { intValue: value }
      : { doubleValue: value };

/** An OTLP/JSON span `ms` after T0; `extra` replaces any field (`startTimeUnixNano`, `status`). */
export function span(
  spanId: string,
  parent: string | undefined,
  ms: readonly [number, number],
  attrs: Readonly<Record<string, string | number>>,
  extra: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> {
  return {
    traceId: TRACE,
    spanId,
    ...(parent !== undefined ? { parentSpanId: parent } : {}),
    name: "s",
    kind: 1,
    startTimeUnixNano: nanos(ms[0]),
    endTimeUnixNano: nanos(ms[1]),
    attributes: Object.entries(attrs).map(([key, value]) => ({ key, value: anyValue(value) })),
    status: {},
    ...extra,
  };
}

/** A copy of a span without `key` (a time it does not record). */
export function without(
  raw: Readonly<Record<string, unknown>>,
  key: string,
): Record<string, unknown> {
  return Object.fromEntries(Object.entries(raw).filter(([k]) => k !== key));
}

/** An `ExportTraceServiceRequest` holding `spans`. */
export function request(...spans: readonly Record<string, unknown>[]): unknown {
  return { resourceSpans: [{ resource: {}, scopeSpans: [{ scope: { name: "t" }, spans }] }] };
}

/** Every event the OTLP reader gives for `values` (one record each). */
export function readOtlp(values: readonly unknown[]): RunEvent[] {
  const reader = otlpReader.create();
  const events = values.flatMap((value, index) => [
    ...reader.push({ value, index, line: index + 1, file: "runs.jsonl" }),
  ]);
  return [...events, ...reader.end()];
}

/** The research template, with `edges` added (delegate edges). */
export function researchWith(...edges: readonly AgentEdge[]): AgentWorkflow {
  return { ...research, edges: [...research.edges, ...edges] };
}

/** The research template as `agnt-verify@1.0.0`: the agent the tests delegate to. */
export const verify: AgentWorkflow = { ...research, id: "agnt-verify", version: "1.0.0" };

/** An approved model of the research workflow (`agnt-rsch@2.1.0`, as given) and agnt-verify. */
export function approvedOf(workflow: AgentWorkflow = research): ApprovedModel {
  const tools = new Map([["tool:browser-search@1.2.0", search("read", "automatic")]]);
  return {
    workflows: [
      { ref: "agnt-rsch@2.1.0", workflow, tools },
      { ref: "agnt-verify@1.0.0", workflow: verify, tools },
    ],
    processes: [],
  };
}

/** The events checked against `approved`, every run kept. */
export function check(approved: ApprovedModel, events: readonly RunEvent[]): ConformanceReport {
  const checker = createConformanceChecker(approved, { keepConforming: true });
  for (const event of events) checker.push(event);
  return checker.end();
}

/**
 * The spans of one conforming research run under invoke_agent span `agent` (a workflow, times
 * 0–100 ms after `at`): llm-1 at 10–20 (complete, with its tokens and cost), tool-2 at 30–40. Ids
 * are `agent` with its last
 * digit replaced by 1 and 2.
 */
export function researchRun(
  agent: string,
  workflow = "agnt-rsch@2.1.0",
  parent?: string,
  at = 0,
): { agent: Record<string, unknown>; llm: Record<string, unknown>; tool: Record<string, unknown> } {
  const id = (n: number): string => `${agent.slice(0, 15)}${String(n)}`;
  return {
    agent: span(agent, parent, [at, at + 100], {
      "gen_ai.operation.name": "invoke_agent",
      "agentflow.workflow": workflow,
    }),
    llm: span(id(1), agent, [at + 10, at + 20], {
      "gen_ai.operation.name": "chat",
      "agentflow.node.id": "llm-1",
      "gen_ai.request.model": "gpt-4o",
      "agentflow.node.output": '{"is_complete":true,"query":"q"}',
      // What the template's budget limits: a run that records neither is unverified.
      "gen_ai.usage.input_tokens": 80,
      "gen_ai.usage.output_tokens": 20,
      "agentflow.cost.USD": 0.01,
    }),
    tool: span(id(2), agent, [at + 30, at + 40], {
      "gen_ai.operation.name": "execute_tool",
      "agentflow.node.id": "tool-2",
      "gen_ai.tool.name": "tool:browser-search",
      "gen_ai.tool.call.arguments": '{"query":"q"}',
    }),
  };
}
