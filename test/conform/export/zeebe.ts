/**
 * A simulated run written as the Zeebe records of the process instance it ran in (the protocol's
 * Record JSON, one per line), as Camunda's AI Agent sub-process runs: the agent is an ad-hoc
 * sub-process, each tool call activates and completes the tool's element inside it, the model
 * calls are the ad-hoc sub-process's jobs (JOB records, which conform skips), a failed attempt is
 * a failed job. No library that writes Zeebe records runs here, so the published shape is written
 * directly, with the transitional intents and job records an exporter writes too. The process is
 * {@link zeebeSimulationProcess}; a blocked run leaves its instance open (an incident).
 */
import type { AgentWorkflow } from "../../../src/model/index.js";
import type { SimulationState } from "../../../src/simulate/index.js";

/** The process the exported instance runs: its id, agent element, and every element id. */
export function zeebeSimulationProcess(wf: AgentWorkflow): {
  readonly processId: string;
  readonly agentElement: string;
  readonly elements: readonly string[];
} {
  const tools = wf.nodes.filter((n) => n.type === "tool").map((n) => n.id);
  const fixed = ["start", "to-agent", "agent", "to-end", "end"];
  return { processId: "agentflow-sim", agentElement: "agent", elements: [...fixed, ...tools] };
}

const BASE = 2251799813685249;

interface Writer {
  readonly lines: string[];
  readonly instance: number;
  readonly processId: string;
  position: number;
  time: number;
  nextKey: number;
}

function write(
  w: Writer,
  kind: { valueType: string; recordType?: string; intent: string; key: number },
  value: Record<string, unknown>,
): void {
  w.position += 1;
  w.lines.push(
    JSON.stringify({
      partitionId: 1,
      value,
      key: kind.key,
      timestamp: w.time,
      position: w.position,
      valueType: kind.valueType,
      recordType: kind.recordType ?? "EVENT",
      intent: kind.intent,
      rejectionType: "NULL_VAL",
      rejectionReason: "",
      brokerVersion: "8.10.0",
      authorizations: {},
      agent: null,
      recordVersion: 1,
      operationReference: -1,
      batchOperationReference: -1,
      sourceRecordPosition: w.position - 1,
    }),
  );
}

function element(w: Writer, id: string, type: string, scope: number, own?: number) {
  if (own === undefined) w.nextKey += 1;
  const key = own ?? w.nextKey;
  const value = {
    bpmnProcessId: w.processId,
    version: 1,
    processDefinitionKey: BASE + 5,
    processInstanceKey: w.instance,
    elementId: id,
    flowScopeKey: scope,
    bpmnElementType: type,
    parentProcessInstanceKey: -1,
    parentElementInstanceKey: -1,
    bpmnEventType: "UNSPECIFIED",
    tenantId: "<default>",
  };
  const emit = (intent: string) => {
    write(w, { valueType: "PROCESS_INSTANCE", intent, key }, value);
  };
  return {
    key,
    taken: () => {
      emit("SEQUENCE_FLOW_TAKEN");
    },
    activate: () => {
      emit("ELEMENT_ACTIVATING");
      emit("ELEMENT_ACTIVATED");
    },
    complete: () => {
      emit("ELEMENT_COMPLETING");
      emit("ELEMENT_COMPLETED");
    },
  };
}

function flow(w: Writer, id: string, scope: number): void {
  element(w, id, "SEQUENCE_FLOW", scope).taken();
}

function job(w: Writer, scope: number, intent: string): void {
  write(
    w,
    { valueType: "JOB", intent, key: scope + 100000 },
    { type: "io.camunda.agenticai:aiagent-job-worker:1", processInstanceKey: w.instance },
  );
}

/** The run's process instance as Zeebe records, JSON lines. */
export function zeebeFromSimulation(
  wf: AgentWorkflow,
  state: SimulationState,
  run: { id: string; startMs: number },
): string {
  const { processId } = zeebeSimulationProcess(wf);
  const instance = BASE + 1;
  const w: Writer = {
    lines: [],
    instance,
    processId,
    position: 0,
    time: run.startMs,
    nextKey: instance,
  };
  const byId = new Map(wf.nodes.map((n) => [n.id, n]));
  const process = element(w, processId, "PROCESS", -1, instance);
  process.activate();
  const start = element(w, "start", "START_EVENT", instance);
  start.activate();
  start.complete();
  flow(w, "to-agent", instance);
  const agent = element(w, "agent", "AD_HOC_SUB_PROCESS", instance);
  agent.activate();
  let ended = false;
  for (const record of state.trail) {
    w.time = run.startMs + record.step;
    const node = record.nodeId === undefined ? undefined : byId.get(record.nodeId);
    if (record.type === "end") ended = true;
    if (node === undefined) continue;
    const failed =
      (record.type === "boundary" && record.decorator === "errorBoundary") ||
      record.type === "decision-blocked";
    if (node.type === "llm" && record.type === "move") job(w, agent.key, "COMPLETED");
    else if (node.type === "llm" && failed) job(w, agent.key, "FAILED");
    else if (node.type === "tool" && record.type === "move") {
      const tool = element(w, node.id, "SERVICE_TASK", agent.key);
      tool.activate();
      tool.complete();
    } else if (node.type === "tool" && failed) job(w, agent.key + 1, "FAILED");
  }
  if (ended && state.complete) {
    agent.complete();
    flow(w, "to-end", instance);
    const end = element(w, "end", "END_EVENT", instance);
    end.activate();
    end.complete();
    process.complete();
  }
  return `${w.lines.join("\n")}\n`;
}
