/**
 * Camunda 8 processes a red team built from Camunda's own element templates
 * (test/fixtures/camunda/redteam/): gates that counted though nobody decides at them — an
 * inbound connector's receive task or catch, a hybrid connector, a message the agent's own tool
 * publishes, sub-processes a path goes through past nothing that waits — and AWS Bedrock
 * AgentCore Runtime, an agent that was not recognised. Each case states the verdict, the
 * findings with their targets, and the gates that do not count with why; the variants beside
 * each (the same file with an attribute changed) show what the verdict rests on.
 */
import { describe, expect, it } from "vitest";
import type { GateDecision } from "../../../src/bpmn/index.js";
import { checkProcess } from "../../../src/bpmn/index.js";
import { fixture, modelerAgent, READINGS, templatedTask } from "./fixtures.js";

const red = (name: string): string => fixture(`redteam/${name}.bpmn`);

/** The file with each `[from, to]` replaced; a `from` missing from the file fails the test. */
function edit(xml: string, ...changes: readonly (readonly [string, string])[]): string {
  let out = xml;
  for (const [from, to] of changes) {
    if (!out.includes(from)) throw new Error(`not in the fixture: ${from}`);
    out = out.split(from).join(to);
  }
  return out;
}

const AGENT = { kind: "bpmn-element", elementId: "Agent", path: "/rootElements/0/flowElements/1" };
const NOBODY =
  "past nothing that waits for anyone (a user task, a receive task, a message or signal catch, a job worker or a call activity), so it may complete with nobody deciding";
/** `"<gate>" is <why>` as the gate rules' messages end. */
const hint = (gate: string, why: string) =>
  `; the gate after it does not count: "${gate}" is ${why}`;
const SUB = `a sub-process with a path from its start to its end ${NOBODY}`;
const AD_HOC = `an ad-hoc sub-process in which an element it may activate leads to its end ${NOBODY}`;
const INBOUND = (what: string, type: string) =>
  `${what} an inbound connector subscribes with (inbound.type "${type}"): Camunda's connector runtime correlates its message when a request or event matches, with nobody deciding`;
const PUBLISHED = (on: string) =>
  `a catch event on ${on}, which the agent "Agent" can publish itself with its tool "MarkApproved" (Camunda's Send Message connector), so it completes with nobody deciding`;

/** What a case must give. */
interface Expected {
  readonly allowed: boolean;
  /** `id source resolution requirement gate` per agent task. */
  readonly tasks: readonly string[];
  /** `[code, target]` of each blocking finding. */
  readonly blocking: readonly (readonly [string, unknown])[];
  /** The gate that does not count and the end of the sentence that says why; none: every gate counts. */
  readonly discounted?: readonly [string, string];
}

const tasks = (decision: GateDecision) =>
  decision.agentTasks.map((t) =>
    [t.elementId, t.source, t.resolution, t.requirement, t.gate].join(" "),
  );

const ungated = (discounted: readonly [string, string]): Expected => ({
  allowed: false,
  tasks: ["Agent camunda derived required missing"],
  blocking: [
    ["AGENT_GATE_UNREACHABLE", AGENT],
    ["TOOL_EFFECT_NEEDS_GATE", AGENT],
  ],
  discounted,
});
const GATED: Expected = {
  allowed: true,
  tasks: ["Agent camunda derived required reached"],
  blocking: [],
};

const G3 = red("G3-http-polling-catch-gate");
const G4 = red("G4-a2a-polling-receive-gate");
const G11 = red("G11-agent-tool-publishes-gate-message");
const G13 = red("G13-hybrid-rest-connector-as-gate");
const G5 = red("G5-adhoc-gate-static-collection");
const MESSAGE_NAME = '<zeebe:input source="refund-approved" target="messageName" />';
const G5_COLLECTION = 'activeElementsCollection="=[&#34;Note&#34;]"';

const CASES: readonly (readonly [string, string, Expected])[] = [
  ["B0: a user task gate after the agent (control)", red("B0-gate"), GATED],
  [
    "G4: the A2A client's polling receive task",
    G4,
    ungated(["AgentReview", INBOUND("a receive task", "io.camunda.agenticai:a2aclient:polling:0")]),
  ],
  [
    "G4 unlinked from its template, the inbound.type kept",
    edit(G4, [
      ' zeebe:modelerTemplate="io.camunda.connectors.agenticai.a2a.client.polling.receive.v0" zeebe:modelerTemplateVersion="0"',
      "",
    ]),
    ungated(["AgentReview", INBOUND("a receive task", "io.camunda.agenticai:a2aclient:polling:0")]),
  ],
  [
    "G4 without the template and the inbound connector: a plain receive task counts",
    edit(
      G4,
      [
        ' zeebe:modelerTemplate="io.camunda.connectors.agenticai.a2a.client.polling.receive.v0" zeebe:modelerTemplateVersion="0"',
        "",
      ],
      [
        '<zeebe:property name="inbound.type" value="io.camunda.agenticai:a2aclient:polling:0" />',
        "",
      ],
    ),
    GATED,
  ],
  [
    "G3: an HTTP Polling message catch",
    G3,
    ungated(["WaitApproved", INBOUND("a catch event", "io.camunda:http-polling:1")]),
  ],
  [
    "G3 as a webhook catch",
    edit(G3, ['value="io.camunda:http-polling:1"', 'value="io.camunda:webhook:1"']),
    ungated(["WaitApproved", INBOUND("a catch event", "io.camunda:webhook:1")]),
  ],
  [
    "G3 without the template and the inbound connector: a plain message catch counts",
    edit(
      G3,
      [
        ' zeebe:modelerTemplate="io.camunda.connectors.http.Polling" zeebe:modelerTemplateVersion="8"',
        "",
      ],
      ['<zeebe:property name="inbound.type" value="io.camunda:http-polling:1" />', ""],
    ),
    GATED,
  ],
  [
    "G13: the hybrid REST connector on a job type of its own",
    G13,
    ungated([
      "Approval",
      `made from Camunda's connector template "io.camunda.connectors.HttpJson.v2-hybrid", which a connector runtime runs and completes with nobody deciding`,
    ]),
  ],
  [
    "G13 unlinked: the template id left in the elementTemplateId header",
    edit(G13, [
      ' zeebe:modelerTemplate="io.camunda.connectors.HttpJson.v2-hybrid" zeebe:modelerTemplateVersion="17"',
      "",
    ]),
    ungated([
      "Approval",
      `made from Camunda's connector template "io.camunda.connectors.HttpJson.v2-hybrid", which a connector runtime runs and completes with nobody deciding`,
    ]),
  ],
  [
    "G13 with no template at all: a job worker of one's own counts",
    edit(
      G13,
      [
        ' zeebe:modelerTemplate="io.camunda.connectors.HttpJson.v2-hybrid" zeebe:modelerTemplateVersion="17"',
        "",
      ],
      [
        '<zeebe:header key="elementTemplateId" value="io.camunda.connectors.HttpJson.v2-hybrid" />',
        "",
      ],
    ),
    GATED,
  ],
  [
    "G11: a message catch the agent's Send Message tool publishes",
    G11,
    ungated(["Approved", PUBLISHED('the message "refund-approved"')]),
  ],
  [
    "G11 with the tool's message name chosen by the model (fromAi): it may be this one",
    edit(G11, [
      MESSAGE_NAME,
      '<zeebe:input source="=fromAi(toolCall.message, &#34;message&#34;)" target="messageName" />',
    ]),
    ungated(["Approved", PUBLISHED('the message "refund-approved"')]),
  ],
  [
    "G11 with the catch's message name a FEEL expression: it may be the tool's",
    edit(G11, ['name="refund-approved"', 'name="=approvalMessage"']),
    ungated(["Approved", PUBLISHED("a message whose name is known only at run time")]),
  ],
  [
    "G11 with the tool publishing another message: the catch counts",
    edit(G11, [MESSAGE_NAME, '<zeebe:input source="refund-denied" target="messageName" />']),
    GATED,
  ],
  [
    "G2: a gate sub-process whose user task no flow reaches",
    red("G2-subprocess-gate-disconnected-review"),
    ungated(["Approval", SUB]),
  ],
  [
    "G1: a gate sub-process whose default flow goes round the user task",
    red("G1-subprocess-gate-xor-skip"),
    ungated(["Approval", SUB]),
  ],
  [
    "G5: an ad-hoc gate whose static collection activates only a script",
    G5,
    ungated(["Approval", AD_HOC]),
  ],
  [
    "G5 activating the script and the user task: the script's way waits for nobody",
    edit(G5, [
      G5_COLLECTION,
      'activeElementsCollection="=[&#34;Note&#34;, &#34;OfficerReview&#34;]"',
    ]),
    ungated(["Approval", AD_HOC]),
  ],
  [
    "G5 activating only the user task: the gate counts",
    edit(G5, [G5_COLLECTION, 'activeElementsCollection="=[&#34;OfficerReview&#34;]"']),
    GATED,
  ],
  [
    "G20: a gate sub-process where only the checker agent's tool container holds a user task",
    red("G20-gate-subprocess-only-agent-tool-usertask"),
    {
      ...ungated(["Approval", SUB]),
      tasks: ["Agent camunda derived required missing", "Checker camunda derived optional missing"],
    },
  ],
];

describe.each(READINGS)("red-team gates (%s)", (_, reading) => {
  it.each(CASES)("%s", async (_name, xml, expected) => {
    const decision = await checkProcess(xml, reading);
    expect(decision.allowed).toBe(expected.allowed);
    expect(tasks(decision)).toEqual(expected.tasks);
    expect(decision.blocking.map((d) => [d.code, d.target])).toEqual(expected.blocking);
    const [gate, why] = expected.discounted ?? ["", ""];
    for (const finding of decision.blocking) {
      expect(finding.data.discountedGates).toEqual(gate === "" ? [] : [gate]);
      expect(finding.data.discountHint).toBe(gate === "" ? "" : hint(gate, why));
    }
  });
});

const R1 = red("R1-agentcore-runtime-standalone");
const R1_TEMPLATE =
  ' zeebe:modelerTemplate="io.camunda.connectors.aws.bedrock.agentcore.runtime.v1" zeebe:modelerTemplateVersion="2"';
const R1_HEADER =
  '<zeebe:header key="elementTemplateId" value="io.camunda.connectors.aws.bedrock.agentcore.runtime.v1" />';
const R1_JOB = 'type="io.camunda:aws-bedrock-agentcore-runtime:1"';

describe.each(READINGS)("AWS Bedrock AgentCore Runtime runs an agent (%s)", (_, reading) => {
  it.each([
    ["as Camunda Modeler writes it", R1, "RemoteAgent"],
    [
      "unlinked from its template: the job type alone",
      edit(R1, [R1_TEMPLATE, ""], [R1_HEADER, ""]),
      "RemoteAgent",
    ],
    [
      "as the hybrid template writes it, on a job type of its own",
      edit(
        R1,
        [R1_TEMPLATE, R1_TEMPLATE.replace(".runtime.v1", ".runtime.v1-hybrid")],
        [R1_JOB, 'type="selfmanaged:agentcore:1"'],
      ),
      "RemoteAgent",
    ],
    ["the A2A client in its place (control)", red("R1b-a2a-standalone-control"), "RemoteA2A"],
  ])("%s: an agent nothing in the BPMN describes, needing a gate", async (_name, xml, id) => {
    const decision = await checkProcess(xml, reading);
    expect(decision.allowed).toBe(false);
    expect(tasks(decision)).toEqual([`${id} camunda unresolved required missing`]);
    expect(decision.blocking.map((d) => [d.code, d.target])).toEqual([
      [
        "AGENT_GATE_UNREACHABLE",
        { kind: "bpmn-element", elementId: id, path: "/rootElements/0/flowElements/1" },
      ],
    ]);
  });

  it("as a tool of an AI agent it is that agent's tool, not an agent task of its own", async () => {
    const tool = templatedTask(
      "Remote",
      "io.camunda.connectors.aws.bedrock.agentcore.runtime.v1",
      "io.camunda:aws-bedrock-agentcore-runtime:1",
      { "input.agentRuntimeArn": "arn:aws:bedrock-agentcore:eu-central-1:1:runtime/a" },
    );
    const decision = await checkProcess(modelerAgent(tool, { gate: true }), reading);
    expect(decision.allowed).toBe(true);
    expect(tasks(decision)).toEqual(["Agent camunda derived required reached"]);
    expect(decision.agentTasks[0]?.dependencies.map((d) => [d.nodeId, d.effect])).toEqual([
      ["Remote", "write-irreversible"],
    ]);
  });
});
