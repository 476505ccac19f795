/**
 * A simulated run written as Camunda 8.10's agent instance history (agent-instances.yaml): the
 * history items (`AgentInstanceHistoryItemResult`) in creation order, then the agent instance
 * (`AgentInstanceResult`) as it reads once the run is over, one JSON document per line. No Camunda
 * library that writes this shape runs here, so the published shape is written directly.
 * Standard fields first; agentflow's own keys only where the history has none: the workflow
 * (`agentflow.workflow`) and a model call's node id (`agentflow.node.id`), in an OBJECT content
 * block of their own. A failed attempt is a DISCARDED item (its job activation failed and was
 * retried). A run that stopped blocked stays open: Camunda's agent status has no failed state.
 */
import type { AgentNode, AgentWorkflow } from "../../../src/model/index.js";
import type { SimulationState, TransitionRecord } from "../../../src/simulate/index.js";
import { CALL_TOKENS, costKeys } from "./usage.js";

/** The process the exported agent instances run in. */
export const CAMUNDA_SIM_PROCESS = { processId: "agentflow-sim", agentElement: "agent" } as const;

const BASE = 2251799813685249n;

/** A Zeebe-style key for a run id: the id itself when it is digits, else a stable hash. */
export function agentInstanceKeyOf(runId: string): string {
  if (/^\d{1,18}$/.test(runId)) return runId;
  let hash = 0n;
  for (const char of runId) hash = (hash * 131n + BigInt(char.codePointAt(0) ?? 0)) % 1000000007n;
  return String(BASE + hash * 1000n);
}

const annotation = (keys: Record<string, unknown>) => ({ contentType: "OBJECT", object: keys });
const object = (value: unknown) => ({ contentType: "OBJECT", object: value });
const NO_LIMITS = { maxModelCalls: -1, maxTokens: -1, maxToolCalls: -1 };

interface Writer {
  readonly lines: string[];
  readonly run: string;
  readonly startMs: number;
  /** What each model call cost, as agentflow's keys. */
  readonly cost: Record<string, number>;
  next: bigint;
  calls: number;
  model?: string;
  provider?: string;
}

function item(w: Writer, step: number, fields: Record<string, unknown>): void {
  w.next += 1n;
  const producedAt = new Date(w.startMs + step).toISOString();
  w.lines.push(
    JSON.stringify({
      historyItemKey: String(w.next),
      historyItemId: `item-${w.next}`,
      agentInstanceKey: w.run,
      elementInstanceKey: String(BASE + 2n),
      jobKey: String(BASE + 3n),
      jobLease: "lease-1",
      loopIteration: 1,
      content: [],
      toolCalls: [],
      metrics: null,
      commitStatus: "COMMITTED",
      producedAt,
      tools: [],
      model: null,
      provider: null,
      limits: NO_LIMITS,
      systemPrompt: [],
      ...fields,
    }),
  );
}

function configureFor(w: Writer, node: AgentNode, step: number): void {
  if (node.type !== "llm") return;
  const { model, provider } = node.config;
  if (model === w.model && (provider === undefined || provider === w.provider)) return;
  w.model = model;
  if (provider !== undefined) w.provider = provider;
  item(w, step, {
    role: "CONFIGURATION",
    model,
    ...(provider === undefined ? {} : { provider }),
  });
}

function attempt(w: Writer, node: AgentNode, record: TransitionRecord, failed: boolean): void {
  const status = failed ? { commitStatus: "DISCARDED" } : {};
  const output = failed ? [] : [object(record.output ?? {})];
  if (node.type === "llm") {
    configureFor(w, node, record.step);
    const content = [...output, annotation({ "agentflow.node.id": node.id, ...w.cost })];
    const metrics = { inputTokens: CALL_TOKENS.input, outputTokens: CALL_TOKENS.output };
    item(w, record.step, { role: "ASSISTANT", content, metrics, ...status });
  } else if (node.type === "tool") {
    w.calls += 1;
    const call = {
      toolCallId: `call-${w.calls}`,
      toolName: node.id,
      elementId: node.id,
      arguments: failed ? null : (record.params ?? {}),
    };
    item(w, record.step, { role: "TOOL_RESULT", content: output, toolCalls: [call], ...status });
  }
}

/** The run as agent instance history, JSON lines. */
export function camundaAgentHistoryFromSimulation(
  wf: AgentWorkflow,
  state: SimulationState,
  run: { id: string; startMs: number },
): string {
  const w: Writer = {
    lines: [],
    run: agentInstanceKeyOf(run.id),
    startMs: run.startMs,
    cost: costKeys(wf),
    next: BASE * 2n,
    calls: 0,
  };
  const byId = new Map(wf.nodes.map((n) => [n.id, n]));
  const first = wf.nodes.find((n) => n.type === "llm");
  const definition =
    first?.type === "llm"
      ? { model: first.config.model, provider: first.config.provider ?? "", systemPrompt: "" }
      : { model: "", provider: "", systemPrompt: "" };
  item(w, 0, {
    role: "CONFIGURATION",
    loopIteration: 0,
    content: [annotation({ "agentflow.workflow": `${wf.id}@${wf.version}` })],
  });
  let endStep: number | undefined;
  for (const record of state.trail) {
    const node = record.nodeId === undefined ? undefined : byId.get(record.nodeId);
    if (record.type === "end") endStep = record.step;
    if (node === undefined) continue;
    if (record.type === "move") attempt(w, node, record, false);
    const failedAttempt = record.type === "boundary" && record.decorator === "errorBoundary";
    const failedStop =
      record.type === "decision-blocked" &&
      (record.cell === "execution" || record.cell === "errorBoundary");
    if (failedAttempt || failedStop) attempt(w, node, record, true);
  }
  const done = state.complete && endStep !== undefined;
  const tools = wf.nodes
    .filter((n) => n.type === "tool")
    .map((n) => ({ name: n.id, description: null, elementId: n.id }));
  w.lines.push(
    JSON.stringify({
      agentInstanceKey: w.run,
      agentDefinitionKey: String(BASE + 4n),
      status: done ? "COMPLETED" : "IDLE",
      definition,
      metrics: { inputTokens: 0, outputTokens: 0, modelCalls: 0, toolCalls: w.calls },
      limits: NO_LIMITS,
      tools,
      elementId: CAMUNDA_SIM_PROCESS.agentElement,
      processInstanceKey: String(BASE + 1n),
      rootProcessInstanceKey: String(BASE + 1n),
      processDefinitionKey: String(BASE + 5n),
      processDefinitionId: CAMUNDA_SIM_PROCESS.processId,
      processDefinitionVersion: 1,
      processDefinitionVersionTag: null,
      tenantId: "<default>",
      creationDate: new Date(run.startMs).toISOString(),
      lastUpdatedDate: new Date(run.startMs + (endStep ?? 0)).toISOString(),
      completionDate: done ? new Date(run.startMs + (endStep ?? 0)).toISOString() : null,
      elementInstanceKeys: [String(BASE + 2n)],
    }),
  );
  return `${w.lines.join("\n")}\n`;
}
