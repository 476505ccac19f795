import { rule } from "../../../src/bpmn/rules/BTV_NAMESPACE_MISMATCH.js";
import { checkProcess, isBtvLookalike } from "../../../src/bpmn/index.js";
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

/** S → A → E where `A` has `p:agentWorkflowRef` and `p:autonomyLevel` attributes, `p` bound to `uri`. */
function attributeDoc(prefix: string, uri: string): string {
  return doc("btv", BTV_NS, "note").replace(
    '<bpmn:serviceTask id="A">',
    `<bpmn:serviceTask id="A" xmlns:${prefix}="${uri}" ${prefix}:agentWorkflowRef="a@1.0.0" ${prefix}:autonomyLevel="3">`,
  );
}

await bpmnRuleTester(rule, {
  valid: [
    { name: "the btv namespace itself", xml: doc("btv", BTV_NS, "gate") },
    {
      name: "another vendor's gate element, in a namespace nothing like btv's",
      xml: doc("acme", "https://acme.example/schema/approvals", "gate"),
    },
    {
      name: "an attribute of a namespace nothing like btv's",
      xml: attributeDoc("acme", "https://acme.example/schema/approvals"),
    },
  ],
  invalid: [
    {
      name: "any element of a look-alike namespace, whatever its name: it was meant as agentflow's",
      xml: doc("bt", "https://agentflow.dev/schema/btv/1.1", "note"),
      errors: [{ ...at(CODE, "A", values), data: { element: "note" } }],
    },
    ...[
      ["no version", "https://agentflow.dev/schema/btv"],
      ["a URN", "urn:btv"],
      ["another host", "https://btv.example.org/schema/btv/1.0"],
      ["another version", "https://agentflow.dev/schema/btv/2.0"],
    ].map(([what = "", uri = ""]) => ({
      name: `an agentTask in a near-miss namespace: ${what}`,
      xml: doc("bt", uri, "agentTask", ' agentWorkflowRef="a@1.0.0" autonomyLevel="3"'),
      errors: [
        {
          ...at(CODE, "A", values),
          severity: "error" as const,
          data: { element: "agentTask", namespace: uri },
        },
      ],
    })),
    {
      name: "btv attributes on the flow node itself, under a near-miss prefix",
      xml: attributeDoc("bt", "urn:btv"),
      errors: [
        {
          ...at(CODE, "A", nodePath(1)),
          data: { element: "bt:agentWorkflowRef", namespace: "urn:btv" },
        },
        {
          ...at(CODE, "A", nodePath(1)),
          data: { element: "bt:autonomyLevel", namespace: "urn:btv" },
        },
      ],
    },
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
          severity: "error",
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

describe("a near-miss namespace blocks the promotion", () => {
  it("a level-3 agent with no gate, declared under urn:btv, is BLOCKED, not ALLOWED with no finding", async () => {
    const xml = doc("bt", "urn:btv", "agentTask", ' agentWorkflowRef="a@1.0.0" autonomyLevel="3"');
    const result = await checkProcess(xml);
    expect(result.allowed).toBe(false);
    expect(result.blocking.map((d) => [d.code, d.target])).toEqual([
      [CODE, { kind: "bpmn-element", elementId: "A", path: values }],
    ]);
  });
});

describe("a near-miss declaration anywhere up the tree is read", () => {
  const NEAR = "https://agentflow.dev/schema/btv/1.1";
  /** S → A → E, A a level-3 agent under `btv`, the prefix bound to a look-alike at `where`. */
  const declaredAt = (where: "process" | "task" | "extensionElements" | "attribute"): string => {
    const ns = `xmlns:btv="${NEAR}"`;
    const task =
      where === "attribute"
        ? `<bpmn:serviceTask id="A" btv:agentWorkflowRef="a@1.0.0" btv:autonomyLevel="3" />`
        : `<bpmn:serviceTask id="A"${where === "task" ? ` ${ns}` : ""}><bpmn:extensionElements${where === "extensionElements" ? ` ${ns}` : ""}><btv:agentTask agentWorkflowRef="a@1.0.0" autonomyLevel="3" /></bpmn:extensionElements></bpmn:serviceTask>`;
    return [
      `<bpmn:definitions xmlns:bpmn="${BPMN_NS}" id="Defs" targetNamespace="https://example.com/test">`,
      `  <bpmn:process id="P"${where === "process" || where === "attribute" ? ` ${ns}` : ""}>`,
      startEvent("S"),
      task,
      endEvent("E"),
      ...chain("S", "A", "E"),
      "  </bpmn:process>",
      "</bpmn:definitions>",
    ].join("\n");
  };

  it.each(["process", "task", "extensionElements", "attribute"] as const)(
    "on the %s: BLOCKED, not an agent passing as none",
    async (where) => {
      const result = await checkProcess(declaredAt(where));
      expect(result.allowed).toBe(false);
      expect(result.blocking.map((d) => [d.code, d.data.namespace])).toContainEqual([CODE, NEAR]);
    },
  );
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
    ["https://agentflow.dev/schema/btv", true],
    ["urn:btv", true],
    ["URN:BTV:1.0", true],
    ["https://example.com/schema/btv/1.0", true],
    ["https://example.com/schema/btvx/1.0", false],
    ["http://www.omg.org/spec/BPMN/20100524/MODEL", false],
    ["x".repeat(100_000), false],
  ] as const)("%s → %s", (uri, expected) => {
    expect(isBtvLookalike(uri)).toBe(expected);
  });
});
