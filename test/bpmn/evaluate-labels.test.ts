/**
 * The modeller's wording of findings (issue 44 item 6): each message names elements by their
 * name, with the id beside a name that repeats, and by the id where there is no name; the rule's
 * template is kept, and `data` and `target` keep the ids.
 */
import { describe, expect, it } from "vitest";
import { elementLabels, namedDecision } from "../../src/bpmn/evaluate-labels.js";
import { compiledOptions } from "../../src/bpmn/compiled-options.js";
import type { GateOptions } from "../../src/bpmn/index.js";
import { evaluateGates, readProcess } from "../../src/bpmn/index.js";
import type { Diagnostic } from "../../src/model/index.js";

const xml = (
  names: Readonly<Record<string, string>>,
) => `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
    xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="Defs" targetNamespace="https://example.com">
  <bpmn:process id="P"${names.P ?? ""} isExecutable="true">
    <bpmn:startEvent id="Start"${names.Start ?? ""} />
    <bpmn:serviceTask id="Activity_0x8k2lm"${names.Activity_0x8k2lm ?? ""}>
      <bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-x@1.0.0" autonomyLevel="2" /></bpmn:extensionElements>
    </bpmn:serviceTask>
    <bpmn:exclusiveGateway id="Gateway_1"${names.Gateway_1 ?? ""} />
    <bpmn:userTask id="Review"${names.Review ?? ""}>
      <bpmn:extensionElements><btv:gate /></bpmn:extensionElements>
    </bpmn:userTask>
    <bpmn:endEvent id="End_1"${names.End_1 ?? ""} />
    <bpmn:endEvent id="End_2"${names.End_2 ?? ""} />
    <bpmn:sequenceFlow id="F1" sourceRef="Start" targetRef="Activity_0x8k2lm" />
    <bpmn:sequenceFlow id="F2" sourceRef="Activity_0x8k2lm" targetRef="Gateway_1" />
    <bpmn:sequenceFlow id="F3" sourceRef="Gateway_1" targetRef="Review" />
    <bpmn:sequenceFlow id="F4" sourceRef="Gateway_1" targetRef="End_2" />
    <bpmn:sequenceFlow id="F5" sourceRef="Review" targetRef="End_1" />
  </bpmn:process>
</bpmn:definitions>`;

const name = (text: string) => ` name="${text}"`;

async function decisionOf(names: Readonly<Record<string, string>>, options: GateOptions = {}) {
  const { definitions } = await readProcess(xml(names));
  if (definitions === undefined) throw new Error("the process must parse");
  const raw = await evaluateGates(definitions, options);
  return { definitions, raw, named: namedDecision(raw, definitions, compiledOptions(options)) };
}

/** A pack whose findings name an agent task (`{{element.id}}`, nested) and a process (`{{id}}`). */
const PACK = {
  kind: "PolicyPack",
  name: "bank",
  version: "1.0.0",
  rules: [
    {
      id: "four-eyes",
      severity: "error",
      for: "agentTask",
      require: { gates: { distinctRoles: 2 } },
    },
    { id: "one-agent", severity: "info", for: "process", when: "count(agentTasks) = 1" },
  ],
};

const bypass = (d: { readonly blocking: readonly Diagnostic[] }) =>
  d.blocking.find((x) => x.code === "AGENT_GATE_BYPASS");

describe("elementLabels", () => {
  it("labels by name, adds the id where a name repeats, and uses the id without a name", async () => {
    const { definitions } = await readProcess(
      xml({
        Activity_0x8k2lm: name("Draft offer"),
        Review: name("  Done  "),
        End_1: name("Done"),
        End_2: name("   "),
      }),
    );
    if (definitions === undefined) throw new Error("the process must parse");
    const labels = elementLabels(definitions);
    expect(Object.fromEntries(labels)).toMatchObject({
      Activity_0x8k2lm: "Draft offer",
      Review: "Done (Review)",
      End_1: "Done (End_1)",
      End_2: "End_2",
      Start: "Start",
      F1: "F1",
      P: "P",
    });
  });
});

describe("namedDecision", () => {
  it("words a bypass with the task's and the path's names, keeping the template and the ids", async () => {
    const { raw, named } = await decisionOf({
      Activity_0x8k2lm: name("Draft offer"),
      Gateway_1: name("Large?"),
      End_2: name("Sent"),
    });
    expect(bypass(raw)?.message).toMatch(
      /^agent task "Activity_0x8k2lm" \(agnt-x@1\.0\.0\) could not be reviewed, .* without one: Activity_0x8k2lm → Gateway_1 → End_2$/,
    );
    expect(bypass(named)?.message).toMatch(
      /^agent task "Draft offer" \(agnt-x@1\.0\.0\) could not be reviewed, .* without one: Draft offer → Large\? → Sent$/,
    );
    expect(bypass(named)?.data).toBe(bypass(raw)?.data);
    expect(bypass(named)?.target).toEqual({
      kind: "bpmn-element",
      elementId: "Activity_0x8k2lm",
      path: bypass(raw)?.path,
    });
    expect(named.blocking.map((d) => d.code)).toEqual(raw.blocking.map((d) => d.code));
    expect(named.allowed).toBe(raw.allowed);
  });

  it("names the id beside a repeated name, and the id alone where there is no name", async () => {
    const { named } = await decisionOf({
      Activity_0x8k2lm: name("Step"),
      Gateway_1: name("Step"),
    });
    expect(bypass(named)?.message).toMatch(
      /^agent task "Step \(Activity_0x8k2lm\)" \(agnt-x@1\.0\.0\) could not be reviewed, .* without one: Step \(Activity_0x8k2lm\) → Step \(Gateway_1\) → End_2$/,
    );
  });

  it("names a pack finding's subject as it names its path, and the process", async () => {
    const { raw, named } = await decisionOf(
      {
        Activity_0x8k2lm: name("Draft offer"),
        Gateway_1: name("Large?"),
        End_2: name("Sent"),
        P: name("Offers"),
      },
      { policies: [PACK] },
    );
    const pack = (d: {
      readonly blocking: readonly Diagnostic[];
      warnings: readonly Diagnostic[];
    }) =>
      [...d.blocking, ...d.warnings]
        .filter((x) => x.code.startsWith("bank/"))
        .map((x) => `${x.code}: ${x.message}`);
    expect(pack(raw)).toEqual([
      'bank/four-eyes: agent task "Activity_0x8k2lm" breaks policy rule four-eyes of bank: every path from it to an end must pass at least 2 gates whose approvers do not overlap (no one group, user or assignee may approve two of them), but this one passes no gate with an approver role: Activity_0x8k2lm → Gateway_1 → End_2',
      'bank/one-agent: process "P" breaks policy rule one-agent of bank',
    ]);
    expect(pack(named)).toEqual([
      'bank/four-eyes: agent task "Draft offer" breaks policy rule four-eyes of bank: every path from it to an end must pass at least 2 gates whose approvers do not overlap (no one group, user or assignee may approve two of them), but this one passes no gate with an approver role: Draft offer → Large? → Sent',
      'bank/one-agent: process "Offers" breaks policy rule one-agent of bank',
    ]);
    const fourEyes = named.blocking.find((d) => d.code === "bank/four-eyes");
    expect(fourEyes?.data).toBe(raw.blocking.find((d) => d.code === "bank/four-eyes")?.data);
    expect(fourEyes?.data.element).toMatchObject({ id: "Activity_0x8k2lm", name: "Draft offer" });
  });

  it("leaves a message no template of its rule gives as it is", async () => {
    const { definitions, raw } = await decisionOf({ Activity_0x8k2lm: name("Draft offer") });
    const found = bypass(raw);
    if (found === undefined) throw new Error("the process bypasses its gate");
    const reworded = { ...found, message: "said otherwise: Activity_0x8k2lm" };
    const named = namedDecision({ ...raw, blocking: [reworded] }, definitions, {});
    expect(named.blocking).toEqual([reworded]);
  });
});
