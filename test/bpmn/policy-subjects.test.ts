/**
 * The `workflow` and `tool` subjects a pack judges at an agent task, and which workflow a
 * `workflow` waiver must name to cover a finding on one (red team: a waiver of the ref's workflow
 * covered the derived Camunda workflow and the tools the BPMN draws; a parent's covered its
 * delegate's; a delegate's workflow was never judged, though validating the parent fails on it;
 * a `tool` rule was skipped where the task's workflow could not be read). Each finding is about
 * the subject the rule judged; only a workflow document read is named by a `workflow` waiver.
 */
import { describe, expect, it } from "vitest";
import { checkProcess } from "../../src/bpmn/index.js";
import type { Waiver } from "../../src/policy/index.js";

const HEAD = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0" xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="D" targetNamespace="https://example.com">
  <bpmn:process id="P" isExecutable="true">
    <bpmn:startEvent id="S" />`;
const TAIL = `
    <bpmn:userTask id="G"><bpmn:extensionElements><btv:gate approverRole="ops" /></bpmn:extensionElements></bpmn:userTask>
    <bpmn:endEvent id="E" />
    <bpmn:sequenceFlow id="F1" sourceRef="S" targetRef="T" />
    <bpmn:sequenceFlow id="F2" sourceRef="T" targetRef="G" />
    <bpmn:sequenceFlow id="F3" sourceRef="G" targetRef="E" />
  </bpmn:process>
</bpmn:definitions>`;

/** A btv agent task T running `ref` at its workflow's level, gated on its one path. */
const btvTask = (ref: string): string =>
  `${HEAD}
    <bpmn:serviceTask id="T"><bpmn:extensionElements><btv:agentTask agentWorkflowRef="${ref}" /></bpmn:extensionElements></bpmn:serviceTask>${TAIL}`;

/** A Camunda AI agent sub-process T on gpt-3.5-turbo with the btv `ref`, drawing tool Pay. */
const camunda = (ref: string): string => `${HEAD}
    <bpmn:adHocSubProcess id="T" btv:agentWorkflowRef="${ref}" zeebe:modelerTemplate="io.camunda.connectors.agenticai.aiagent.jobworker.v1">
      <bpmn:extensionElements>
        <zeebe:taskDefinition type="io.camunda.agenticai:aiagent-job-worker:1" />
        <zeebe:ioMapping>
          <zeebe:input source="gpt-3.5-turbo" target="provider.openai.model.model" />
          <zeebe:input source="=4" target="data.limits.maxModelCalls" />
        </zeebe:ioMapping>
      </bpmn:extensionElements>
      <bpmn:serviceTask id="Pay" btv:toolEffect="write-irreversible">
        <bpmn:extensionElements><zeebe:taskDefinition type="acme:pay:1" /></bpmn:extensionElements>
      </bpmn:serviceTask>
    </bpmn:adHocSubProcess>${TAIL}`;

/** A Camunda AI agent task T on gpt-4o whose tool container cannot be found: its tools are unknown. */
const CAMUNDA_LOST = `${HEAD}
    <bpmn:serviceTask id="T" zeebe:modelerTemplate="io.camunda.connectors.agenticai.aiagent.v1">
      <bpmn:extensionElements>
        <zeebe:taskDefinition type="io.camunda.agenticai:aiagent:1" />
        <zeebe:ioMapping>
          <zeebe:input source="gpt-4o" target="provider.openai.model.model" />
          <zeebe:input source="Nowhere" target="data.tools.containerElementId" />
          <zeebe:input source="=4" target="data.limits.maxModelCalls" />
        </zeebe:ioMapping>
      </bpmn:extensionElements>
    </bpmn:serviceTask>${TAIL}`;

const IO = { inputSchema: { a: "text" }, outputSchema: { a: "text" } };
const llm = (model: string) => ({
  id: "think",
  type: "llm",
  config: { model, promptRef: "prm:p@1.0.0", outputSchema: { a: "text" } },
});
const call = (id: string, ref: string) => ({
  id,
  type: "tool",
  config: { usesTool: ref, params: { q: "{{think.output.a}}" } },
});
/** A workflow document; one that delegates declares level 4, which delegation justifies. */
const agent = (id: string, nodes: unknown[], edges: unknown[] = []) => ({
  kind: "AgentWorkflow",
  id,
  version: "1.0.0",
  name: id,
  autonomyLevel: JSON.stringify(edges).includes('"delegate"') ? 4 : 2,
  budget: { maxSteps: 5 },
  ...IO,
  nodes,
  edges,
});
const contract = (id: string, effect: string) => ({
  kind: "ToolContract",
  id,
  version: "1.0.0",
  name: id,
  description: id,
  inputSchema: { q: "text" },
  outputSchema: { a: "text" },
  effect,
  authorization: "gate",
});

const REGISTRY: Readonly<Record<string, unknown>> = {
  // A document whose name is the one agentflow gives T's derived workflow.
  "camunda.T@1.0.0": agent("camunda.T", [llm("gpt-3.5-turbo")]),
  "agnt-payer@1.0.0": agent(
    "agnt-payer",
    [llm("gpt-3.5-turbo"), call("pay", "tool:refund@1.0.0")],
    [{ from: "think", to: "pay", edgeType: "toolCall" }],
  ),
  // gpt-4o itself; hands work to the child, which runs gpt-3.5-turbo and pays out.
  "agnt-parent@1.0.0": agent(
    "agnt-parent",
    [llm("gpt-4o")],
    [{ from: "think", to: "agnt-child@1.0.0", edgeType: "delegate" }],
  ),
  "agnt-child@1.0.0": agent(
    "agnt-child",
    [llm("gpt-3.5-turbo"), call("pay", "tool:refund@1.0.0")],
    [{ from: "think", to: "pay", edgeType: "toolCall" }],
  ),
  // Pays out itself and through the child: the refund tool has two callers.
  "agnt-both@1.0.0": agent(
    "agnt-both",
    [llm("gpt-4o"), call("pay", "tool:refund@1.0.0")],
    [
      { from: "think", to: "pay", edgeType: "toolCall" },
      { from: "think", to: "agnt-child@1.0.0", edgeType: "delegate" },
    ],
  ),
  // Hands work to a delegate no registry holds.
  "agnt-lost@1.0.0": agent(
    "agnt-lost",
    [llm("gpt-4o")],
    [{ from: "think", to: "agnt-gone@1.0.0", edgeType: "delegate" }],
  ),
  "tool:refund@1.0.0": contract("tool:refund", "write-irreversible"),
};

const PACK = {
  kind: "PolicyPack",
  name: "t",
  version: "1",
  rules: [
    {
      id: "models",
      severity: "error",
      for: "workflow",
      when: 'some m in models satisfies m != "gpt-4o"',
    },
    { id: "irrev", severity: "error", for: "tool", when: 'effect = "write-irreversible"' },
    { id: "banned", severity: "error", for: "tool", when: 'ref = "tool:banned@1.0.0"' },
  ],
};

const GRANT = { reason: "reviewed", grantedBy: "cro", expires: "2099-01-01" };
const byWorkflow = (workflow: string): Waiver[] =>
  ["t/models", "t/irrev", "t/banned"].map((rule) => ({ rule, workflow, ...GRANT }));
const byElement: Waiver[] = ["t/models", "t/irrev", "t/banned"].map((rule) => ({
  rule,
  process: "P",
  element: "T",
  ...GRANT,
}));

/**
 * A pack finding as `code element subject case waived?`: the subject is the workflow's
 * `id@version` or the tool's `ref` (`?` when the tool's identity is unknown), the case `undecided`
 * (data.reason), `assumed` (data.assumed) or `found`.
 */
type Row = string;

interface Case {
  readonly name: string;
  readonly xml: string;
  readonly waivers: readonly Waiver[];
  readonly rows: readonly Row[];
  readonly allowed: boolean;
}

const CASES: readonly Case[] = [
  {
    name: "a delegate's workflow is judged at the task, naming the delegate",
    xml: btvTask("agnt-parent@1.0.0"),
    waivers: [],
    rows: ["t/models T agnt-child@1.0.0 found -", "t/irrev T tool:refund@1.0.0 found -"],
    allowed: false,
  },
  {
    name: "the parent's waivers do not cover its delegate's findings",
    xml: btvTask("agnt-parent@1.0.0"),
    waivers: byWorkflow("agnt-parent@1.0.0"),
    rows: ["t/models T agnt-child@1.0.0 found -", "t/irrev T tool:refund@1.0.0 found -"],
    allowed: false,
  },
  {
    name: "the delegate's waivers do",
    xml: btvTask("agnt-parent@1.0.0"),
    waivers: byWorkflow("agnt-child@1.0.0"),
    rows: ["t/models T agnt-child@1.0.0 found waived", "t/irrev T tool:refund@1.0.0 found waived"],
    allowed: true,
  },
  {
    name: "a tool two workflows call is no one workflow's to waive",
    xml: btvTask("agnt-both@1.0.0"),
    waivers: byWorkflow("agnt-both@1.0.0"),
    rows: ["t/models T agnt-child@1.0.0 found -", "t/irrev T tool:refund@1.0.0 found -"],
    allowed: false,
  },
  {
    name: "a delegate that cannot be read leaves workflow and tool rules undecided",
    xml: btvTask("agnt-lost@1.0.0"),
    waivers: [],
    rows: [
      "t/models T agnt-gone@1.0.0 undecided -",
      "t/irrev T ? assumed -",
      "t/banned T ? undecided -",
    ],
    allowed: false,
  },
  {
    name: "an unread workflow leaves every tool rule undecided on the task",
    xml: btvTask("agnt-missing@1.0.0"),
    waivers: [],
    rows: [
      "t/models T agnt-missing@1.0.0 undecided -",
      "t/irrev T ? assumed -",
      "t/banned T ? undecided -",
    ],
    allowed: false,
  },
  {
    name: "findings on what could not be read are waived per element, never per workflow",
    xml: btvTask("agnt-missing@1.0.0"),
    waivers: [...byWorkflow("agnt-missing@1.0.0"), ...byElement],
    rows: [
      "t/models T agnt-missing@1.0.0 undecided waived",
      "t/irrev T ? assumed waived",
      "t/banned T ? undecided waived",
    ],
    allowed: true,
  },
  {
    name: "a Camunda tool container that cannot be found leaves every tool rule undecided",
    xml: CAMUNDA_LOST,
    waivers: [],
    rows: ["t/irrev T ? assumed -", "t/banned T ? undecided -"],
    allowed: false,
  },
  {
    name: "the ref's waivers cover the ref's workflow, not the derived one or the BPMN's tools",
    xml: camunda("agnt-payer@1.0.0"),
    waivers: [...byWorkflow("agnt-payer@1.0.0"), ...byWorkflow("camunda.T@1.0.0")],
    rows: [
      "t/models T agnt-payer@1.0.0 found waived",
      "t/irrev T tool:refund@1.0.0 found waived",
      "t/models T camunda.T@1.0.0 found -",
      "t/irrev T acme:pay:1 found -",
    ],
    allowed: false,
  },
  {
    name: "a ref named like the derived workflow names neither for sure",
    xml: camunda("camunda.T@1.0.0"),
    waivers: byWorkflow("camunda.T@1.0.0"),
    rows: [
      "t/models T camunda.T@1.0.0 found -",
      "t/models T camunda.T@1.0.0 found -",
      "t/irrev T acme:pay:1 found -",
    ],
    allowed: false,
  },
];

const text = (value: unknown): string | undefined =>
  typeof value === "string" ? value : undefined;

describe("pack subjects and workflow waivers at an agent task", () => {
  it.each(CASES)("$name", async ({ xml, waivers, rows, allowed }) => {
    const decision = await checkProcess(xml, {
      resolveWorkflow: (ref) => REGISTRY[ref],
      resolveTool: (ref) => REGISTRY[ref],
      policies: [PACK],
      waivers,
      today: "2027-01-15",
    });
    const found = [...decision.blocking, ...decision.warnings]
      .filter((d) => d.code.startsWith("t/") || d.code.startsWith("WAIVER_"))
      .map((d) => {
        const element = d.target.kind === "bpmn-element" ? d.target.elementId : d.target.kind;
        const subject = d.code.startsWith("WAIVER_")
          ? text(d.data.workflow)
          : d.code === "t/models"
            ? `${text(d.data.id) ?? "?"}@${text(d.data.version) ?? "?"}`
            : text(d.data.ref);
        const how =
          d.data.reason !== undefined
            ? "undecided"
            : d.data.assumed !== undefined
              ? "assumed"
              : "found";
        return `${d.code} ${element} ${subject ?? "?"} ${how} ${d.waived === undefined ? "-" : "waived"}`;
      })
      .sort();
    expect(found).toEqual([...rows].sort());
    expect(decision.allowed).toBe(allowed);
  });
});
