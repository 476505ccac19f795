/**
 * A signal catch the agent's own tool can broadcast is no gate (docs/gate-paths.md): Zeebe
 * broadcasts a signal to every instance waiting for it, so a signal throw or end event among an
 * AI agent's tools (or the steps after them, or nested in either) completes the catch when the
 * agent chooses. Each case is `Start → Agent → Review → End`, drawn with DI: `Agent` an AI Agent
 * sub-process as Camunda Modeler writes it (template `aiagent.jobworker.v1`), `Review` the
 * `<btv:gate/>` catch on the signal `refund-approved`; the tools change from case to case.
 */
import { describe, expect, it } from "vitest";
import type { GateDecision } from "../../../src/bpmn/index.js";
import { checkProcess } from "../../../src/bpmn/index.js";
import {
  chain,
  element,
  endEvent,
  gateMarker,
  processElement,
  startEvent,
  subProcess,
  userTask,
  BPMN_NS,
  BTV_NS,
  ZEEBE_NS,
} from "../builders.js";
import { withDiagram } from "../diagram.js";
import { READINGS, templatedTask } from "./fixtures.js";

/** A read-only REST tool: the agent's first tool in every case. */
const LOOKUP = templatedTask(
  "LookupOrder",
  "io.camunda.connectors.HttpJson.v2",
  "io.camunda:http-json:1",
  { method: "GET", url: "=&#34;https://shop.example.com/orders/&#34; + toolCall.order" },
);

/** The AI Agent sub-process `id` holding `tools`, as Camunda Modeler 5 saves it for 8.8. */
const aiAgent = (id: string, tools: readonly (string | readonly string[])[]) =>
  subProcess(id, [...tools], {
    adHoc: true,
    ext: [
      '<zeebe:adHoc outputCollection="toolCallResults" outputElement="={id: toolCall._meta.id, content: toolCallResult}" />',
      '<zeebe:taskDefinition type="io.camunda.agenticai:aiagent-job-worker:1" retries="3" />',
      '<zeebe:ioMapping><zeebe:input source="openai" target="provider.type" /><zeebe:input source="gpt-4o" target="provider.openai.model.model" /><zeebe:input source="=8" target="data.limits.maxModelCalls" /></zeebe:ioMapping>',
      '<zeebe:taskHeaders><zeebe:header key="elementTemplateVersion" value="11" /><zeebe:header key="elementTemplateId" value="io.camunda.connectors.agenticai.aiagent.jobworker.v1" /></zeebe:taskHeaders>',
    ],
  }).replace(
    `id="${id}"`,
    `id="${id}" zeebe:modelerTemplate="io.camunda.connectors.agenticai.aiagent.jobworker.v1" zeebe:modelerTemplateVersion="11"`,
  );

/** A signal throw (or `end` event) `id` on `signal` (a `bpmn:signal` id; none: no signalRef). */
const throwing = (id: string, signal: string | undefined, tag = "intermediateThrowEvent") =>
  element(tag, id, {
    attrs: { "btv:toolEffect": "read" },
    children: [
      `<bpmn:signalEventDefinition id="${id}_d"${signal === undefined ? "" : ` signalRef="${signal}"`} />`,
    ],
  });
/** A read-only tool `id` that calls the process `processId`. */
const calling = (id: string, processId: string) =>
  element("callActivity", id, {
    attrs: { "btv:toolEffect": "read" },
    ext: [`<zeebe:calledElement processId="${processId}" propagateAllChildVariables="false" />`],
  });
/** `xml` (whose first id is `id`) marked read-only, so that only the gate decides a finding. */
const readOnly = (xml: string, id: string) =>
  xml.replace(`id="${id}"`, `id="${id}" btv:toolEffect="read"`);
/** The gate: a catch on `signal`, with more definitions (parallel when told). */
const catching = (signal: string, more: readonly string[] = [], parallel = false) =>
  element("intermediateCatchEvent", "Review", {
    ...(parallel ? { attrs: { parallelMultiple: "true" } } : {}),
    ext: [gateMarker("supervisor")],
    children: [`<bpmn:signalEventDefinition id="Review_d" signalRef="${signal}" />`, ...more],
  });

/** The signals and message the cases name. */
const SIGNALS = [
  '<bpmn:signal id="Approved" name="refund-approved" />',
  '<bpmn:signal id="Denied" name="refund-denied" />',
  '<bpmn:signal id="ByFeel" name="=signalName" />',
  '<bpmn:signal id="FeelLiteral" name="=&#34;refund-approved&#34;" />',
  '<bpmn:message id="Msg" name="refund-approved" />',
];

/** `Start → Agent → gate → End`, the agent holding `tools`; `more` root elements after it. */
function refund(
  tools: readonly (string | readonly string[])[],
  options: { readonly gate?: string; readonly more?: readonly string[] } = {},
): string {
  const doc = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<bpmn:definitions xmlns:bpmn="${BPMN_NS}" xmlns:btv="${BTV_NS}" xmlns:zeebe="${ZEEBE_NS}" xmlns:modeler="http://camunda.org/schema/modeler/1.0" id="Definitions_1" targetNamespace="http://bpmn.io/schema/bpmn" exporter="Camunda Modeler" exporterVersion="5.44.0" modeler:executionPlatform="Camunda Cloud" modeler:executionPlatformVersion="8.8.0">`,
    processElement(
      "refund_triage",
      startEvent("Start"),
      aiAgent("Agent", [LOOKUP, ...tools]),
      options.gate ?? catching("Approved"),
      endEvent("End"),
      chain("Start", "Agent", "Review", "End"),
    ),
    ...(options.more ?? []),
    ...SIGNALS,
    "</bpmn:definitions>",
  ];
  return doc.join("\n");
}

const NOBODY = "so it completes with nobody deciding";
const ON_APPROVED = 'a catch event on the signal "refund-approved"';
const COUNTS = "counts";

const CASES: readonly (readonly [string, string, string])[] = [
  ["no tool throws a signal (control)", refund([]), COUNTS],
  [
    "a tool throws the signal",
    refund([throwing("SignalApproved", "Approved")]),
    `${ON_APPROVED}, which the agent "Agent" can broadcast itself with its tool "SignalApproved" (a signal throw event), ${NOBODY}`,
  ],
  [
    "a signal end event after a tool, in the tool's own flow",
    refund([
      readOnly(templatedTask("Decide", undefined, "acme:decide:1"), "Decide"),
      throwing("Announce", "Approved", "endEvent"),
      chain("Decide", "Announce"),
    ]),
    `${ON_APPROVED}, which the agent "Agent" can broadcast itself with its tool "Announce" (a signal end event), ${NOBODY}`,
  ],
  [
    "a throw nested in a sub-process tool",
    refund([
      readOnly(
        subProcess("Escalate", [
          startEvent("EscStart"),
          throwing("Raise", "Approved"),
          endEvent("EscEnd"),
          chain("EscStart", "Raise", "EscEnd"),
        ]),
        "Escalate",
      ),
    ]),
    `${ON_APPROVED}, which the agent "Agent" can broadcast itself with its tool "Escalate" (a signal throw event "Raise" in it), ${NOBODY}`,
  ],
  [
    "a throw whose signal name is FEEL: it may be any signal",
    refund([throwing("SignalAny", "ByFeel")]),
    `${ON_APPROVED}, which the agent "Agent" can broadcast itself with its tool "SignalAny" (a signal throw event whose signal is known only at run time), ${NOBODY}`,
  ],
  [
    "a throw with no signal: it may be any signal",
    refund([throwing("SignalNone", undefined)]),
    `${ON_APPROVED}, which the agent "Agent" can broadcast itself with its tool "SignalNone" (a signal throw event whose signal is known only at run time), ${NOBODY}`,
  ],
  [
    "a throw whose name is a FEEL string literal of the same signal",
    refund([throwing("SignalLiteral", "FeelLiteral")]),
    `${ON_APPROVED}, which the agent "Agent" can broadcast itself with its tool "SignalLiteral" (a signal throw event), ${NOBODY}`,
  ],
  [
    "a catch whose signal name is FEEL: any throw may be it",
    refund([throwing("SignalDenied", "Denied")], { gate: catching("ByFeel") }),
    `a catch event on a signal whose name is known only at run time, which the agent "Agent" can broadcast itself with its tool "SignalDenied" (a signal throw event), ${NOBODY}`,
  ],
  ["a tool throws another signal", refund([throwing("SignalDenied", "Denied")]), COUNTS],
  [
    "another agent of the document throws it, in a process of its own",
    refund([], {
      more: [
        processElement(
          "other",
          startEvent("OtherStart"),
          aiAgent("Helper", [throwing("HelperSignal", "Approved")]),
          endEvent("OtherEnd"),
          chain("OtherStart", "Helper", "OtherEnd"),
        ),
      ],
    }),
    `${ON_APPROVED}, which the agent "Helper" can broadcast itself with its tool "HelperSignal" (a signal throw event), ${NOBODY}`,
  ],
  [
    "a parallel catch that also waits for a message nobody's tool publishes",
    refund([throwing("SignalApproved", "Approved")], {
      gate: catching(
        "Approved",
        ['<bpmn:messageEventDefinition id="Review_m" messageRef="Msg" />'],
        true,
      ),
    }),
    COUNTS,
  ],
  [
    "a gate sub-process whose only wait is such a catch",
    refund([throwing("SignalApproved", "Approved")], {
      gate: subProcess(
        "Review",
        [
          startEvent("RevStart"),
          element("intermediateCatchEvent", "Wait", {
            children: ['<bpmn:signalEventDefinition id="Wait_d" signalRef="Approved" />'],
          }),
          endEvent("RevEnd"),
          chain("RevStart", "Wait", "RevEnd"),
        ],
        { ext: [gateMarker("supervisor")] },
      ),
    }),
    "a sub-process with a path from its start to its end past nothing that waits for anyone (a user task, a receive task, a message or signal catch, a job worker or a call activity), so it may complete with nobody deciding",
  ],
  [
    "a tool calls a process of the document that throws the signal",
    refund([calling("Notify", "notify")], {
      more: [
        processElement(
          "notify",
          startEvent("NotifyStart"),
          throwing("Broadcast", "Approved", "endEvent"),
          chain("NotifyStart", "Broadcast"),
        ),
      ],
    }),
    `${ON_APPROVED}, which the agent "Agent" can broadcast itself with its tool "Notify" (a signal end event "Broadcast" in the process its call "Notify" starts), ${NOBODY}`,
  ],
  [
    "a tool calls a process the document does not hold: it may send any signal",
    refund([calling("Notify", "notify-elsewhere")]),
    `${ON_APPROVED}, which the agent "Agent" can broadcast itself with its tool "Notify" (it calls a process agentflow cannot read, which may send any signal), ${NOBODY}`,
  ],
  [
    "a message catch, and a tool calls a process whose Send Message connector publishes it",
    refund([calling("Notify", "notify")], {
      gate: element("intermediateCatchEvent", "Review", {
        ext: [gateMarker("supervisor")],
        children: ['<bpmn:messageEventDefinition id="Review_m" messageRef="Msg" />'],
      }),
      more: [
        processElement(
          "notify",
          startEvent("NotifyStart"),
          templatedTask(
            "Publish",
            "io.camunda.connectors.message.sendMessage.v1",
            "io.camunda:sendMessage:1",
            {
              messageName: "refund-approved",
            },
          ),
          chain("NotifyStart", "Publish"),
        ),
      ],
    }),
    `a catch event on the message "refund-approved", which the agent "Agent" can publish itself with its tool "Notify" (Camunda's Send Message connector "Publish" in the process its call "Notify" starts), ${NOBODY}`,
  ],
  [
    "a user task gate beside a signal tool (control)",
    refund([throwing("SignalApproved", "Approved")], {
      gate: userTask("Review", { ext: ["<zeebe:userTask />", gateMarker("supervisor")] }),
    }),
    COUNTS,
  ],
];

/** Whether `Review` counts for `Agent`, or why not; asserts the findings on `Agent`. */
async function verdict(xml: string, reading: (typeof READINGS)[number][1]): Promise<string> {
  const decision: GateDecision = await checkProcess(await withDiagram(xml), reading);
  expect(decision.blocking.filter((d) => d.code === "BPMN_PARSE")).toEqual([]);
  const onAgent = decision.blocking.filter(
    (d) => "elementId" in d.target && d.target.elementId === "Agent",
  );
  const task = decision.agentTasks.find((t) => t.elementId === "Agent");
  if (onAgent.length === 0) {
    expect(task?.gate).toBe("reached");
    return COUNTS;
  }
  expect(task?.gate).toBe("missing");
  expect(onAgent.map((d) => [d.code, d.data.discountedGates])).toEqual([
    ["AGENT_GATE_UNREACHABLE", ["Review"]],
  ]);
  const hint = String(onAgent[0]?.data.discountHint);
  const prefix = '; the gate after it does not count: "Review" is ';
  expect(hint.startsWith(prefix)).toBe(true);
  return hint.slice(prefix.length);
}

describe.each(READINGS)("a signal an agent's tool can broadcast (%s)", (_, reading) => {
  it.each(CASES)("%s", async (_name, xml, expected) => {
    expect(await verdict(xml, reading)).toBe(expected);
  });
});

/** An AI Agent task whose container is named by FEEL: any ad-hoc sub-process may be it. */
const FEEL_CONTAINER = refund([], {
  more: [
    processElement(
      "other",
      startEvent("OtherStart"),
      templatedTask(
        "Checker",
        "io.camunda.connectors.agenticai.aiagent.v1",
        "io.camunda.agenticai:aiagent:1",
        {
          "provider.type": "openai",
          "provider.openai.model.model": "gpt-4o",
          "data.tools.containerElementId": "=toolsId",
          "data.limits.maxModelCalls": "=5",
        },
      ),
      subProcess("Tools", [throwing("Maybe", "Approved")], { adHoc: true }),
      endEvent("OtherEnd"),
      chain("OtherStart", "Checker", "OtherEnd"),
    ),
  ],
});

describe.each(READINGS)("a container named by FEEL (%s)", (_, reading) => {
  it("a throw in any ad-hoc sub-process may be that agent's", async () => {
    expect(await verdict(FEEL_CONTAINER, reading)).toBe(
      `${ON_APPROVED}, which the agent "Checker" may broadcast itself with "Maybe" (a signal throw event) of the ad-hoc sub-process "Tools", which may be its tool container (it names its container by FEEL that cannot be read), so it may complete with nobody deciding`,
    );
  });
});
