/**
 * BTV_NAMESPACE_MISMATCH for btv declarations in agentflow's own namespace that nothing reads: an
 * agent or a gate declared on an element that is no flow node of a process (the process, a pool,
 * a lane, a sequence flow, a data object, an event definition), an agent on a flow node that runs
 * none (a gateway, a boundary event), a `btv:agentWorkflowRef` where no activity carries it, and
 * any btv attribute btv does not define (a misspelt one). Each used to vanish, and the process
 * passed as "no agent tasks". The documents are a Camunda Modeler export of one invoice process,
 * with one thing changed per case, as a modeller would change it.
 */
import { BpmnModdle } from "bpmn-moddle";
import { describe, expect, it } from "vitest";
import { rule } from "../../../src/bpmn/rules/BTV_NAMESPACE_MISMATCH.js";
import type { ModdleObject } from "../../../src/bpmn/index.js";
import { checkProcess, evaluateGates } from "../../../src/bpmn/index.js";
import { at, bpmnRuleTester } from "../rule-tester.js";

const CODE = "BTV_NAMESPACE_MISMATCH";

const INVOICES = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0" xmlns:modeler="http://camunda.org/schema/modeler/1.0" xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="Definitions_Invoices" targetNamespace="http://bpmn.io/schema/bpmn" exporter="Camunda Modeler" exporterVersion="5.28.0" modeler:executionPlatform="Camunda Cloud" modeler:executionPlatformVersion="8.6.0">
  <bpmn:collaboration id="Collaboration_Invoices">
    <bpmn:participant id="Participant_AP" name="Accounts payable" processRef="Process_Invoices" />
  </bpmn:collaboration>
  <bpmn:process id="Process_Invoices" isExecutable="true">
    <bpmn:laneSet id="LaneSet_1">
      <bpmn:lane id="Lane_Agent" name="AI agent">
        <bpmn:flowNodeRef>InvoiceReceived</bpmn:flowNodeRef>
        <bpmn:flowNodeRef>CheckInvoice</bpmn:flowNodeRef>
        <bpmn:flowNodeRef>Matches</bpmn:flowNodeRef>
      </bpmn:lane>
      <bpmn:lane id="Lane_Clerk" name="Clerk">
        <bpmn:flowNodeRef>ApproveInvoice</bpmn:flowNodeRef>
        <bpmn:flowNodeRef>PostInvoice</bpmn:flowNodeRef>
        <bpmn:flowNodeRef>InvoicePosted</bpmn:flowNodeRef>
      </bpmn:lane>
    </bpmn:laneSet>
    <bpmn:startEvent id="InvoiceReceived" name="Invoice received" />
    <bpmn:serviceTask id="CheckInvoice" name="Check invoice against the order">
      <bpmn:extensionElements>
        <zeebe:taskDefinition type="invoice-check" />
      </bpmn:extensionElements>
    </bpmn:serviceTask>
    <bpmn:exclusiveGateway id="Matches" name="Matches?" default="Flow_Yes" />
    <bpmn:userTask id="ApproveInvoice" name="Approve invoice">
      <bpmn:extensionElements>
        <btv:gate approverRole="accounts-payable" />
      </bpmn:extensionElements>
    </bpmn:userTask>
    <bpmn:serviceTask id="PostInvoice" name="Post invoice for payment" />
    <bpmn:endEvent id="InvoicePosted" name="Invoice posted" />
    <bpmn:dataObjectReference id="DataObjectReference_Invoice" name="Invoice" dataObjectRef="DataObject_Invoice" />
    <bpmn:dataObject id="DataObject_Invoice" />
    <bpmn:sequenceFlow id="Flow_1" sourceRef="InvoiceReceived" targetRef="CheckInvoice" />
    <bpmn:sequenceFlow id="Flow_2" sourceRef="CheckInvoice" targetRef="Matches" />
    <bpmn:sequenceFlow id="Flow_Yes" name="yes" sourceRef="Matches" targetRef="ApproveInvoice" />
    <bpmn:sequenceFlow id="Flow_5" sourceRef="ApproveInvoice" targetRef="PostInvoice" />
    <bpmn:sequenceFlow id="Flow_4" sourceRef="PostInvoice" targetRef="InvoicePosted" />
  </bpmn:process>
  <bpmndi:BPMNDiagram id="BPMNDiagram_1">
    <bpmndi:BPMNPlane id="BPMNPlane_1" bpmnElement="Collaboration_Invoices">
      <bpmndi:BPMNShape id="Participant_AP_di" bpmnElement="Participant_AP" isHorizontal="true">
        <dc:Bounds x="120" y="60" width="920" height="320" />
      </bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="Lane_Agent_di" bpmnElement="Lane_Agent" isHorizontal="true">
        <dc:Bounds x="150" y="60" width="890" height="160" />
      </bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="Lane_Clerk_di" bpmnElement="Lane_Clerk" isHorizontal="true">
        <dc:Bounds x="150" y="220" width="890" height="160" />
      </bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="InvoiceReceived_di" bpmnElement="InvoiceReceived">
        <dc:Bounds x="202" y="122" width="36" height="36" />
      </bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="CheckInvoice_di" bpmnElement="CheckInvoice">
        <dc:Bounds x="290" y="100" width="100" height="80" />
      </bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="Matches_di" bpmnElement="Matches" isMarkerVisible="true">
        <dc:Bounds x="445" y="115" width="50" height="50" />
      </bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="ApproveInvoice_di" bpmnElement="ApproveInvoice">
        <dc:Bounds x="550" y="260" width="100" height="80" />
      </bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="PostInvoice_di" bpmnElement="PostInvoice">
        <dc:Bounds x="700" y="260" width="100" height="80" />
      </bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="InvoicePosted_di" bpmnElement="InvoicePosted">
        <dc:Bounds x="852" y="282" width="36" height="36" />
      </bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="DataObjectReference_Invoice_di" bpmnElement="DataObjectReference_Invoice">
        <dc:Bounds x="322" y="245" width="36" height="50" />
      </bpmndi:BPMNShape>
      <bpmndi:BPMNEdge id="Flow_1_di" bpmnElement="Flow_1">
        <di:waypoint x="238" y="140" />
        <di:waypoint x="290" y="140" />
      </bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="Flow_2_di" bpmnElement="Flow_2">
        <di:waypoint x="390" y="140" />
        <di:waypoint x="445" y="140" />
      </bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="Flow_Yes_di" bpmnElement="Flow_Yes">
        <di:waypoint x="470" y="165" />
        <di:waypoint x="470" y="300" />
        <di:waypoint x="550" y="300" />
      </bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="Flow_5_di" bpmnElement="Flow_5">
        <di:waypoint x="650" y="300" />
        <di:waypoint x="700" y="300" />
      </bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="Flow_4_di" bpmnElement="Flow_4">
        <di:waypoint x="800" y="300" />
        <di:waypoint x="852" y="300" />
      </bpmndi:BPMNEdge>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</bpmn:definitions>
`;

/** The invoice process with `from` (a line of it, as exported) written as `to`. */
function edited(from: string, to: string): string {
  if (!INVOICES.includes(from)) throw new Error(`not in the document: ${from}`);
  return INVOICES.replace(from, to);
}

const AGENT = '<btv:agentTask agentWorkflowRef="agnt-invoice-check@1.0.0" autonomyLevel="2" />';
const PROCESS = "/rootElements/1";
const CHECK_INVOICE = `${PROCESS}/flowElements/1`;
const values = (path: string) => `${path}/extensionElements/values/0`;

/** One modeller's edit and the finding it gives: on `elementId`, at `path`, with `data`. */
interface Case {
  readonly name: string;
  readonly xml: string;
  readonly elementId: string;
  readonly path: string;
  readonly messageId: string;
  readonly data: Readonly<Record<string, string>>;
}

const CASES: readonly Case[] = [
  {
    name: "the agent declared on the process",
    xml: edited(
      '<bpmn:process id="Process_Invoices" isExecutable="true">',
      `<bpmn:process id="Process_Invoices" isExecutable="true">\n<bpmn:extensionElements>${AGENT}</bpmn:extensionElements>`,
    ),
    elementId: "Process_Invoices",
    path: values(PROCESS),
    messageId: "misplaced",
    data: { kind: "misplaced", element: "btv:agentTask", on: "bpmn:Process" },
  },
  {
    name: "the agent declared on the pool",
    xml: edited(
      '<bpmn:participant id="Participant_AP" name="Accounts payable" processRef="Process_Invoices" />',
      `<bpmn:participant id="Participant_AP" name="Accounts payable" processRef="Process_Invoices"><bpmn:extensionElements>${AGENT}</bpmn:extensionElements></bpmn:participant>`,
    ),
    elementId: "Participant_AP",
    path: values("/rootElements/0/participants/0"),
    messageId: "misplaced",
    data: { kind: "misplaced", element: "btv:agentTask", on: "bpmn:Participant" },
  },
  {
    name: 'the agent declared on the lane "AI agent"',
    xml: edited(
      '<bpmn:lane id="Lane_Agent" name="AI agent">',
      `<bpmn:lane id="Lane_Agent" name="AI agent">\n<bpmn:extensionElements>${AGENT}</bpmn:extensionElements>`,
    ),
    elementId: "Lane_Agent",
    path: values(`${PROCESS}/laneSets/0/lanes/0`),
    messageId: "misplaced",
    data: { kind: "misplaced", element: "btv:agentTask", on: "bpmn:Lane" },
  },
  {
    name: "the agent declared on the sequence flow out of its task",
    xml: edited(
      '<bpmn:sequenceFlow id="Flow_2" sourceRef="CheckInvoice" targetRef="Matches" />',
      `<bpmn:sequenceFlow id="Flow_2" sourceRef="CheckInvoice" targetRef="Matches"><bpmn:extensionElements>${AGENT}</bpmn:extensionElements></bpmn:sequenceFlow>`,
    ),
    elementId: "Flow_2",
    path: values(`${PROCESS}/flowElements/9`),
    messageId: "misplaced",
    data: { kind: "misplaced", element: "btv:agentTask", on: "bpmn:SequenceFlow" },
  },
  {
    name: "the agent declared on the data object it reads",
    xml: edited(
      '<bpmn:dataObjectReference id="DataObjectReference_Invoice" name="Invoice" dataObjectRef="DataObject_Invoice" />',
      `<bpmn:dataObjectReference id="DataObjectReference_Invoice" name="Invoice" dataObjectRef="DataObject_Invoice"><bpmn:extensionElements>${AGENT}</bpmn:extensionElements></bpmn:dataObjectReference>`,
    ),
    elementId: "DataObjectReference_Invoice",
    path: values(`${PROCESS}/flowElements/6`),
    messageId: "misplaced",
    data: { kind: "misplaced", element: "btv:agentTask", on: "bpmn:DataObjectReference" },
  },
  {
    name: "the agent declared in the message definition of the start event (no id of its own)",
    xml: edited(
      '<bpmn:startEvent id="InvoiceReceived" name="Invoice received" />',
      `<bpmn:startEvent id="InvoiceReceived" name="Invoice received"><bpmn:messageEventDefinition><bpmn:extensionElements>${AGENT}</bpmn:extensionElements></bpmn:messageEventDefinition></bpmn:startEvent>`,
    ),
    elementId: "InvoiceReceived",
    path: values(`${PROCESS}/flowElements/0/eventDefinitions/0`),
    messageId: "misplaced",
    data: {
      kind: "misplaced",
      element: "btv:agentTask",
      on: "bpmn:MessageEventDefinition in bpmn:StartEvent",
    },
  },
  {
    name: "the gate marker on the clerk's lane",
    xml: edited(
      '<bpmn:lane id="Lane_Clerk" name="Clerk">',
      '<bpmn:lane id="Lane_Clerk" name="Clerk">\n<bpmn:extensionElements><btv:gate approverRole="clerk" /></bpmn:extensionElements>',
    ),
    elementId: "Lane_Clerk",
    path: values(`${PROCESS}/laneSets/0/lanes/1`),
    messageId: "misplaced",
    data: { kind: "misplaced", element: "btv:gate", on: "bpmn:Lane" },
  },
  {
    name: "the short form on the process",
    xml: edited(
      '<bpmn:process id="Process_Invoices" isExecutable="true">',
      '<bpmn:process id="Process_Invoices" btv:agentWorkflowRef="agnt-invoice-check@1.0.0" isExecutable="true">',
    ),
    elementId: "Process_Invoices",
    path: PROCESS,
    messageId: "attribute-misplaced",
    data: { kind: "attribute-misplaced", element: "btv:agentWorkflowRef", on: "bpmn:Process" },
  },
  {
    name: "the short form on the gateway after the agent",
    xml: edited(
      '<bpmn:exclusiveGateway id="Matches" name="Matches?" default="Flow_Yes" />',
      '<bpmn:exclusiveGateway id="Matches" name="Matches?" default="Flow_Yes" btv:agentWorkflowRef="agnt-invoice-check@1.0.0" />',
    ),
    elementId: "Matches",
    path: `${PROCESS}/flowElements/2`,
    messageId: "attribute-misplaced",
    data: {
      kind: "attribute-misplaced",
      element: "btv:agentWorkflowRef",
      on: "bpmn:ExclusiveGateway",
    },
  },
  {
    name: "the agent declared on the gateway after its task (judged where it never runs)",
    xml: edited(
      '<bpmn:exclusiveGateway id="Matches" name="Matches?" default="Flow_Yes" />',
      `<bpmn:exclusiveGateway id="Matches" name="Matches?" default="Flow_Yes"><bpmn:extensionElements>${AGENT}</bpmn:extensionElements></bpmn:exclusiveGateway>`,
    ),
    elementId: "Matches",
    path: values(`${PROCESS}/flowElements/2`),
    messageId: "no-agent-host",
    data: { kind: "no-agent-host", element: "btv:agentTask", on: "bpmn:ExclusiveGateway" },
  },
  {
    name: "the agent declared on the start event",
    xml: edited(
      '<bpmn:startEvent id="InvoiceReceived" name="Invoice received" />',
      `<bpmn:startEvent id="InvoiceReceived" name="Invoice received"><bpmn:extensionElements>${AGENT}</bpmn:extensionElements></bpmn:startEvent>`,
    ),
    elementId: "InvoiceReceived",
    path: values(`${PROCESS}/flowElements/0`),
    messageId: "no-agent-host",
    data: { kind: "no-agent-host", element: "btv:agentTask", on: "bpmn:StartEvent" },
  },
  {
    name: "the short form misspelt in lower case",
    xml: edited(
      '<bpmn:serviceTask id="CheckInvoice" name="Check invoice against the order">',
      '<bpmn:serviceTask id="CheckInvoice" name="Check invoice against the order" btv:agentworkflowref="agnt-invoice-check@1.0.0">',
    ),
    elementId: "CheckInvoice",
    path: CHECK_INVOICE,
    messageId: "unknown-attribute-suggest",
    data: {
      kind: "attribute",
      element: "btv:agentworkflowref",
      on: "bpmn:ServiceTask",
      suggestion: "btv:agentWorkflowRef",
    },
  },
  {
    name: "the short form misspelt as a longer name",
    xml: edited(
      '<bpmn:serviceTask id="CheckInvoice" name="Check invoice against the order">',
      '<bpmn:serviceTask id="CheckInvoice" name="Check invoice against the order" btv:agentWorkflowRefs="agnt-invoice-check@1.0.0">',
    ),
    elementId: "CheckInvoice",
    path: CHECK_INVOICE,
    messageId: "unknown-attribute-suggest",
    data: { kind: "attribute", suggestion: "btv:agentWorkflowRef" },
  },
  {
    name: "the level written as an attribute of the task (it belongs on btv:agentTask)",
    xml: edited(
      '<bpmn:serviceTask id="CheckInvoice" name="Check invoice against the order">',
      '<bpmn:serviceTask id="CheckInvoice" name="Check invoice against the order" btv:agentWorkflowRef="agnt-invoice-check@1.0.0" btv:autonomyLevel="2">',
    ),
    elementId: "CheckInvoice",
    path: CHECK_INVOICE,
    messageId: "unknown-attribute",
    data: { kind: "attribute", element: "btv:autonomyLevel", on: "bpmn:ServiceTask" },
  },
  {
    name: "the level misspelt on btv:agentTask: the level it declares is lost",
    xml: edited(
      '<zeebe:taskDefinition type="invoice-check" />',
      '<zeebe:taskDefinition type="invoice-check" />\n<btv:agentTask agentWorkflowRef="agnt-invoice-check@1.0.0" autonomylevel="2" />',
    ),
    elementId: "CheckInvoice",
    path: `${CHECK_INVOICE}/extensionElements/values/1`,
    messageId: "unknown-attribute-suggest",
    data: {
      kind: "attribute",
      element: "autonomylevel",
      on: "btv:agentTask in bpmn:ServiceTask",
      suggestion: "autonomyLevel",
    },
  },
];

await bpmnRuleTester(rule, {
  valid: [
    { name: "the exported process, with no agent", xml: INVOICES },
    {
      name: "the agent declared on the task that runs it",
      xml: edited(
        '<zeebe:taskDefinition type="invoice-check" />',
        `<zeebe:taskDefinition type="invoice-check" />\n${AGENT}`,
      ),
    },
    {
      name: "the short form on the task, and a tool effect on the next one",
      xml: edited(
        '<bpmn:serviceTask id="PostInvoice" name="Post invoice for payment" />',
        '<bpmn:serviceTask id="PostInvoice" name="Post invoice for payment" btv:toolEffect="write-reversible" />',
      ).replace(
        '<bpmn:serviceTask id="CheckInvoice" name="Check invoice against the order">',
        '<bpmn:serviceTask id="CheckInvoice" name="Check invoice against the order" btv:agentWorkflowRef="agnt-invoice-check@1.0.0">',
      ),
    },
    {
      name: "the agent on the end event, which Camunda 8 may run as a job",
      xml: edited(
        '<bpmn:endEvent id="InvoicePosted" name="Invoice posted" />',
        `<bpmn:endEvent id="InvoicePosted" name="Invoice posted"><bpmn:extensionElements>${AGENT}</bpmn:extensionElements></bpmn:endEvent>`,
      ),
    },
  ],
  invalid: CASES.map((c) => ({
    name: c.name,
    xml: c.xml,
    errors: [
      { ...at(CODE, c.elementId, c.path), messageId: c.messageId, severity: "error", data: c.data },
    ],
  })),
});

describe("a btv declaration nothing reads blocks the promotion", () => {
  it.each(CASES.map((c) => [c.name, c] as const))("%s: BLOCKED", async (_, c) => {
    const result = await checkProcess(c.xml);
    expect(result.allowed).toBe(false);
    expect(
      result.blocking.filter((d) => d.code === CODE).map((d) => [d.severity, d.target]),
    ).toEqual([["error", { kind: "bpmn-element", elementId: c.elementId, path: c.path }]]);
    // The finding replaces the reader's "kept as is" warning: one diagnostic for one attribute.
    expect(result.warnings.filter((d) => d.code === "BPMN_PARSE")).toEqual([]);
  });

  it("the same agent on the task that runs it is ALLOWED: the approval follows it", async () => {
    const xml = edited(
      '<zeebe:taskDefinition type="invoice-check" />',
      `<zeebe:taskDefinition type="invoice-check" />\n${AGENT}`,
    );
    const result = await checkProcess(xml);
    expect(result.allowed).toBe(true);
    expect(result.agentTasks.map((t) => t.elementId)).toEqual(["CheckInvoice"]);
  });
});

describe("definitions read by a moddle without the btv package (a host's own)", () => {
  /** Reads the XML as a host that did not register btv would, and evaluates the gates. */
  async function bare(xml: string) {
    const { rootElement } = await new BpmnModdle().fromXML(xml);
    return evaluateGates(rootElement as ModdleObject);
  }

  it.each([
    [
      "the short form, kept as an unknown attribute",
      edited(
        '<bpmn:serviceTask id="CheckInvoice" name="Check invoice against the order">',
        '<bpmn:serviceTask id="CheckInvoice" name="Check invoice against the order" btv:agentWorkflowRef="agnt-invoice-check@1.0.0">',
      ),
      CHECK_INVOICE,
      { kind: "attribute-unregistered", element: "btv:agentWorkflowRef" },
    ],
    [
      "a misspelt btv element, kept as a generic one",
      edited(
        '<zeebe:taskDefinition type="invoice-check" />',
        '<zeebe:taskDefinition type="invoice-check" />\n<btv:agentTsk agentWorkflowRef="agnt-invoice-check@1.0.0" />',
      ),
      `${CHECK_INVOICE}/extensionElements/values/1`,
      { kind: "element", element: "btv:agentTsk", suggestion: "btv:agentTask" },
    ],
  ] as const)("%s: BLOCKED", async (_, xml, path, data) => {
    const result = await bare(xml);
    expect(result.allowed).toBe(false);
    expect(result.blocking).toEqual([
      expect.objectContaining({
        code: CODE,
        severity: "error",
        target: { kind: "bpmn-element", elementId: "CheckInvoice", path },
        data: expect.objectContaining(data) as unknown,
      }),
    ]);
  });
});
