import type { ModdleObject } from "../../../src/bpmn/index.js";
import { instanceOf } from "../../../src/bpmn/index.js";
import { rule } from "../../../src/bpmn/rules/AGENT_GATE_BYPASS.js";
import {
  agent,
  CAMUNDA_AGENTS,
  camundaCase,
  agentWorkflow,
  boundaryEvent,
  chain,
  element,
  endEvent,
  exclusiveGateway,
  flow,
  gate,
  HELPER,
  nodePath,
  parallelGateway,
  processXml,
  startEvent,
  subProcess,
  task,
  userTask,
} from "../builders.js";
import { at, bpmnRuleTester } from "../rule-tester.js";
import { aiAgent, effectTool } from "./ai-agent.js";

const CODE = "AGENT_GATE_BYPASS";
const registry = [
  agentWorkflow("agnt-two@1.0.0", 2),
  agentWorkflow("agnt-four@1.0.0", 4),
  agentWorkflow("agnt-five@1.0.0", 5),
  agentWorkflow("agnt-four-loop@1.0.0", 4, { justified: 2 }),
  HELPER,
];
const level2 = agent("A", { ref: "agnt-two@1.0.0", level: "2" });
const everyUserTask = (element: ModdleObject): boolean => instanceOf(element, "bpmn:UserTask");

/** S → A → X, X → G → E1 and X → E2: the gate on one branch of a gateway only. */
const oneBranch = (agentXml: string, gateXml = gate("G")) =>
  processXml(
    startEvent("S"),
    agentXml,
    exclusiveGateway("X"),
    gateXml,
    endEvent("E1"),
    endEvent("E2"),
    chain("S", "A", "X", "G", "E1"),
    flow("X", "E2"),
  );
/** Multi-instance over a Zeebe input collection (XML text). */
const overCollection = (collection: string) =>
  `<bpmn:multiInstanceLoopCharacteristics><bpmn:extensionElements><zeebe:loopCharacteristics inputCollection="${collection}" inputElement="r" /></bpmn:extensionElements></bpmn:multiInstanceLoopCharacteristics>`;
/** Multi-instance with a BPMN loop cardinality (XML text). */
const cardinality = (body: string) =>
  `<bpmn:multiInstanceLoopCharacteristics><bpmn:loopCardinality>${body}</bpmn:loopCardinality></bpmn:multiInstanceLoopCharacteristics>`;
/** S → A → Review → E, the gate `G` inside the sub-process `Review`, which loops as `loop`. */
const loopReview = (loop: string) =>
  processXml(
    startEvent("S"),
    level2,
    subProcess("Review", [
      loop,
      startEvent("RS"),
      gate("G"),
      endEvent("RE"),
      chain("RS", "G", "RE"),
    ]),
    endEvent("E"),
    chain("S", "A", "Review", "E"),
  );
const LEGAL_AND_RISK = "=[&quot;legal&quot;, &quot;risk&quot;]";
const linkEvent = (tag: string, id: string) =>
  element(tag, id, {
    children: [`<bpmn:linkEventDefinition id="${id}-def" name="toReview" />`],
  });

await bpmnRuleTester(rule, {
  valid: [
    {
      name: "a gate on the only path",
      xml: processXml(startEvent("S"), level2, gate("G"), endEvent("E"), chain("S", "A", "G", "E")),
      registry,
    },
    {
      name: "a loop back before the gate: every way out still passes it",
      xml: processXml(
        startEvent("S"),
        level2,
        exclusiveGateway("X"),
        gate("G"),
        endEvent("E"),
        chain("S", "A", "X", "G", "E"),
        flow("X", "A"),
      ),
      registry,
    },
    {
      name: "a gate on both branches of a gateway",
      xml: processXml(
        startEvent("S"),
        level2,
        exclusiveGateway("X"),
        gate("G1"),
        gate("G2"),
        endEvent("E"),
        chain("S", "A", "X", "G1", "E"),
        chain("X", "G2", "E"),
      ),
      registry,
    },
    {
      name: "a gate inside a sub-process on every inner path",
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
      name: "a gate inside a multi-instance sub-process over a list literal with an item",
      xml: loopReview(overCollection(LEGAL_AND_RISK)),
      registry,
    },
    {
      name: "a gate inside a multi-instance sub-process of cardinality 2",
      xml: loopReview(cardinality("2")),
      registry,
    },
    {
      name: "a gate inside a standard loop sub-process that tests after its turn",
      xml: loopReview("<bpmn:standardLoopCharacteristics />"),
      registry,
    },
    {
      name: "the agent task and its gate inside one instance of a multi-instance sub-process",
      xml: processXml(
        startEvent("S"),
        subProcess("Review", [
          overCollection("=agent.reviewers"),
          startEvent("RS"),
          level2,
          gate("G"),
          endEvent("RE"),
          chain("RS", "A", "G", "RE"),
        ]),
        endEvent("E"),
        chain("S", "Review", "E"),
      ),
      registry,
    },
    {
      name: "an agent task in an ad-hoc sub-process with the gate after it",
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
      name: "a link throw/catch pair leading to the gate",
      xml: processXml(
        startEvent("S"),
        level2,
        linkEvent("intermediateThrowEvent", "LT"),
        linkEvent("intermediateCatchEvent", "LC"),
        gate("G"),
        endEvent("E"),
        chain("S", "A", "LT"),
        chain("LC", "G", "E"),
      ),
      registry,
    },
    {
      name: "an event sub-process that passes a gate too",
      xml: processXml(
        startEvent("S"),
        level2,
        gate("G"),
        endEvent("E"),
        chain("S", "A", "G", "E"),
        subProcess(
          "OnEvent",
          [startEvent("ES"), gate("EG"), endEvent("EE"), chain("ES", "EG", "EE")],
          {
            triggeredByEvent: true,
          },
        ),
      ),
      registry,
    },
    {
      name: "no gate at all is AGENT_GATE_UNREACHABLE's",
      xml: processXml(startEvent("S"), level2, endEvent("E"), chain("S", "A", "E")),
      registry,
    },
    {
      name: "level 4: a gate on one branch is optional oversight, not a bypass",
      xml: oneBranch(agent("A", { ref: "agnt-four@1.0.0", level: "4" })),
      registry,
    },
    {
      name: "level 5: no gate requirement",
      xml: oneBranch(agent("A", { ref: "agnt-five@1.0.0", level: "5" })),
      registry,
    },
    ...CAMUNDA_AGENTS.flatMap((variant) =>
      (["gate-optional", "ignore"] as const).map((policy) => ({
        ...camundaCase(variant, policy),
        xml: oneBranch(variant.xml("A")),
      })),
    ),
    {
      name: "custom isGate: a user task on each branch",
      xml: processXml(
        startEvent("S"),
        level2,
        exclusiveGateway("X"),
        userTask("U1"),
        userTask("U2"),
        endEvent("E"),
        chain("S", "A", "X", "U1", "E"),
        chain("X", "U2", "E"),
      ),
      registry,
      isGate: everyUserTask,
    },
  ],
  invalid: [
    {
      name: "a gate after a gateway on one branch only",
      xml: oneBranch(level2),
      registry,
      errors: [
        {
          ...at(CODE, "A", nodePath(1)),
          data: {
            elementId: "A",
            level: 2,
            source: "btv",
            bypassPath: "A → X → E2",
            pathIds: ["A", "X", "E2"],
          },
          location: { line: 5, column: 23 },
        },
      ],
    },
    {
      name: "a loop whose gate is on the way back, with an exit around it",
      xml: processXml(
        startEvent("S"),
        level2,
        exclusiveGateway("X"),
        gate("G"),
        endEvent("E"),
        chain("S", "A", "X", "E"),
        chain("X", "G", "A"),
      ),
      registry,
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { pathIds: ["A", "X", "E"] } }],
    },
    {
      name: "a gate inside a sub-process whose inside can end without it",
      xml: processXml(
        startEvent("S"),
        level2,
        subProcess("Review", [
          startEvent("RS"),
          exclusiveGateway("RX"),
          gate("G"),
          endEvent("RE"),
          chain("RS", "RX", "G", "RE"),
          flow("RX", "RE"),
        ]),
        endEvent("E"),
        chain("S", "A", "Review", "E"),
      ),
      registry,
      errors: [
        {
          ...at(CODE, "A", nodePath(1)),
          data: { pathIds: ["A", "Review", "RS", "RX", "RE", "E"] },
        },
      ],
    },
    {
      name: "a gate inside a multi-instance sub-process over a collection that may be empty",
      xml: loopReview(overCollection("=agent.reviewers")),
      registry,
      errors: [
        {
          ...at(CODE, "A", nodePath(1)),
          data: { bypassPath: "A → Review → E", pathIds: ["A", "Review", "E"] },
        },
      ],
    },
    {
      name: "a gate inside a multi-instance sub-process over an empty list literal",
      xml: loopReview(overCollection("=[]")),
      registry,
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { pathIds: ["A", "Review", "E"] } }],
    },
    {
      name: "a gate inside a multi-instance sub-process whose cardinality is an expression",
      xml: loopReview(cardinality("=count")),
      registry,
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { pathIds: ["A", "Review", "E"] } }],
    },
    {
      name: "a gate inside a standard loop sub-process that tests before its first turn",
      xml: loopReview('<bpmn:standardLoopCharacteristics testBefore="true" />'),
      registry,
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { pathIds: ["A", "Review", "E"] } }],
    },
    {
      name: "a gate in a plain sub-process nested in a multi-instance one that may run none",
      xml: processXml(
        startEvent("S"),
        level2,
        subProcess("Outer", [
          overCollection("=agent.reviewers"),
          startEvent("OS"),
          subProcess("Review", [
            startEvent("RS"),
            gate("G"),
            endEvent("RE"),
            chain("RS", "G", "RE"),
          ]),
          endEvent("OE"),
          chain("OS", "Review", "OE"),
        ]),
        endEvent("E"),
        chain("S", "A", "Outer", "E"),
      ),
      registry,
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { pathIds: ["A", "Outer", "E"] } }],
    },
    {
      name: "a gate inside a multi-instance ad-hoc sub-process that may run none",
      xml: processXml(
        startEvent("S"),
        level2,
        subProcess("Review", [overCollection("=agent.reviewers"), gate("G")], { adHoc: true }),
        endEvent("E"),
        chain("S", "A", "Review", "E"),
      ),
      registry,
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { pathIds: ["A", "Review", "E"] } }],
    },
    {
      name: "a gate reached only through a boundary event of the agent task",
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
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { pathIds: ["A", "E1"] } }],
    },
    {
      name: "a boundary event of the agent task leads around the gate",
      xml: processXml(
        startEvent("S"),
        level2,
        boundaryEvent("B", "A", false),
        gate("G"),
        endEvent("E1"),
        endEvent("E2"),
        chain("S", "A", "G", "E1"),
        flow("B", "E2"),
      ),
      registry,
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { pathIds: ["A", "B", "E2"] } }],
    },
    {
      // No pathIds pinned: the path reported is A → WE → B → E2, where docs/bpmn.md promises the
      // shortest, A → B → E2 (the timer fires while A runs).
      name: "an agent task in a sub-process whose boundary event leads around the gate after it",
      xml: processXml(
        startEvent("S"),
        subProcess("Work", [startEvent("WS"), level2, endEvent("WE"), chain("WS", "A", "WE")]),
        boundaryEvent("B", "Work"),
        gate("G"),
        endEvent("E1"),
        endEvent("E2"),
        chain("S", "Work", "G", "E1"),
        flow("B", "E2"),
      ),
      registry,
      errors: [{ ...at(CODE, "A", "/rootElements/0/flowElements/1/flowElements/1") }],
    },
    {
      name: "an agent task in an ad-hoc sub-process with a gate sibling: the children are unordered",
      xml: processXml(
        startEvent("S"),
        subProcess("Tools", [level2, gate("G")], { adHoc: true }),
        endEvent("E"),
        chain("S", "Tools", "E"),
      ),
      registry,
      errors: [
        {
          ...at(CODE, "A", "/rootElements/0/flowElements/1/flowElements/0"),
          data: { pathIds: ["A", "E"] },
        },
      ],
    },
    {
      name: "an event sub-process that ends without a gate",
      xml: processXml(
        startEvent("S"),
        level2,
        gate("G"),
        endEvent("E"),
        chain("S", "A", "G", "E"),
        subProcess("OnEvent", [startEvent("ES"), endEvent("EE"), chain("ES", "EE")], {
          triggeredByEvent: true,
        }),
      ),
      registry,
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { pathIds: ["A", "OnEvent", "ES", "EE"] } }],
    },
    {
      name: "a parallel branch beside the gate acts on the agent's output before approval",
      xml: processXml(
        startEvent("S"),
        level2,
        parallelGateway("Split"),
        gate("G"),
        task("Notify"),
        parallelGateway("Join"),
        endEvent("E"),
        chain("S", "A", "Split", "G", "Join", "E"),
        chain("Split", "Notify", "Join"),
      ),
      registry,
      errors: [
        {
          ...at(CODE, "A", nodePath(1)),
          data: { pathIds: ["A", "Split", "Notify", "Join", "E"] },
        },
      ],
    },
    {
      name: "strictest level: the task says 4, the workflow's graph justifies 2",
      xml: oneBranch(agent("A", { ref: "agnt-four-loop@1.0.0", level: "4" })),
      registry,
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { level: 4, pathIds: ["A", "X", "E2"] } }],
    },
    ...CAMUNDA_AGENTS.flatMap((variant) =>
      ([undefined, "gate-required"] as const).map((policy) => ({
        ...camundaCase(variant, policy),
        xml: oneBranch(variant.xml("A")),
        errors: [
          {
            ...at(CODE, "A", nodePath(1)),
            data: { level: "unknown", source: "camunda", pathIds: ["A", "X", "E2"] },
          },
        ],
      })),
    ),
    {
      name: "a level-4 btv ref on a Camunda AI agent read at level 2, gated on one branch only",
      xml: oneBranch(aiAgent("A", { ref: "agnt-four@1.0.0", tools: [effectTool("Look", "read")] })),
      registry,
      errors: [
        {
          ...at(CODE, "A", nodePath(1)),
          messageId: "camunda",
          data: { level: 4, camundaLevel: 2, source: "btv", pathIds: ["A", "X", "E2"] },
        },
      ],
    },
    {
      name: "custom isGate: a user task on one branch only",
      xml: oneBranch(level2, userTask("G")),
      registry,
      isGate: everyUserTask,
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { pathIds: ["A", "X", "E2"] } }],
    },
  ],
});
