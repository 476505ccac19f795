import { rule } from "../../../src/bpmn/rules/BTV_NAMESPACE_MISMATCH.js";
import { isBtvLookalike } from "../../../src/bpmn/index.js";
import { describe, expect, it } from "vitest";
import { BPMN_NS, BTV_NS, chain, endEvent, nodePath, startEvent } from "../builders.js";
import { at, bpmnRuleTester } from "../rule-tester.js";

const CODE = "BTV_NAMESPACE_MISMATCH";

/** The diagram of S → A → E, as a modeller lays it out. */
const DIAGRAM = [
  '<bpmndi:BPMNDiagram id="Diagram_1"><bpmndi:BPMNPlane id="Plane_1" bpmnElement="P">',
  '<bpmndi:BPMNShape id="S_di" bpmnElement="S"><dc:Bounds x="152" y="102" width="36" height="36" /></bpmndi:BPMNShape>',
  '<bpmndi:BPMNShape id="A_di" bpmnElement="A"><dc:Bounds x="240" y="80" width="100" height="80" /></bpmndi:BPMNShape>',
  '<bpmndi:BPMNShape id="E_di" bpmnElement="E"><dc:Bounds x="392" y="102" width="36" height="36" /></bpmndi:BPMNShape>',
  '<bpmndi:BPMNEdge id="S-A_di" bpmnElement="S-A"><di:waypoint x="188" y="120" /><di:waypoint x="240" y="120" /></bpmndi:BPMNEdge>',
  '<bpmndi:BPMNEdge id="A-E_di" bpmnElement="A-E"><di:waypoint x="340" y="120" /><di:waypoint x="392" y="120" /></bpmndi:BPMNEdge>',
  "</bpmndi:BPMNPlane></bpmndi:BPMNDiagram>",
].join("\n");

/** S → A → E (with DI) where `A` carries `<p:element/>`, with `p` bound to `uri`. */
function doc(prefix: string, uri: string, element: string, local = ""): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<bpmn:definitions xmlns:bpmn="${BPMN_NS}" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI" xmlns:${prefix}="${uri}" id="Defs" targetNamespace="https://example.com/test">`,
    '  <bpmn:process id="P">',
    startEvent("S"),
    `<bpmn:serviceTask id="A"><bpmn:extensionElements><${prefix}:${element}${local} /></bpmn:extensionElements></bpmn:serviceTask>`,
    endEvent("E"),
    ...chain("S", "A", "E"),
    "  </bpmn:process>",
    DIAGRAM,
    "</bpmn:definitions>",
  ].join("\n");
}

const values = `${nodePath(1)}/extensionElements/values/0`;

bpmnRuleTester(rule, {
  valid: [
    { name: "the btv namespace itself", xml: doc("btv", BTV_NS, "gate") },
    {
      name: "another vendor's gate element, in a namespace nothing like btv's",
      xml: doc("acme", "https://acme.example/schema/approvals", "gate"),
    },
    {
      name: "an element of a look-alike namespace that is not named like a btv element",
      xml: doc("bt", "https://agentflow.dev/schema/btv/1.1", "note"),
    },
  ],
  invalid: [
    {
      name: "an agentTask in the 1.1 namespace, under its own prefix",
      xml: doc(
        "bt",
        "https://agentflow.dev/schema/btv/1.1",
        "agentTask",
        ' agentWorkflowRef="a@1.0.0"',
      ),
      errors: [
        {
          ...at(CODE, "A", values),
          severity: "warning",
          data: {
            elementId: "A",
            element: "agentTask",
            namespace: "https://agentflow.dev/schema/btv/1.1",
            expected: BTV_NS,
          },
        },
      ],
    },
    {
      name: "an agentTask under the btv prefix bound to the 1.1 namespace (moddle renames the prefix)",
      xml: doc(
        "btv",
        "https://agentflow.dev/schema/btv/1.1",
        "agentTask",
        ' agentWorkflowRef="a@1.0.0"',
      ),
      errors: [
        { ...at(CODE, "A", values), data: { namespace: "https://agentflow.dev/schema/btv/1.1" } },
      ],
    },
    {
      name: "a gate in the http namespace",
      xml: doc("btv", "http://agentflow.dev/schema/btv/1.0", "gate"),
      errors: [
        {
          ...at(CODE, "A", values),
          data: { element: "gate", namespace: "http://agentflow.dev/schema/btv/1.0" },
        },
      ],
    },
    {
      name: "a snapshot in a namespace with a typo",
      xml: doc("x", "https://agentfl0w.dev/schema/btv/1.0", "agentWorkflowSnapshot"),
      errors: [{ ...at(CODE, "A", values), data: { element: "agentWorkflowSnapshot" } }],
    },
  ],
});

describe("isBtvLookalike", () => {
  it.each([
    ["https://agentflow.dev/schema/btv/1.1", true],
    ["https://agentflow.dev/schema/btv/1.0/", true],
    ["HTTPS://AGENTFLOW.DEV/schema/btv/1.0", true],
    ["https://www.agentflow.dev/schema/btv/1.0", true],
    ["https://agentflow.dev/schema/bvt/1.0", true],
    ["https://agentflow.dev/schema/btv/1.0", false],
    ["http://camunda.org/schema/zeebe/1.0", false],
    ["https://agentflow.dev/schema/other/1.0", false],
    ["x".repeat(100_000), false],
  ] as const)("%s → %s", (uri, expected) => {
    expect(isBtvLookalike(uri)).toBe(expected);
  });
});
