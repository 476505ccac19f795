import type { ModdleObject } from "../../../src/bpmn/index.js";
import { instanceOf } from "../../../src/bpmn/index.js";
import { rule } from "../../../src/bpmn/rules/AGENT_GATE_UNREACHABLE.js";
import {
  agent,
  CAMUNDA_AGENTS,
  camundaCase,
  agentWorkflow,
  boundaryEvent,
  chain,
  definitions,
  element,
  endEvent,
  exclusiveGateway,
  flow,
  gate,
  gateMarker,
  HELPER,
  nodePath,
  processElement,
  processXml,
  startEvent,
  subProcess,
  task,
  templateAgent,
  userTask,
  ZEEBE_MODDLE,
} from "../builders.js";
import { at, bpmnRuleTester } from "../rule-tester.js";
import { aiAgent, effectTool } from "./ai-agent.js";

const CODE = "AGENT_GATE_UNREACHABLE";
const registry = [
  agentWorkflow("agnt-two@1.0.0", 2),
  agentWorkflow("agnt-three@1.0.0", 3),
  agentWorkflow("agnt-four@1.0.0", 4),
  agentWorkflow("agnt-five@1.0.0", 5),
  agentWorkflow("agnt-four-loop@1.0.0", 4, { justified: 2 }),
  HELPER,
];
const level2 = agent("A", { ref: "agnt-two@1.0.0", level: "2" });
const everyUserTask = (element: ModdleObject): boolean => instanceOf(element, "bpmn:UserTask");

/** A Camunda AI agent with one read-only tool (read at level 2: a loop), naming `ref`. */
const readingAgent = (ref: string, level?: string) =>
  aiAgent("A", {
    ref,
    ...(level === undefined ? {} : { level }),
    tools: [effectTool("Look", "read")],
  });
/** The variant's agent `A` naming `ref` with the bare btv attribute. */
const naming = (xml: string, ref: string) =>
  xml.replace('id="A"', `id="A" btv:agentWorkflowRef="${ref}"`);

/** S → A → E: the agent task `A` with nothing after it. */
const ungated = (agentXml: string) =>
  processXml(startEvent("S"), agentXml, endEvent("E"), chain("S", "A", "E"));
/** S → A → G → E with a `<btv:gate/>` user task `G`. */
const gated = (agentXml: string) =>
  processXml(startEvent("S"), agentXml, gate("G"), endEvent("E"), chain("S", "A", "G", "E"));

/** A `<btv:gate/>` user task `G` with these loop characteristics (XML text). */
const loopGate = (loop: string) =>
  processXml(
    startEvent("S"),
    level2,
    userTask("G", { ext: [gateMarker()], children: [loop] }),
    endEvent("E"),
    chain("S", "A", "G", "E"),
  );
/** Multi-instance over a Zeebe input collection. */
const overCollection = (collection: string) =>
  `<bpmn:multiInstanceLoopCharacteristics><bpmn:extensionElements><zeebe:loopCharacteristics inputCollection="${collection}" inputElement="r" /></bpmn:extensionElements></bpmn:multiInstanceLoopCharacteristics>`;
/** Multi-instance with a BPMN loop cardinality. */
const cardinality = (body: string) =>
  `<bpmn:multiInstanceLoopCharacteristics><bpmn:loopCardinality>${body}</bpmn:loopCardinality></bpmn:multiInstanceLoopCharacteristics>`;

/** S → A → G → E where `G` is this element, marked `<btv:gate/>` by the caller. */
const kindGate = (gateXml: string) =>
  processXml(startEvent("S"), level2, gateXml, endEvent("E"), chain("S", "A", "G", "E"));
/** Element `G` of this tag, marked as a gate, with more extension values and children. */
const markedG = (tag: string, ext: readonly string[] = [], children: readonly string[] = []) =>
  element(tag, "G", { ext: [gateMarker(), ...ext], children });
const job = (type: string) => `<zeebe:taskDefinition type="${type}" />`;
const message = '<bpmn:messageEventDefinition id="G_m" />';
const signal = '<bpmn:signalEventDefinition id="G_s" />';
const timer =
  '<bpmn:timerEventDefinition id="G_t"><bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition>';
/** A gate sub-process `G` holding these elements between its start and end. */
const subGate = (...inner: { readonly xml: string; readonly id: string }[]) =>
  subProcess(
    "G",
    [
      startEvent("GS"),
      ...inner.map((i) => i.xml),
      endEvent("GE"),
      chain("GS", ...inner.map((i) => i.id), "GE"),
    ],
    { ext: [gateMarker()] },
  );
/**
 * S → A → G → E where `G` is a call activity marked as a gate, calling process `Called` of the
 * same document, which holds `inner` between its start and end.
 */
const callingInDocument = (call: string, inner: { readonly xml: string; readonly id: string }) =>
  definitions(
    processElement("P", startEvent("S"), level2, call, endEvent("E"), chain("S", "A", "G", "E")),
    processElement(
      "Called",
      startEvent("CS"),
      inner.xml,
      endEvent("CE"),
      chain("CS", inner.id, "CE"),
    ),
  );
const callActivity = (attrs: Readonly<Record<string, string>>, ext: readonly string[] = []) =>
  element("callActivity", "G", { attrs, ext: [gateMarker(), ...ext] });
/** Kinds of element the engine cannot complete until someone outside it acts: they count. */
const WAITING_KINDS: readonly (readonly [string, string])[] = [
  ["a receive task", markedG("receiveTask")],
  ["a message catch event", markedG("intermediateCatchEvent", [], [message])],
  ["a signal catch event", markedG("intermediateCatchEvent", [], [signal])],
  [
    "a catch event that waits for a message and a timer both (parallelMultiple)",
    element("intermediateCatchEvent", "G", {
      attrs: { parallelMultiple: "true" },
      ext: [gateMarker()],
      children: [message, timer],
    }),
  ],
  [
    "a call activity",
    element("callActivity", "G", { attrs: { calledElement: "Review" }, ext: [gateMarker()] }),
  ],
  ["a service task a job worker completes", markedG("serviceTask", [job("payment-approval")])],
  [
    "a service task whose job type is a FEEL string literal",
    markedG("serviceTask", [job("=&quot;payment-approval&quot;")]),
  ],
  ["a send task with no engine extension", markedG("sendTask")],
  ["a script task run by a job worker", markedG("scriptTask", [job("review-script")])],
  ["a business rule task run by a job worker", markedG("businessRuleTask", [job("rules")])],
  ["a sub-process holding a user task", subGate({ xml: userTask("GU"), id: "GU" })],
];
/** Kinds of element the engine completes by itself, with the end of the sentence that says so. */
const PASSING_KINDS: readonly (readonly [string, string, string])[] = [
  [
    "a manual task",
    markedG("manualTask"),
    "a manual task, which the engine completes as soon as it is reached",
  ],
  [
    "a task with no type",
    markedG("task"),
    "a task with no type, which the engine completes as soon as it is reached",
  ],
  [
    "an exclusive gateway",
    markedG("exclusiveGateway"),
    "a gateway, which routes the token with nobody deciding",
  ],
  [
    "a none throw event",
    markedG("intermediateThrowEvent"),
    "a throw event, which completes as soon as it is reached",
  ],
  [
    "a timer catch event",
    markedG("intermediateCatchEvent", [], [timer]),
    "a catch event with timer, which the engine completes with nobody deciding",
  ],
  [
    "a catch event a message or a timer completes, whichever comes first",
    markedG("intermediateCatchEvent", [], [message, timer]),
    "a catch event with message or timer, which the engine completes with nobody deciding",
  ],
  [
    "a script task the engine evaluates (FEEL)",
    markedG("scriptTask", ['<zeebe:script expression="=true" resultVariable="ok" />']),
    "a script task, which the engine runs to its result with nobody deciding",
  ],
  [
    "a business rule task that evaluates a DMN decision",
    markedG("businessRuleTask", [
      '<zeebe:calledDecision decisionId="approve" resultVariable="ok" />',
    ]),
    "a business rule task that evaluates a DMN decision, with nobody deciding",
  ],
  [
    "a Camunda REST connector",
    markedG("serviceTask", [job("io.camunda:http-json:1")]),
    'run by Camunda\'s connector runtime (job type "io.camunda:http-json:1"), which completes it with nobody deciding',
  ],
  [
    "a sub-process holding only a plain task",
    subGate({ xml: task("GT"), id: "GT" }),
    "a sub-process with a path from its start to its end past nothing that waits for anyone (a user task, a receive task, a message or signal catch, a job worker or a call activity), so it may complete with nobody deciding",
  ],
  [
    "a sub-process holding only an agent (at level 4, which needs no gate of its own)",
    subGate({ xml: agent("GA", { ref: "agnt-four@1.0.0", level: "4" }), id: "GA" }),
    "a sub-process with a path from its start to its end past nothing that waits for anyone (a user task, a receive task, a message or signal catch, a job worker or a call activity), so it may complete with nobody deciding",
  ],
];

await bpmnRuleTester(rule, {
  valid: [
    {
      name: "a multi-instance gate over a list literal with an item, or a cardinality of 2",
      xml: loopGate(overCollection("=[&quot;legal&quot;, &quot;risk&quot;]")),
      registry,
    },
    { name: "a multi-instance gate of cardinality 2", xml: loopGate(cardinality("2")), registry },
    {
      name: "a multi-instance gate over a list literal with a comment after it",
      xml: loopGate(overCollection("=[&quot;legal&quot;] // the reviewers")),
      registry,
    },
    {
      name: "a standard loop gate that tests after its turn",
      xml: loopGate("<bpmn:standardLoopCharacteristics />"),
      registry,
    },
    { name: "a gate right after the agent task", xml: gated(level2), registry },
    {
      name: "a call activity of a process of the same document that holds a user task",
      xml: callingInDocument(callActivity({ calledElement: "Called" }), {
        xml: userTask("Look"),
        id: "Look",
      }),
      registry,
    },
    {
      name: "a call activity of a process the document does not hold: the modeller's declaration",
      xml: callingInDocument(callActivity({ calledElement: "Elsewhere" }), {
        xml: task("Look"),
        id: "Look",
      }),
      registry,
    },
    {
      name: "a call activity whose process is a FEEL expression: known only when it runs",
      xml: callingInDocument(callActivity({}, ['<zeebe:calledElement processId="=next" />']), {
        xml: task("Look"),
        id: "Look",
      }),
      registry,
    },
    ...WAITING_KINDS.map(([name, xml]) => ({
      name: `a gate that is ${name}: someone outside the engine completes it`,
      xml: kindGate(xml),
      registry,
    })),
    {
      name: "a gate inside a sub-process after the agent task",
      xml: processXml(
        startEvent("S"),
        level2,
        subProcess("Review", [startEvent("RS"), gate("G"), endEvent("RE"), chain("RS", "G", "RE")]),
        endEvent("E"),
        chain("S", "A", "Review", "E"),
      ),
      registry,
    },
    {
      name: "an agent task inside a sub-process, the gate after the sub-process",
      xml: processXml(
        startEvent("S"),
        subProcess("Work", [startEvent("WS"), level2, endEvent("WE"), chain("WS", "A", "WE")]),
        gate("G"),
        endEvent("E"),
        chain("S", "Work", "G", "E"),
      ),
      registry,
    },
    {
      name: "an agent task in an ad-hoc sub-process, the gate after it",
      xml: processXml(
        startEvent("S"),
        subProcess("Tools", [level2, task("T")], { adHoc: true }),
        gate("G"),
        endEvent("E"),
        chain("S", "Tools", "G", "E"),
      ),
      registry,
    },
    {
      name: "a gate on one branch only is AGENT_GATE_BYPASS's, not this rule's",
      xml: processXml(
        startEvent("S"),
        level2,
        exclusiveGateway("X"),
        gate("G"),
        endEvent("E1"),
        endEvent("E2"),
        chain("S", "A", "X", "G", "E1"),
        flow("X", "E2"),
      ),
      registry,
    },
    {
      name: "a gate reached only through a boundary event is reachable (the bypass is another rule's)",
      xml: processXml(
        startEvent("S"),
        level2,
        boundaryEvent("B", "A"),
        gate("G"),
        endEvent("E1"),
        endEvent("E2"),
        chain("S", "A", "E1"),
        chain("B", "G", "E2"),
      ),
      registry,
    },
    {
      name: "an agent task in an ad-hoc sub-process with a gate sibling (bypassed, not unreachable)",
      xml: processXml(
        startEvent("S"),
        subProcess("Tools", [level2, gate("G")], { adHoc: true }),
        endEvent("E"),
        chain("S", "Tools", "E"),
      ),
      registry,
    },
    {
      name: "level 4 without a gate is AGENT_GATE_OPTIONAL's",
      xml: ungated(agent("A", { ref: "agnt-four@1.0.0", level: "4" })),
      registry,
    },
    {
      name: "level 5 needs no gate in the process",
      xml: ungated(agent("A", { ref: "agnt-five@1.0.0", level: "5" })),
      registry,
    },
    {
      name: "a level taken from the workflow (4, delegating) when the task states none",
      xml: ungated(agent("A", { ref: "agnt-four@1.0.0" })),
      registry,
    },
    ...CAMUNDA_AGENTS.flatMap((variant) =>
      (["gate-optional", "ignore"] as const).map((policy) => ({
        ...camundaCase(variant, policy),
        xml: ungated(variant.xml("A")),
      })),
    ),
    ...CAMUNDA_AGENTS.map((variant) => ({
      ...camundaCase(variant, undefined),
      name: `${variant.label} naming a level-4 agent: the BPMN draws no agent, the ref decides`,
      xml: ungated(naming(variant.xml("A"), "agnt-four@1.0.0")),
      registry,
    })),
    {
      name: "a btv ref on a Camunda AI agent, gated",
      xml: gated(readingAgent("agnt-four@1.0.0")),
      registry,
    },
    {
      name: "Camunda agent (element template, zeebe-bpmn-moddle registered) followed by a gate",
      xml: gated(templateAgent("A")),
      moddleExtensions: ZEEBE_MODDLE,
    },
    {
      name: "custom isGate: every user task is a gate, unmarked",
      xml: processXml(
        startEvent("S"),
        level2,
        userTask("U"),
        endEvent("E"),
        chain("S", "A", "U", "E"),
      ),
      registry,
      isGate: everyUserTask,
    },
    {
      name: "a service task without an agent declaration is no agent task",
      xml: ungated(task("A")),
      registry,
    },
  ],
  invalid: [
    ...PASSING_KINDS.map(([name, xml, why]) => ({
      name: `a gate that is ${name} completes with nobody deciding: it does not count`,
      xml: kindGate(xml),
      registry,
      errors: [
        {
          ...at(CODE, "A", nodePath(1)),
          data: {
            discountedGates: ["G"],
            discountHint: `; the gate after it does not count: "G" is ${why}`,
          },
        },
      ],
    })),
    ...[
      ["BPMN's calledElement", callActivity({ calledElement: "Called" })],
      [
        "zeebe:calledElement",
        callActivity({}, [
          '<zeebe:calledElement processId="Called" propagateAllChildVariables="false" />',
        ]),
      ],
    ].map(([how, call]) => ({
      name: `a call activity (${how ?? ""}) of a process of the same document where nothing waits`,
      xml: callingInDocument(call ?? "", {
        xml: element("scriptTask", "Score", {
          ext: ['<zeebe:script expression="=true" resultVariable="ok" />'],
        }),
        id: "Score",
      }),
      registry,
      errors: [
        {
          ...at(CODE, "A", nodePath(1)),
          data: {
            discountedGates: ["G"],
            discountHint:
              '; the gate after it does not count: "G" is a call activity of the process "Called" in this document, which has a path from its start to its end past nothing that waits for anyone (a user task, a receive task, a message or signal catch, a job worker or a call activity), so it may complete with nobody deciding',
          },
        },
      ],
    })),
    {
      name: "a Camunda connector read with zeebe-bpmn-moddle's types is no gate either",
      xml: kindGate(markedG("serviceTask", [job("io.camunda:http-json:1")])),
      registry,
      moddleExtensions: ZEEBE_MODDLE,
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { discountedGates: ["G"] } }],
    },
    {
      name: "a multi-instance gate over a collection that may be empty does not count",
      xml: loopGate(overCollection("=agent.reviewers")),
      registry,
      errors: [
        {
          ...at(CODE, "A", nodePath(1)),
          message:
            'agent task "A" (autonomy level 2) needs an approval gate downstream, but no gate is reachable from it; the gate after it does not count: "G" is multi-instance over the collection =agent.reviewers, which may be empty, and an empty multi-instance completes at once with nobody approving',
          data: { discountedGates: ["G"] },
        },
      ],
    },
    {
      name: "a multi-instance gate over an empty list literal does not count",
      xml: loopGate(overCollection("=[]")),
      registry,
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { discountedGates: ["G"] } }],
    },
    {
      name: "a filtered list literal may be empty",
      xml: loopGate(overCollection("=[1, 2][item &gt; 5]")),
      registry,
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { discountedGates: ["G"] } }],
    },
    {
      name: "a list literal FEEL cannot read (a trailing comma) proves no item",
      xml: loopGate(overCollection("=[&quot;legal&quot;,]")),
      registry,
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { discountedGates: ["G"] } }],
    },
    {
      name: "a cardinality that is an expression may be 0",
      xml: loopGate(cardinality("=count")),
      registry,
      errors: [
        {
          ...at(CODE, "A", nodePath(1)),
          data: {
            discountedGates: ["G"],
            discountHint:
              '; the gate after it does not count: "G" is multi-instance with the cardinality =count, which is not a number of at least 1, so it may run no instance',
          },
        },
      ],
    },
    {
      name: "a standard loop that tests before its first turn may not run",
      xml: loopGate('<bpmn:standardLoopCharacteristics testBefore="true" />'),
      registry,
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { discountedGates: ["G"] } }],
    },
    {
      name: "a level-2 agent task with no gate after it",
      xml: ungated(level2),
      registry,
      errors: [
        {
          ...at(CODE, "A", nodePath(1)),
          data: { elementId: "A", level: 2, source: "btv" },
          location: { line: 5, column: 23 },
        },
      ],
    },
    {
      name: "a gate before the agent task does not count",
      xml: processXml(startEvent("S"), gate("G"), level2, endEvent("E"), chain("S", "G", "A", "E")),
      registry,
      errors: [{ ...at(CODE, "A", nodePath(2)), data: { level: 2 } }],
    },
    {
      name: "a gate that is not connected to the agent task does not count",
      xml: processXml(level2, gate("G")),
      registry,
      errors: [at(CODE, "A", nodePath(0))],
    },
    {
      name: "the level comes from the workflow when the task states none (3)",
      xml: ungated(agent("A", { ref: "agnt-three@1.0.0" })),
      registry,
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { level: 3 } }],
    },
    {
      name: "strictest level: the task says 4, the workflow's graph justifies 2 → a gate is required",
      xml: ungated(agent("A", { ref: "agnt-four-loop@1.0.0", level: "4" })),
      registry,
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { elementId: "A", level: 4 } }],
    },
    {
      name: "an agent task inside a sub-process, no gate anywhere after it",
      xml: processXml(
        startEvent("S"),
        subProcess("Work", [startEvent("WS"), level2, endEvent("WE"), chain("WS", "A", "WE")]),
        endEvent("E"),
        chain("S", "Work", "E"),
      ),
      registry,
      errors: [at(CODE, "A", "/rootElements/0/flowElements/1/flowElements/1")],
    },
    {
      name: "an agent task in an event sub-process that ends without a gate",
      xml: processXml(
        startEvent("S"),
        gate("G"),
        endEvent("E"),
        chain("S", "G", "E"),
        subProcess("OnCancel", [startEvent("CS"), level2, endEvent("CE"), chain("CS", "A", "CE")], {
          triggeredByEvent: true,
        }),
      ),
      registry,
      errors: [at(CODE, "A", "/rootElements/0/flowElements/5/flowElements/1")],
    },
    {
      name: "the second process of a collaboration: a gate in the first one (even via a message flow) does not count",
      xml: definitions(
        [
          '<bpmn:collaboration id="C">',
          '  <bpmn:participant id="Bank" processRef="P1" />',
          '  <bpmn:participant id="Broker" processRef="P2" />',
          '  <bpmn:messageFlow id="M" sourceRef="A" targetRef="G" />',
          "</bpmn:collaboration>",
        ].join("\n"),
        processElement("P1", startEvent("S1"), gate("G"), endEvent("E1"), chain("S1", "G", "E1")),
        processElement("P2", startEvent("S2"), level2, endEvent("E2"), chain("S2", "A", "E2")),
      ),
      registry,
      errors: [
        { ...at(CODE, "A", "/rootElements/2/flowElements/1"), location: { line: 21, column: 23 } },
      ],
    },
    {
      name: "an agent whose workflow cannot be read needs a gate (fail closed)",
      xml: ungated(agent("A", { ref: "agnt-unknown@1.0.0" })),
      registry,
      errors: [
        {
          ...at(CODE, "A", nodePath(1)),
          data: { level: "unknown", source: "btv", ref: "agnt-unknown@1.0.0" },
        },
      ],
    },
    {
      name: "a declared level 4 proves nothing when the workflow cannot be read",
      xml: ungated(agent("A", { ref: "agnt-unknown@1.0.0", level: "4" })),
      registry,
      policy: { camundaAgents: "ignore" },
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { level: 4, ref: "agnt-unknown@1.0.0" } }],
    },
    {
      name: "no registry at all: a level-5 agent cannot be reviewed, so it needs a gate",
      xml: ungated(agent("A", { ref: "agnt-unknown@1.0.0", level: "5" })),
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { level: 5 } }],
    },
    ...CAMUNDA_AGENTS.flatMap((variant) =>
      ([undefined, "gate-required"] as const).map((policy) => ({
        ...camundaCase(variant, policy),
        xml: ungated(variant.xml("A")),
        errors: [
          {
            ...at(CODE, "A", nodePath(1)),
            data: { elementId: "A", level: "unknown", source: "camunda" },
          },
        ],
      })),
    ),
    {
      name: "a level-4 btv ref on a Camunda AI agent: the agent the BPMN draws is read at level 2",
      xml: ungated(readingAgent("agnt-four@1.0.0")),
      registry,
      errors: [
        {
          ...at(CODE, "A", nodePath(1)),
          messageId: "camunda",
          data: {
            elementId: "A",
            level: 4,
            camundaLevel: 2,
            ref: "agnt-four@1.0.0",
            source: "btv",
          },
        },
      ],
    },
    {
      name: "a level-5 btv ref (the task's own level) on a Camunda AI agent: the same",
      xml: ungated(readingAgent("agnt-five@1.0.0", "5")),
      registry,
      errors: [
        {
          ...at(CODE, "A", nodePath(1)),
          messageId: "camunda",
          data: { level: 5, camundaLevel: 2 },
        },
      ],
    },
    {
      name: "a level-2 btv ref on a Camunda AI agent: its own level needs the gate already",
      xml: ungated(readingAgent("agnt-two@1.0.0")),
      registry,
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { level: 2, source: "btv" } }],
    },
    {
      name: "custom isGate (every user task): a btv:gate on a plain task no longer counts",
      xml: processXml(
        startEvent("S"),
        level2,
        gate("G", "task"),
        endEvent("E"),
        chain("S", "A", "G", "E"),
      ),
      registry,
      isGate: everyUserTask,
      errors: [at(CODE, "A", nodePath(1))],
    },
    {
      name: "two agent tasks: only the one without a gate after it, in document order",
      xml: processXml(
        startEvent("S"),
        agent("A1", { ref: "agnt-two@1.0.0", level: "2" }),
        gate("G"),
        agent("A2", { ref: "agnt-three@1.0.0", level: "3" }),
        agent("A3", { ref: "agnt-two@1.0.0", level: "2" }),
        endEvent("E"),
        chain("S", "A1", "G", "A2", "A3", "E"),
      ),
      registry,
      errors: [
        { ...at(CODE, "A2", nodePath(3)), data: { level: 3 } },
        { ...at(CODE, "A3", nodePath(4)), data: { level: 2 } },
      ],
    },
  ],
});
