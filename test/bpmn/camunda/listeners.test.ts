/**
 * Jobs Camunda runs for an element besides its own: `zeebe:executionListener`s (any element),
 * `zeebe:taskListener`s (user tasks) and the inbound connector a catch event subscribes with
 * (`zeebe:property inbound.type`). Each is looked up by its type (mapping, default, else
 * unknown) and joins the element's effect, the most demanding winning — a plain task, a FEEL
 * script or a user task is `read` only when nothing it runs says more.
 */
import { describe, expect, it } from "vitest";
import { checkProcess } from "../../../src/bpmn/index.js";
import type { GateOptions } from "../../../src/bpmn/index.js";
import { derivedOf, modelerAgent, templatedTask } from "./fixtures.js";

const execution = (eventType: string, type: string) =>
  `<zeebe:executionListeners><zeebe:executionListener eventType="${eventType}" retries="3" type="${type}" /></zeebe:executionListeners>`;
const HTTP = "io.camunda.connectors.HttpJson.v2";
const REST = "io.camunda:http-json:1";

/** The tool `id`: effect, source, key, reason, the element that decided. */
async function read(tools: string, id: string, options: GateOptions = {}) {
  const { derived } = derivedOf(await checkProcess(modelerAgent(tools), options));
  const tool = derived.tools.find((t) => t.id === id);
  return [
    tool?.effect ?? "unknown",
    tool?.effectSource,
    tool?.effectKey,
    tool?.unknownReason,
    tool?.decidedBy,
  ];
}

describe("listeners are jobs whose effects join the element's", () => {
  it.each([
    [
      "an execution listener of one's own on a plain task",
      `<bpmn:task id="T" name="Note decision"><bpmn:extensionElements>${execution("start", "acme:wire-money:1")}</bpmn:extensionElements></bpmn:task>`,
      {},
      [
        "unknown",
        "unknown",
        "acme:wire-money:1",
        "no toolEffects mapping or agentflow default covers the execution listener (start)'s job type 'acme:wire-money:1'",
        "T",
      ],
    ],
    [
      "a REST connector as the end listener of a FEEL script (no inputs of its own: any method)",
      `<bpmn:scriptTask id="T" name="Compute"><bpmn:extensionElements><zeebe:script expression="=1+1" resultVariable="toolCallResult" />${execution("end", REST)}</bpmn:extensionElements></bpmn:scriptTask>`,
      {},
      [
        "write-irreversible",
        "default",
        `execution listener (end): ${REST} method=(absent)`,
        undefined,
        "T",
      ],
    ],
    [
      "a task listener of one's own on a Camunda user task",
      `<bpmn:userTask id="T" name="Ask clerk"><bpmn:extensionElements><zeebe:userTask /><zeebe:taskListeners><zeebe:taskListener eventType="creating" type="acme:wire-money:1" /></zeebe:taskListeners></bpmn:extensionElements></bpmn:userTask>`,
      {},
      [
        "unknown",
        "unknown",
        "acme:wire-money:1",
        "no toolEffects mapping or agentflow default covers the task listener (creating)'s job type 'acme:wire-money:1'",
        "T",
      ],
    ],
    [
      "a listener whose job type is FEEL",
      `<bpmn:task id="T"><bpmn:extensionElements>${execution("start", "=listener.type")}</bpmn:extensionElements></bpmn:task>`,
      {},
      [
        "unknown",
        "unknown",
        undefined,
        "the execution listener (start)'s job type is the FEEL expression '=listener.type', known only at run time",
        "T",
      ],
    ],
    [
      "a listener the organisation maps, on a REST GET: the more demanding wins",
      templatedTask("T", HTTP, REST, { method: "GET" }, execution("end", "acme:audit:1")),
      { "acme:audit:1": "notify" } as const,
      ["notify", "config", "execution listener (end): acme:audit:1", undefined, "T"],
    ],
    [
      "a listener mapped read leaves the element's own effect",
      templatedTask("T", HTTP, REST, { method: "GET" }, execution("end", "acme:audit:1")),
      { "acme:audit:1": "read" } as const,
      ["read", "default", `${HTTP} method=GET`, undefined, "T"],
    ],
    [
      "btv:toolEffect states the element's own job, not its listeners'",
      `<bpmn:task id="T" btv:toolEffect="read"><bpmn:extensionElements>${execution("start", "io.camunda:slack:1")}</bpmn:extensionElements></bpmn:task>`,
      {},
      [
        "write-irreversible",
        "default",
        "execution listener (start): io.camunda:slack:1 method=(absent)",
        undefined,
        "T",
      ],
    ],
    [
      "a listener on an element of the tool's sub-flow",
      `<bpmn:task id="T"><bpmn:outgoing>S1</bpmn:outgoing></bpmn:task><bpmn:task id="Then"><bpmn:extensionElements>${execution("start", "io.camunda:sendgrid:1")}</bpmn:extensionElements><bpmn:incoming>S1</bpmn:incoming></bpmn:task><bpmn:sequenceFlow id="S1" sourceRef="T" targetRef="Then" />`,
      {},
      ["notify", "default", "execution listener (start): io.camunda:sendgrid:1", undefined, "Then"],
    ],
  ])("%s", async (_name, tool, toolEffects, expected) => {
    expect(await read(tool, "T", { toolEffects })).toEqual(expected);
  });
});

describe("an inbound connector on a catch event is a job too", () => {
  /** An HTTP Polling catch event as the template `io.camunda.connectors.http.Polling` v8 writes it. */
  const polling = (inboundType: string, method: string) =>
    `<bpmn:intermediateCatchEvent id="T" name="Poll" zeebe:modelerTemplate="io.camunda.connectors.http.Polling" zeebe:modelerTemplateVersion="8"><bpmn:extensionElements><zeebe:properties><zeebe:property name="inbound.type" value="${inboundType}" /><zeebe:property name="authentication.type" value="noAuth" /><zeebe:property name="method" value="${method}" /><zeebe:property name="url" value="=&#34;https://billing.example.com/subscriptions/&#34; + fromAi(toolCall.subscriptionId)" /><zeebe:property name="httpRequestInterval" value="PT50S" /><zeebe:property name="activationCondition" value="=true" /></zeebe:properties></bpmn:extensionElements><bpmn:messageEventDefinition messageRef="Message_1" /></bpmn:intermediateCatchEvent>`;

  it.each([
    [
      "HTTP Polling by DELETE",
      polling("io.camunda:http-polling:1", "DELETE"),
      [
        "write-irreversible",
        "default",
        "inbound connector: io.camunda:http-polling:1 method=DELETE",
        undefined,
        "T",
      ],
    ],
    [
      "HTTP Polling by GET",
      polling("io.camunda:http-polling:1", "GET"),
      ["read", "default", "pass-through", undefined, "T"],
    ],
    [
      "an inbound connector agentflow has no default for (an SQS consumer deletes what it reads)",
      polling("io.camunda:aws-sqs-inbound:1", "GET"),
      [
        "unknown",
        "unknown",
        "io.camunda:aws-sqs-inbound:1",
        "no toolEffects mapping or agentflow default covers the inbound connector's job type 'io.camunda:aws-sqs-inbound:1'",
        "T",
      ],
    ],
  ])("%s", async (_name, tool, expected) => {
    expect(await read(tool, "T")).toEqual(expected);
  });
});
