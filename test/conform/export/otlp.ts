/**
 * A simulated run as OpenTelemetry GenAI spans in OTLP/JSON, written by the OpenTelemetry JS SDK
 * itself (BasicTracerProvider, InMemorySpanExporter, then the OTLP JSON serializer): one line, an
 * ExportTraceServiceRequest, as the collector's file exporter writes a batch. Standard attributes
 * first (semantic conventions v1.41.0); agentflow.* only where they have none: the node id and a
 * decision's route. Times are `Date`s: the SDK reads a small number as a
 * `performance.now()` offset, not as epoch milliseconds. The SDK keeps no structured attribute values, so arguments, results and
 * output messages are JSON text, which the conventions allow.
 */
import { context, SpanKind, SpanStatusCode, trace, type Attributes } from "@opentelemetry/api";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type IdGenerator,
} from "@opentelemetry/sdk-trace-base";
import { parseRef, sha256, type AgentNode, type AgentWorkflow } from "../../../src/model/index.js";
import type { SimulationState, TransitionRecord } from "../../../src/simulate/index.js";
import { CALL_TOKENS, costKeys } from "./usage.js";

/** Ids derived from the run id, so that the same run gives the same file. */
function idsFor(run: string): IdGenerator {
  let next = 0;
  return {
    generateTraceId: () => sha256(`trace:${run}`).slice(0, 32),
    generateSpanId: () => sha256(`span:${run}#${String((next += 1))}`).slice(0, 16),
  };
}

/** The contract id a tool node uses (`gen_ai.tool.name`), or its ref as written. */
function toolName(usesTool: string): string {
  const parsed = parseRef(usesTool);
  return parsed.ok ? parsed.ref.id : usesTool;
}

/** A step span's attributes for `node` (llm or tool) in `record` of a run of `wf`. */
function stepAttributes(wf: AgentWorkflow, node: AgentNode, record: TransitionRecord): Attributes {
  const base: Attributes = { "agentflow.node.id": node.id };
  if (node.type === "tool") {
    return {
      ...base,
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": toolName(node.config.usesTool),
      "gen_ai.tool.type": "function",
      "gen_ai.tool.call.id": `call-${node.id}-${String(record.step)}`,
      ...(record.params !== undefined
        ? { "gen_ai.tool.call.arguments": JSON.stringify(record.params) }
        : {}),
      ...(record.output !== undefined
        ? { "gen_ai.tool.call.result": JSON.stringify(record.output) }
        : {}),
    };
  }
  if (node.type !== "llm") return base;
  const reply =
    record.output === undefined
      ? {}
      : {
          "gen_ai.output.messages": JSON.stringify([
            {
              role: "assistant",
              parts: [{ type: "text", content: JSON.stringify(record.output) }],
              finish_reason: "stop",
            },
          ]),
        };
  return {
    ...base,
    "gen_ai.operation.name": "chat",
    "gen_ai.request.model": node.config.model,
    ...(node.config.provider !== undefined ? { "gen_ai.provider.name": node.config.provider } : {}),
    "gen_ai.prompt.name": node.config.promptRef,
    ...reply,
    "gen_ai.usage.input_tokens": CALL_TOKENS.input,
    "gen_ai.usage.output_tokens": CALL_TOKENS.output,
    ...costKeys(wf),
  };
}

function spanName(node: AgentNode): string {
  if (node.type === "tool") return `execute_tool ${toolName(node.config.usesTool)}`;
  if (node.type === "llm") return `chat ${node.config.model}`;
  return `decision ${node.id}`;
}

/** The trail records that become spans, with whether each is a failed attempt. */
function stepsOf(state: SimulationState): { record: TransitionRecord; failed: boolean }[] {
  const out: { record: TransitionRecord; failed: boolean }[] = [];
  for (const record of state.trail) {
    if (record.type === "move" || record.type === "decision") out.push({ record, failed: false });
    else if (record.type === "boundary" && record.decorator === "errorBoundary") {
      out.push({ record, failed: true });
    } else if (
      record.type === "decision-blocked" &&
      (record.cell === "execution" || record.cell === "errorBoundary")
    ) {
      out.push({ record, failed: true });
    }
  }
  return out;
}

/**
 * The run as one OTLP/JSON line: an `invoke_agent` span (agent id, name and version = the
 * workflow's) over one span per llm/tool attempt (failed attempts with status ERROR) and one per
 * decision (`agentflow.route.*`), 10 ms apart from `run.startMs`.
 */
export function otlpFromSimulation(
  wf: AgentWorkflow,
  state: SimulationState,
  run: { id: string; startMs: number },
): string {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    idGenerator: idsFor(run.id),
    resource: resourceFromAttributes({ "service.name": "agentflow-simulation" }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer("agentflow.conform.export", "1.0.0");
  const byId = new Map(wf.nodes.map((node) => [node.id, node]));
  const agent = tracer.startSpan(`invoke_agent ${wf.name}`, {
    kind: SpanKind.INTERNAL,
    startTime: new Date(run.startMs),
    attributes: {
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.id": wf.id,
      "gen_ai.agent.name": wf.name,
      "gen_ai.agent.version": wf.version,
    },
  });
  const parent = trace.setSpan(context.active(), agent);
  let clock = run.startMs;
  for (const { record, failed } of stepsOf(state)) {
    const node = record.nodeId === undefined ? undefined : byId.get(record.nodeId);
    if (node === undefined) continue;
    clock += 10;
    const attributes: Attributes =
      node.type === "decision"
        ? {
            "agentflow.node.id": node.id,
            ...(record.route !== undefined ? { "agentflow.route.label": record.route } : {}),
            ...(record.next !== undefined ? { "agentflow.route.next": record.next } : {}),
          }
        : stepAttributes(wf, node, record);
    if (failed) attributes["error.type"] = "_OTHER";
    const kind = node.type === "llm" ? SpanKind.CLIENT : SpanKind.INTERNAL;
    const span = tracer.startSpan(
      spanName(node),
      { kind, startTime: new Date(clock), attributes },
      parent,
    );
    if (failed) span.setStatus({ code: SpanStatusCode.ERROR, message: record.error ?? "failed" });
    span.end(new Date(clock + 5));
  }
  if (!state.complete) {
    const last = state.trail[state.trail.length - 1];
    agent.setAttribute("error.type", last?.cell ?? "incomplete");
    agent.setStatus({ code: SpanStatusCode.ERROR, message: last?.reason ?? "the run did not end" });
  }
  agent.end(new Date(clock + 10));
  const request = JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans());
  return `${new TextDecoder().decode(request)}\n`;
}
