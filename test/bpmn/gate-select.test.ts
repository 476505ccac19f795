/**
 * Gate selectors: which elements an organisation's settings make approval gates, and the role
 * each gives — read from BPMN as Camunda's modeller writes it (zeebe-bpmn-moddle registered, and
 * without it, as bpmnlint reads a file with no zeebe extension).
 */
import { describe, expect, it } from "vitest";
import type { GateSelector, ModdleObject } from "../../src/bpmn/index.js";
import {
  candidateGroups,
  gateSelectorProblems,
  readProcess,
  selectGate,
} from "../../src/bpmn/index.js";
import { createRequire } from "node:module";

const zeebe = createRequire(import.meta.url)("zeebe-bpmn-moddle/resources/zeebe.json") as object;

const XML = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0" id="Defs" targetNamespace="https://example.com">
  <bpmn:process id="P" isExecutable="true">
    <bpmn:userTask id="Underwrite" name="Underwrite">
      <bpmn:extensionElements>
        <zeebe:userTask />
        <zeebe:assignmentDefinition candidateGroups="underwriters, risk" />
      </bpmn:extensionElements>
    </bpmn:userTask>
    <bpmn:userTask id="FeelList">
      <bpmn:extensionElements>
        <zeebe:userTask />
        <zeebe:assignmentDefinition candidateGroups="=[&#34;legal&#34;, &#34;compliance&#34;]" />
      </bpmn:extensionElements>
    </bpmn:userTask>
    <bpmn:userTask id="FeelExpr">
      <bpmn:extensionElements>
        <zeebe:userTask />
        <zeebe:assignmentDefinition candidateGroups="=groupsFor(amount)" />
      </bpmn:extensionElements>
    </bpmn:userTask>
    <bpmn:userTask id="Templated" zeebe:modelerTemplate="com.acme.approval.v1" zeebe:modelerTemplateVersion="2">
      <bpmn:extensionElements>
        <zeebe:userTask />
        <zeebe:properties><zeebe:property name="approval" value="four-eyes" /></zeebe:properties>
      </bpmn:extensionElements>
    </bpmn:userTask>
    <bpmn:userTask id="WithUsers">
      <bpmn:extensionElements>
        <zeebe:userTask />
        <zeebe:assignmentDefinition candidateGroups="credit-officers" candidateUsers="bob, carol" assignee="dave" />
      </bpmn:extensionElements>
    </bpmn:userTask>
    <bpmn:userTask id="FeelAssignee">
      <bpmn:extensionElements>
        <zeebe:userTask />
        <zeebe:assignmentDefinition candidateGroups="credit-officers" assignee="=initiator" candidateUsers="=[&#34;bob&#34;]" />
      </bpmn:extensionElements>
    </bpmn:userTask>
    <bpmn:userTask id="Bare" />
  </bpmn:process>
</bpmn:definitions>`;

async function elements(withZeebe: boolean): Promise<Map<string, ModdleObject>> {
  const { definitions } = await readProcess(XML, withZeebe ? { moddleExtensions: { zeebe } } : {});
  const process = (definitions as unknown as { rootElements: { flowElements: ModdleObject[] }[] })
    .rootElements[0];
  return new Map((process?.flowElements ?? []).map((e) => [String(e.id), e]));
}

describe.each([true, false])("selectGate (zeebe moddle registered: %s)", (withZeebe) => {
  const cases: [
    string,
    readonly GateSelector[],
    string,
    { selected: boolean; approvers: readonly string[]; role: string | undefined },
  ][] = [
    // A member of any candidate group may approve: the role names them all, whichever matched.
    [
      "a candidate group",
      [{ candidateGroup: "underwriters" }],
      "Underwrite",
      { selected: true, approvers: ["underwriters", "risk"], role: "underwriters, risk" },
    ],
    [
      "another of its groups",
      [{ candidateGroup: "risk" }],
      "Underwrite",
      { selected: true, approvers: ["underwriters", "risk"], role: "underwriters, risk" },
    ],
    [
      "a group it does not have",
      [{ candidateGroup: "legal" }],
      "Underwrite",
      { selected: false, approvers: [], role: undefined },
    ],
    [
      "a group in a FEEL list literal",
      [{ candidateGroup: "compliance" }],
      "FeelList",
      { selected: true, approvers: ["legal", "compliance"], role: "legal, compliance" },
    ],
    [
      "a FEEL expression: unknown groups, no match",
      [{ candidateGroup: "legal" }],
      "FeelExpr",
      { selected: false, approvers: [], role: undefined },
    ],
    [
      "the template",
      [{ template: "com.acme.approval.v1" }],
      "Templated",
      { selected: true, approvers: [], role: undefined },
    ],
    [
      "a property with its value",
      [{ property: { name: "approval", value: "four-eyes" } }],
      "Templated",
      { selected: true, approvers: [], role: undefined },
    ],
    [
      "a property with another value",
      [{ property: { name: "approval", value: "single" } }],
      "Templated",
      { selected: false, approvers: [], role: undefined },
    ],
    [
      "by id, with the role the selector gives",
      [{ id: "Bare", role: "ops" }],
      "Bare",
      { selected: true, approvers: ["ops"], role: "ops" },
    ],
    [
      "a selector's role beside the task's groups: it never hides them",
      [{ candidateGroup: "underwriters", role: "Underwriter, Level 2" }],
      "Underwrite",
      {
        selected: true,
        approvers: ["Underwriter, Level 2", "underwriters", "risk"],
        role: "Underwriter, Level 2, underwriters, risk",
      },
    ],
    [
      "by id, the role from the groups",
      [{ id: "Underwrite" }],
      "Underwrite",
      { selected: true, approvers: ["underwriters", "risk"], role: "underwriters, risk" },
    ],
    [
      "candidate users and the assignee may approve too",
      [{ candidateGroup: "credit-officers" }],
      "WithUsers",
      {
        selected: true,
        approvers: ["credit-officers", "bob", "carol", "dave"],
        role: "credit-officers, bob, carol, dave",
      },
    ],
    [
      "an assignee known only at run time is kept as written",
      [{ candidateGroup: "credit-officers" }],
      "FeelAssignee",
      {
        selected: true,
        approvers: ["credit-officers", "bob", "=initiator"],
        role: "credit-officers, bob, =initiator",
      },
    ],
    [
      "every criterion must hold",
      [{ id: "Underwrite", candidateGroup: "legal" }],
      "Underwrite",
      { selected: false, approvers: [], role: undefined },
    ],
    [
      "a bare user task is no gate without a selector",
      [],
      "Bare",
      { selected: false, approvers: [], role: undefined },
    ],
  ];
  it.each(cases)("%s", async (_, selectors, id, expected) => {
    const element = (await elements(withZeebe)).get(id);
    if (element === undefined) throw new Error(`no ${id}`);
    expect(selectGate(selectors, element)).toEqual(expected);
  });

  it("reads candidate groups from static text and FEEL literals only", async () => {
    const all = await elements(withZeebe);
    const groups = (id: string) => {
      const element = all.get(id);
      if (element === undefined) throw new Error(`no ${id}`);
      return candidateGroups(element);
    };
    expect(groups("Underwrite")).toEqual(["underwriters", "risk"]);
    expect(groups("FeelList")).toEqual(["legal", "compliance"]);
    expect(groups("FeelExpr")).toEqual([]);
    expect(groups("Bare")).toEqual([]);
  });
});

describe("gateSelectorProblems", () => {
  it.each([
    [[{ candidateGroup: "a" }, { id: "X", role: "r" }, { property: { name: "p" } }], []],
    ["gates", ["gates must be an array of gate selectors, got string"]],
    [
      [{}],
      [
        "gates/0 names no criterion (id, candidateGroup, template or property): it would make every element a gate",
      ],
    ],
    [[{ id: "" }], ["gates/0/id must be a non-empty string, got string"]],
    [
      [{ candidateGroups: "a" }],
      [
        "gates/0: unknown key 'candidateGroups' (known: id, candidateGroup, template, property, role)",
      ],
    ],
    [[{ property: "approval" }], ["gates/0/property must be { name, value? } with string values"]],
    [[7], ["gates/0 must be an object, got number"]],
  ] as const)("%j → %j", (value, expected) => {
    expect(gateSelectorProblems(value, "gates")).toEqual(expected);
  });
});
