/**
 * A gate that Camunda 7, Flowable or Activiti runs inside the engine is no gate
 * (docs/gate-paths.md, "A gate the engine completes by itself is no gate"): a Java class, an
 * expression, a delegate, a DMN decision, a connector or a built-in HTTP or mail task completes
 * with nobody deciding; an external task waits for a worker. Each case is a process as the
 * engine's own modeller writes it, with DI: `Start → Agent → Review → End`, where `Agent` is an
 * agent task at level 2 (a gate is required) and `Review` the `<btv:gate/>` under test. The
 * attributes are read by namespace URI, whatever the prefix, and typed when the host registers
 * camunda-bpmn-moddle (as the Camunda 7 Modeler does).
 */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import type { GateDecision, ModdleExtensions } from "../../src/bpmn/index.js";
import { checkProcess } from "../../src/bpmn/index.js";
import { agentWorkflow, BPMN_NS, BTV_NS } from "./builders.js";

const CAMUNDA_NS = "http://camunda.org/schema/1.0/bpmn";
const FLOWABLE_NS = "http://flowable.org/bpmn";
const ACTIVITI_NS = "http://activiti.org/bpmn";
/** camunda-bpmn-moddle's package: the Camunda 7 Modeler reads with it registered. */
const CAMUNDA_MODDLE: ModdleExtensions = {
  camunda: createRequire(import.meta.url)("camunda-bpmn-moddle/resources/camunda.json") as unknown,
};
const WORKFLOW = agentWorkflow("agnt-refund@1.0.0", 2);

/** The shapes and edges of `Start → Agent → Review → End`, as a modeller lays them out. */
const DIAGRAM = (di: string, dc: string, plane: string) => `
  <bpmndi:BPMNDiagram id="BPMNDiagram_1">
    <bpmndi:BPMNPlane id="BPMNPlane_1" bpmnElement="${plane}">
      <bpmndi:BPMNShape id="Start_di" bpmnElement="Start"><${dc}:Bounds x="152" y="102" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="Agent_di" bpmnElement="Agent"><${dc}:Bounds x="240" y="80" width="100" height="80" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="Review_di" bpmnElement="Review"><${dc}:Bounds x="400" y="80" width="100" height="80" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="End_di" bpmnElement="End"><${dc}:Bounds x="562" y="102" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNEdge id="F1_di" bpmnElement="F1"><${di}:waypoint x="188" y="120" /><${di}:waypoint x="240" y="120" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="F2_di" bpmnElement="F2"><${di}:waypoint x="340" y="120" /><${di}:waypoint x="400" y="120" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="F3_di" bpmnElement="F3"><${di}:waypoint x="500" y="120" /><${di}:waypoint x="562" y="120" /></bpmndi:BPMNEdge>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>`;

/** The `Review` gate: `<tag id="Review" …attrs>` with the marker, `ext` and its flows. */
const review = (prefix: string, tag: string, attrs: string, ext = ""): string =>
  `<${prefix}${tag} id="Review" name="Approve refund" ${attrs}>
      <${prefix}extensionElements>
        <btv:gate approverRole="officer" />${ext}
      </${prefix}extensionElements>
      <${prefix}incoming>F2</${prefix}incoming>
      <${prefix}outgoing>F3</${prefix}outgoing>
    </${prefix}${tag}>`;

/**
 * As the Camunda 7 Modeler saves it, with Camunda's namespace bound to `prefix` on the
 * definitions (none when `prefix` is empty: the agent then carries no Camunda attribute), or
 * `prefix` bound to `uri`.
 */
function camunda7(gate: string, prefix = "camunda", uri = CAMUNDA_NS): string {
  const ns = prefix === "" ? "" : `xmlns:${prefix}="${uri}"`;
  const external = prefix === "" ? "" : ` ${prefix}:type="external" ${prefix}:topic="refund-agent"`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="${BPMN_NS}" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI" ${ns} xmlns:modeler="http://camunda.org/schema/modeler/1.0" xmlns:btv="${BTV_NS}" id="Definitions_1" targetNamespace="http://bpmn.io/schema/bpmn" exporter="Camunda Modeler" exporterVersion="5.44.0" modeler:executionPlatform="Camunda Platform" modeler:executionPlatformVersion="7.23.0">
  <bpmn:process id="Refund" isExecutable="true">
    <bpmn:startEvent id="Start"><bpmn:outgoing>F1</bpmn:outgoing></bpmn:startEvent>
    <bpmn:sequenceFlow id="F1" sourceRef="Start" targetRef="Agent" />
    <bpmn:serviceTask id="Agent" name="Draft refund"${external}>
      <bpmn:extensionElements>
        <btv:agentTask agentWorkflowRef="agnt-refund@1.0.0" autonomyLevel="2" />
      </bpmn:extensionElements>
      <bpmn:incoming>F1</bpmn:incoming>
      <bpmn:outgoing>F2</bpmn:outgoing>
    </bpmn:serviceTask>
    <bpmn:sequenceFlow id="F2" sourceRef="Agent" targetRef="Review" />
    ${gate}
    <bpmn:sequenceFlow id="F3" sourceRef="Review" targetRef="End" />
    <bpmn:endEvent id="End"><bpmn:incoming>F3</bpmn:incoming></bpmn:endEvent>
  </bpmn:process>${DIAGRAM("di", "dc", "Refund")}
</bpmn:definitions>`;
}
const c7 = (tag: string, attrs: string, ext = "") => camunda7(review("bpmn:", tag, attrs, ext));

/**
 * As the Flowable (or Activiti) modeller saves it: BPMN the default namespace, `omgdc`/`omgdi`
 * for DI, the engine's extension under `prefix`.
 */
function flowable(tag: string, attrs: string, prefix = "flowable", uri = FLOWABLE_NS): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="${BPMN_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:${prefix}="${uri}" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:omgdc="http://www.omg.org/spec/DD/20100524/DC" xmlns:omgdi="http://www.omg.org/spec/DD/20100524/DI" xmlns:btv="${BTV_NS}" typeLanguage="http://www.w3.org/2001/XMLSchema" expressionLanguage="http://www.w3.org/1999/XPath" targetNamespace="http://www.flowable.org/processdef">
  <process id="refund" name="Refund" isExecutable="true">
    <startEvent id="Start"><outgoing>F1</outgoing></startEvent>
    <sequenceFlow id="F1" sourceRef="Start" targetRef="Agent" />
    <serviceTask id="Agent" name="Draft refund" ${prefix}:type="external-worker" ${prefix}:topic="refund-agent">
      <extensionElements>
        <btv:agentTask agentWorkflowRef="agnt-refund@1.0.0" autonomyLevel="2" />
      </extensionElements>
      <incoming>F1</incoming>
      <outgoing>F2</outgoing>
    </serviceTask>
    <sequenceFlow id="F2" sourceRef="Agent" targetRef="Review" />
    ${review("", tag, attrs)}
    <sequenceFlow id="F3" sourceRef="Review" targetRef="End" />
    <endEvent id="End"><incoming>F3</incoming></endEvent>
  </process>${DIAGRAM("omgdi", "omgdc", "refund")}
</definitions>`;
}
const activiti = (tag: string, attrs: string) => flowable(tag, attrs, "activiti", ACTIVITI_NS);

const NOBODY = "with nobody deciding";
/** The reason a task the engine runs itself gives. */
const runs = (what: string, engine: string, attribute: string) =>
  `${what} ${engine} runs inside the engine (${attribute}), which completes it ${NOBODY}`;

/** `counts`, or the end of the sentence that says why `Review` does not. */
const COUNTS = "counts";

const CASES: readonly (readonly [string, string, string])[] = [
  // Camunda 7: what the engine runs inside itself.
  [
    "Camunda 7: an expression",
    c7("serviceTask", 'camunda:expression="${true}"'),
    runs("a service task", "Camunda 7", 'camunda:expression="${true}"'),
  ],
  [
    "Camunda 7: a Java class",
    c7("serviceTask", 'camunda:class="com.acme.AutoApprove"'),
    runs("a service task", "Camunda 7", 'camunda:class="com.acme.AutoApprove"'),
  ],
  [
    "Camunda 7: a delegate expression on a send task",
    c7("sendTask", 'camunda:delegateExpression="${mailer}"'),
    runs("a send task", "Camunda 7", 'camunda:delegateExpression="${mailer}"'),
  ],
  [
    "Camunda 7: a business rule task evaluating a DMN decision",
    c7("businessRuleTask", 'camunda:decisionRef="approve" camunda:mapDecisionResult="singleEntry"'),
    `a business rule task Camunda 7 evaluates as a DMN decision (camunda:decisionRef="approve"), ${NOBODY}`,
  ],
  [
    "Camunda 7: a business rule task with a Java class",
    c7("businessRuleTask", 'camunda:class="com.acme.Rules"'),
    runs("a business rule task", "Camunda 7", 'camunda:class="com.acme.Rules"'),
  ],
  [
    "Camunda 7: the built-in mail type",
    c7("serviceTask", 'camunda:type="mail"'),
    runs("a service task", "Camunda 7", 'camunda:type="mail"'),
  ],
  [
    "Camunda 7: the HTTP connector",
    c7(
      "serviceTask",
      "",
      "<camunda:connector><camunda:connectorId>http-connector</camunda:connectorId></camunda:connector>",
    ),
    `a service task Camunda 7 runs with its connector "http-connector" (camunda:connector), which completes it ${NOBODY}`,
  ],
  [
    "Camunda 7: a type it does not know counts as one that runs",
    c7("serviceTask", 'camunda:type="worker" camunda:topic="approve"'),
    `a service task of a type agentflow does not know for Camunda 7 (camunda:type="worker"): only an external task waits for a worker, so it may complete ${NOBODY}`,
  ],
  [
    "Camunda 7: a class beside a Zeebe job type still runs inside Camunda 7",
    c7(
      "serviceTask",
      'camunda:class="com.acme.AutoApprove"',
      '<zeebe:taskDefinition xmlns:zeebe="http://camunda.org/schema/zeebe/1.0" type="approve" />',
    ),
    runs("a service task", "Camunda 7", 'camunda:class="com.acme.AutoApprove"'),
  ],
  // Camunda 7: what waits for a worker.
  [
    "Camunda 7: an external task",
    c7("serviceTask", 'camunda:type="external" camunda:topic="approve"'),
    COUNTS,
  ],
  [
    "Camunda 7: the type decides first (External, any case, beside a class)",
    c7("serviceTask", 'camunda:type="External" camunda:topic="approve" camunda:class="com.acme.X"'),
    COUNTS,
  ],
  [
    "Camunda 7: an external send task",
    c7("sendTask", 'camunda:type="external" camunda:topic="mail"'),
    COUNTS,
  ],
  [
    "Camunda 7: an external business rule task",
    c7("businessRuleTask", 'camunda:type="external" camunda:topic="rules"'),
    COUNTS,
  ],
  // By namespace URI, never by prefix.
  [
    "Camunda's namespace under another prefix",
    camunda7(review("bpmn:", "serviceTask", 'c7:class="com.acme.AutoApprove"'), "c7"),
    runs("a service task", "Camunda 7", 'c7:class="com.acme.AutoApprove"'),
  ],
  [
    "Camunda's namespace declared on the task itself",
    camunda7(
      review("bpmn:", "serviceTask", `xmlns:cam="${CAMUNDA_NS}" cam:class="com.acme.AutoApprove"`),
      "",
    ),
    runs("a service task", "Camunda 7", 'cam:class="com.acme.AutoApprove"'),
  ],
  [
    "the camunda prefix bound to another namespace",
    camunda7(
      review("bpmn:", "serviceTask", 'camunda:class="com.acme.AutoApprove"'),
      "camunda",
      "https://example.com/not-camunda",
    ),
    COUNTS,
  ],
  [
    "Camunda's namespace bound to a prefix moddle knows (renamed ns0): read as every engine's",
    camunda7(
      review("bpmn:", "serviceTask", `xmlns:dc="${CAMUNDA_NS}" dc:class="com.acme.AutoApprove"`),
      "",
    ),
    runs(
      "a service task",
      "Camunda 7, Flowable or Activiti",
      'ns0:class="com.acme.AutoApprove", in a namespace that could not be resolved',
    ),
  ],
  [
    "a renamed namespace whose type waits in every engine",
    camunda7(review("bpmn:", "serviceTask", `xmlns:dc="${CAMUNDA_NS}" dc:type="external"`), ""),
    COUNTS,
  ],
  // Flowable: the built-in tasks and delegates run, the external worker and case tasks wait.
  [
    "Flowable: the HTTP task",
    flowable("serviceTask", 'flowable:type="http"'),
    runs("a service task", "Flowable", 'flowable:type="http"'),
  ],
  [
    "Flowable: an expression",
    flowable("serviceTask", 'flowable:expression="${true}"'),
    runs("a service task", "Flowable", 'flowable:expression="${true}"'),
  ],
  [
    "Flowable: an event registry task",
    flowable("serviceTask", 'flowable:type="send-event"'),
    runs("a service task", "Flowable", 'flowable:type="send-event"'),
  ],
  [
    "Flowable: the DMN task",
    flowable("serviceTask", 'flowable:type="dmn"'),
    runs("a service task", "Flowable", 'flowable:type="dmn"'),
  ],
  [
    "Flowable: a type it does not know counts as one that runs",
    flowable("serviceTask", 'flowable:type="External-Worker"'),
    `a service task of a type agentflow does not know for Flowable (flowable:type="External-Worker"): only an external task waits for a worker, so it may complete ${NOBODY}`,
  ],
  [
    "Flowable: a send task never waits, whatever its type",
    flowable("sendTask", 'flowable:type="external-worker"'),
    `a send task of a type agentflow does not know for Flowable (flowable:type="external-worker"): only an external task waits for a worker, so it may complete ${NOBODY}`,
  ],
  [
    "Flowable: a business rule task runs its rules",
    flowable("businessRuleTask", 'flowable:ruleVariablesInput="${order}"'),
    runs("a business rule task", "Flowable", 'flowable:ruleVariablesInput="${order}"'),
  ],
  [
    "Flowable: a user task with a skip expression",
    flowable("userTask", 'flowable:skipExpression="${skipApproval}"'),
    `an element Flowable skips when its skip expression holds (flowable:skipExpression="\${skipApproval}"), so it may complete ${NOBODY}`,
  ],
  [
    "Flowable: an external worker task",
    flowable("serviceTask", 'flowable:type="external-worker" flowable:topic="approve"'),
    COUNTS,
  ],
  [
    "Flowable: a triggerable delegate waits for its trigger",
    flowable("serviceTask", 'flowable:class="com.acme.Ask" flowable:triggerable="true"'),
    COUNTS,
  ],
  [
    "Flowable: a triggerable event registry task waits for its reply",
    flowable("serviceTask", 'flowable:type="send-event" flowable:triggerable="true"'),
    COUNTS,
  ],
  [
    "Flowable: a case task waits for its case",
    flowable("serviceTask", 'flowable:type="case"'),
    COUNTS,
  ],
  [
    "Flowable: a plain user task (control)",
    flowable("userTask", 'flowable:candidateGroups="officers"'),
    COUNTS,
  ],
  // Activiti: read as Flowable reads it.
  [
    "Activiti: a Java class",
    activiti("serviceTask", 'activiti:class="com.acme.AutoApprove"'),
    runs("a service task", "Activiti", 'activiti:class="com.acme.AutoApprove"'),
  ],
  [
    "Activiti: the mail task",
    activiti("serviceTask", 'activiti:type="mail"'),
    runs("a service task", "Activiti", 'activiti:type="mail"'),
  ],
  // Camunda 7 reads Activiti's namespace as its own: it has no `triggerable`, so the class runs.
  [
    "Activiti, as Camunda 7 reads it: a triggerable class still runs",
    activiti("serviceTask", 'activiti:class="com.acme.AutoApprove" activiti:triggerable="true"'),
    runs("a service task", "Activiti", 'activiti:class="com.acme.AutoApprove"'),
  ],
  [
    "Activiti, as Camunda 7 reads it: a DMN decision",
    activiti("businessRuleTask", 'activiti:decisionRef="approve"'),
    `a business rule task Activiti evaluates as a DMN decision (activiti:decisionRef="approve"), ${NOBODY}`,
  ],
  [
    "a business rule task with no implementation any engine waits on",
    flowable("businessRuleTask", 'flowable:resultVariable="ok"'),
    `a business rule task with no job worker, which no engine deploys as a wait (Zeebe evaluates a DMN decision, Flowable and Activiti run Drools rules, Camunda 7 needs an implementation), so it completes ${NOBODY}`,
  ],
];

/** Whether `Review` counts for `Agent`, or why not; asserts the finding and the verdict. */
async function verdict(xml: string, moddleExtensions?: ModdleExtensions): Promise<string> {
  const decision: GateDecision = await checkProcess(xml, {
    resolveWorkflow: (ref) => (ref === "agnt-refund@1.0.0" ? WORKFLOW : undefined),
    ...(moddleExtensions === undefined ? {} : { moddleExtensions }),
  });
  const blocking = decision.blocking.map((d) => [d.code, d.data.discountedGates]);
  if (decision.allowed) {
    expect(blocking).toEqual([]);
    expect(decision.agentTasks.map((t) => [t.elementId, t.gate])).toEqual([["Agent", "reached"]]);
    return COUNTS;
  }
  expect(blocking).toEqual([["AGENT_GATE_UNREACHABLE", ["Review"]]]);
  expect(decision.agentTasks.map((t) => [t.elementId, t.gate])).toEqual([["Agent", "missing"]]);
  const hint = String(decision.blocking[0]?.data.discountHint);
  const prefix = '; the gate after it does not count: "Review" is ';
  expect(hint.startsWith(prefix)).toBe(true);
  return hint.slice(prefix.length);
}

describe("a task Camunda 7, Flowable or Activiti runs inside the engine is no gate", () => {
  it.each(CASES)("%s", async (_name, xml, expected) => {
    expect(await verdict(xml)).toBe(expected);
  });
});

/** The Camunda 7 cases as the Camunda 7 Modeler reads them: camunda-bpmn-moddle registered. */
const TYPED: readonly (readonly [string, string, string])[] = [
  [
    "an expression",
    c7("serviceTask", 'camunda:expression="${true}"'),
    runs("a service task", "Camunda 7", 'camunda:expression="${true}"'),
  ],
  [
    "a DMN decision",
    c7("businessRuleTask", 'camunda:decisionRef="approve"'),
    `a business rule task Camunda 7 evaluates as a DMN decision (camunda:decisionRef="approve"), ${NOBODY}`,
  ],
  [
    "the HTTP connector",
    c7(
      "serviceTask",
      "",
      "<camunda:connector><camunda:connectorId>http-connector</camunda:connectorId></camunda:connector>",
    ),
    `a service task Camunda 7 runs with its connector "http-connector" (camunda:connector), which completes it ${NOBODY}`,
  ],
  [
    "another prefix: the package's own is named",
    camunda7(review("bpmn:", "serviceTask", 'c7:class="com.acme.X"'), "c7"),
    runs("a service task", "Camunda 7", 'camunda:class="com.acme.X"'),
  ],
  [
    "an external task",
    c7("serviceTask", 'camunda:type="external" camunda:topic="approve"'),
    COUNTS,
  ],
];

describe("the same with camunda-bpmn-moddle registered (typed attributes)", () => {
  it.each(TYPED)("%s", async (_name, xml, expected) => {
    expect(await verdict(xml, CAMUNDA_MODDLE)).toBe(expected);
  });
});
