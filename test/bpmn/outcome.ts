/**
 * One agent task `A` (level 2: a gate is required) in a small process with DI, judged by
 * `checkProcess` and `evaluateGates` (which must agree): its gate verdict, status, the codes and
 * the bypass path. Shared by the gate-path tests, each of which draws its own processes.
 */
import { expect } from "vitest";
import type { AgentGateStatus, GateStatus } from "../../src/bpmn/index.js";
import { agentGateStatus, checkProcess, evaluateGates, readProcess } from "../../src/bpmn/index.js";
import {
  agentWorkflow,
  BPMN_NS,
  BTV_NS,
  chain,
  element,
  endEvent,
  gate,
  gateMarker,
  processElement,
  startEvent,
  subProcess,
  userTask,
  ZEEBE_NS,
} from "./builders.js";
import { withDiagram } from "./diagram.js";

export const WORKFLOW = agentWorkflow("agnt-x@1.0.0", 2);
export const resolveWorkflow = (ref: string): unknown =>
  ref === "agnt-x@1.0.0" ? WORKFLOW : undefined;

/** A level-2 agent task (a gate is required). */
export const agent = (id: string): string =>
  element("serviceTask", id, {
    ext: ['<btv:agentTask agentWorkflowRef="agnt-x@1.0.0" autonomyLevel="2" />'],
  });

export const TIMER = "<bpmn:timerEventDefinition />";
export const ERROR = '<bpmn:errorEventDefinition errorRef="Broken" />';
export const LATE = '<bpmn:escalationEventDefinition escalationRef="Late" />';
export const TERMINATE = "<bpmn:terminateEventDefinition />";

/** A boundary event on `host` (interrupting unless `cancel` is false). */
export function boundary(id: string, host: string, definition: string, cancel = true): string {
  return element("boundaryEvent", id, {
    attrs: { attachedToRef: host, ...(cancel ? {} : { cancelActivity: "false" }) },
    children: [definition.replace("/>", ` id="${id}_def" />`)],
  });
}

/** An event of `tag` with one event definition. */
export const event = (tag: string, id: string, definition: string): string =>
  element(tag, id, { children: [definition.replace("/>", ` id="${id}_def" />`)] });

/** The three kinds of gate: a user task, a call activity, a sub-process. */
export type GateKind = "user task" | "call activity" | "sub-process";
export const GATE_KINDS: readonly GateKind[] = ["user task", "call activity", "sub-process"];

export function gateOf(kind: GateKind, id: string): string {
  if (kind === "user task") return gate(id);
  if (kind === "call activity") {
    return element("callActivity", id, { attrs: { calledElement: "Review" }, ext: [gateMarker()] });
  }
  const inside = [startEvent(`${id}S`), userTask(`${id}Look`), endEvent(`${id}E`)];
  return subProcess(id, [...inside, ...chain(`${id}S`, `${id}Look`, `${id}E`)], {
    ext: [gateMarker()],
  });
}

export async function doc(...children: readonly (string | readonly string[])[]): Promise<string> {
  return withDiagram(
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<bpmn:definitions xmlns:bpmn="${BPMN_NS}" xmlns:btv="${BTV_NS}" xmlns:zeebe="${ZEEBE_NS}" id="Defs" targetNamespace="https://example.com/test">`,
      '<bpmn:error id="Broken" name="Broken" errorCode="BROKEN" />',
      '<bpmn:escalation id="Late" name="Late" escalationCode="LATE" />',
      '<bpmn:escalation id="Other" name="Other" escalationCode="OTHER" />',
      processElement("P", ...children),
      "</bpmn:definitions>",
    ].join("\n"),
  );
}

export interface Outcome {
  readonly gate: GateStatus;
  readonly status: AgentGateStatus;
  readonly allowed: boolean;
  readonly codes: readonly string[];
  /** The bypass path of AGENT_GATE_BYPASS on the agent task `A`, when there is one. */
  readonly path?: readonly string[];
}

/** checkProcess's verdict on agent task `A`, and evaluateGates' on the same definitions. */
export async function outcome(xml: string): Promise<Outcome> {
  const check = await checkProcess(xml, { resolveWorkflow });
  const { definitions } = await readProcess(xml);
  if (definitions === undefined) throw new Error("unreadable");
  const decision = await evaluateGates(definitions, { resolveWorkflow });
  expect(decision.allowed).toBe(check.allowed);
  const task = check.agentTasks.find((t) => t.elementId === "A");
  if (task === undefined) throw new Error("no agent task A");
  const bypass = check.blocking.find(
    (d) => d.code === "AGENT_GATE_BYPASS" && d.target.kind === "bpmn-element",
  );
  if (bypass !== undefined) expect(bypass.target).toMatchObject({ elementId: "A" });
  const path = (bypass?.data as { readonly pathIds?: readonly string[] } | undefined)?.pathIds;
  return {
    gate: task.gate,
    status: agentGateStatus(task),
    allowed: decision.allowed,
    codes: [...check.blocking, ...check.warnings].map((d) => d.code),
    ...(path === undefined ? {} : { path }),
  };
}

export const BLOCKED = (path: readonly string[]): Outcome => ({
  gate: "bypassed",
  status: "bypassed",
  allowed: false,
  codes: ["AGENT_GATE_BYPASS"],
  path,
});
export const ALLOWED: Outcome = { gate: "reached", status: "reached", allowed: true, codes: [] };
