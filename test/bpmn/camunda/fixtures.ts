/**
 * The Camunda fixtures (test/fixtures/camunda/, drawn for agentflow) and how to evaluate them:
 * read with and without zeebe-bpmn-moddle, since agentflow must read both the typed and the
 * generic form of the `zeebe:` elements.
 */
import { readFileSync } from "node:fs";
import type { GateDecision, GateOptions } from "../../../src/bpmn/index.js";
import { checkProcess } from "../../../src/bpmn/index.js";
import { ZEEBE_MODDLE } from "../builders.js";

/** The fixture's text. */
export function fixture(name: string): string {
  // From the repository root (the tests' working directory): happy-dom rewrites import.meta.url.
  return readFileSync(`test/fixtures/camunda/${name}`, "utf8");
}

/** The two ways a host reads Camunda XML. */
export const READINGS = [
  ["generic zeebe elements", {}],
  ["zeebe-bpmn-moddle registered", { moddleExtensions: ZEEBE_MODDLE }],
] as const;

/** `checkProcess` on a fixture. */
export async function check(
  name: string,
  options: GateOptions & { moddleExtensions?: typeof ZEEBE_MODDLE } = {},
): Promise<GateDecision> {
  return checkProcess(fixture(name), options);
}

/** The one derived agent of a decision. */
export function derivedOf(decision: GateDecision, elementId = "Agent") {
  const task = decision.agentTasks.find((t) => t.elementId === elementId);
  if (task?.derived === undefined) throw new Error(`no derived agent ${elementId}`);
  return { task, derived: task.derived };
}

/** Each tool as `id: effect (source, key)`. */
export function effects(decision: GateDecision, elementId = "Agent"): string[] {
  return derivedOf(decision, elementId).derived.tools.map(
    (t) =>
      `${t.id}: ${t.effect ?? "unknown"} (${t.effectSource}${t.effectKey === undefined ? "" : `, ${t.effectKey}`})`,
  );
}

/**
 * A process as Camunda Modeler 5 saves it for Camunda 8.8: Start → an AI Agent Sub-process
 * (template `aiagent.jobworker.v1` version 11, its id and version repeated in task headers, job
 * type `aiagent-job-worker:1`, OpenAI, 8 model calls) holding `tools` → (a gate →) End.
 */
export function modelerAgent(tools: string, options: { readonly gate?: boolean } = {}): string {
  const after =
    options.gate === true
      ? `<bpmn:userTask id="Review" name="Review"><bpmn:extensionElements><zeebe:userTask /><btv:gate approverRole="supervisor" /></bpmn:extensionElements></bpmn:userTask>
    <bpmn:sequenceFlow id="F2" sourceRef="Agent" targetRef="Review" />
    <bpmn:sequenceFlow id="F3" sourceRef="Review" targetRef="End" />`
      : `<bpmn:sequenceFlow id="F2" sourceRef="Agent" targetRef="End" />`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0" xmlns:modeler="http://camunda.org/schema/modeler/1.0" xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="Definitions_1" targetNamespace="http://bpmn.io/schema/bpmn" exporter="Camunda Modeler" exporterVersion="5.44.0" modeler:executionPlatform="Camunda Cloud" modeler:executionPlatformVersion="8.8.0">
  <bpmn:process id="P" isExecutable="true">
    <bpmn:startEvent id="Start" />
    <bpmn:sequenceFlow id="F1" sourceRef="Start" targetRef="Agent" />
    <bpmn:adHocSubProcess id="Agent" name="Agent" zeebe:modelerTemplate="io.camunda.connectors.agenticai.aiagent.jobworker.v1" zeebe:modelerTemplateVersion="11">
      <bpmn:extensionElements>
        <zeebe:adHoc outputCollection="toolCallResults" outputElement="={id: toolCall._meta.id, name: toolCall._meta.name, content: toolCallResult}" />
        <zeebe:taskDefinition type="io.camunda.agenticai:aiagent-job-worker:1" retries="3" />
        <zeebe:ioMapping>
          <zeebe:input source="openai" target="provider.type" />
          <zeebe:input source="gpt-4o" target="provider.openai.model.model" />
          <zeebe:input source="=&#34;You are a helper.&#34;" target="data.systemPrompt.prompt" />
          <zeebe:input source="=request.text" target="data.userPrompt.prompt" />
          <zeebe:input source="=8" target="data.limits.maxModelCalls" />
        </zeebe:ioMapping>
        <zeebe:taskHeaders>
          <zeebe:header key="elementTemplateVersion" value="11" />
          <zeebe:header key="elementTemplateId" value="io.camunda.connectors.agenticai.aiagent.jobworker.v1" />
        </zeebe:taskHeaders>
      </bpmn:extensionElements>
      ${tools}
    </bpmn:adHocSubProcess>
    ${after}
    <bpmn:endEvent id="End" />
  </bpmn:process>
  <bpmn:escalation id="Escalation_1" name="billing" escalationCode="billing" />
  <bpmn:message id="Message_1" name="poll" />
</bpmn:definitions>`;
}

/**
 * A service task as Camunda Modeler writes one made from `template` (attributes and the template
 * headers), running `jobType` with these inputs (target → source, written as the XML holds them),
 * and these further extension elements.
 */
export function templatedTask(
  id: string,
  template: string | undefined,
  jobType: string,
  inputs: Readonly<Record<string, string>> = {},
  more = "",
  tag = "serviceTask",
): string {
  const attrs =
    template === undefined
      ? ""
      : ` zeebe:modelerTemplate="${template}" zeebe:modelerTemplateVersion="1"`;
  const headers =
    template === undefined
      ? ""
      : `<zeebe:taskHeaders><zeebe:header key="elementTemplateVersion" value="1" /><zeebe:header key="elementTemplateId" value="${template}" /></zeebe:taskHeaders>`;
  const mappings = Object.entries(inputs)
    .map(([target, source]) => `<zeebe:input source="${source}" target="${target}" />`)
    .join("");
  const definition = jobType === "" ? "" : `<zeebe:taskDefinition type="${jobType}" retries="3" />`;
  return `<bpmn:${tag} id="${id}" name="${id}"${attrs}><bpmn:extensionElements>${definition}<zeebe:ioMapping>${mappings}</zeebe:ioMapping>${headers}${more}</bpmn:extensionElements></bpmn:${tag}>`;
}

/** The real A2A client as a tool: template `a2a.client.v0`, its job type, the gateway marker. */
export const A2A_CLIENT = templatedTask(
  "Partner",
  "io.camunda.connectors.agenticai.a2a.client.v0",
  "io.camunda.agenticai:a2aclient:0",
  { "data.connection.url": "https://agents.example.com", "data.connectorMode.type": "aiAgentTool" },
  '<zeebe:properties><zeebe:property name="io.camunda.agenticai.gateway.type" value="a2aClient" /></zeebe:properties>',
);
