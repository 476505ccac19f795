/**
 * A btv ref on a Camunda AI agent agentflow reads (red team t10): the engine runs the agent the
 * BPMN draws — its tools, its limits, its model — whatever the ref's workflow says, so the ref
 * does not replace the reading. Both are judged and the strictest wins: the refund example's
 * irreversible payment needs its gate whether or not the element also names a harmless
 * level-4 workflow.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { GateDecision, GateOptions } from "../../../src/bpmn/index.js";
import { checkProcess } from "../../../src/bpmn/index.js";
import type { AgentWorkflow } from "../../../src/model/index.js";
import { registryLookup } from "../rule-tester.js";
import { viewOf } from "../view/view-of.js";
import { READINGS } from "./fixtures.js";

const EXAMPLE = readFileSync("examples/processes/refund-triage.bpmn", "utf8");
const GATE = '<btv:gate approverRole="supervisor" />';
const AGENT = '<bpmn:adHocSubProcess id="Agent" name="Refund agent"';
const EXTENSIONS = "<bpmn:extensionElements>\n        <zeebe:adHoc ";
const REF = "agnt-desk@1.0.0";
/** A workflow of one llm node answering `r` (and `q`, for a delegate to read). */
const llmOnly = (id: string, level: 1 | 4, outputs: Record<string, string>): AgentWorkflow => ({
  kind: "AgentWorkflow",
  id,
  version: "1.0.0",
  name: id,
  autonomyLevel: level,
  budget: { maxSteps: 5 },
  inputSchema: { q: "text" },
  outputSchema: { r: "text" },
  nodes: [
    {
      id: "think",
      type: "llm",
      config: {
        model: "gpt-4o",
        promptRef: `prm:${id}@1.0.0`,
        structuredOutput: true,
        outputSchema: outputs,
      },
    },
  ],
  edges: [],
});
/** A harmless, valid level-4 workflow: it calls no tool, and delegates to a level-1 helper. */
const DESK: AgentWorkflow = {
  ...llmOnly("agnt-desk", 4, { q: "text", r: "text" }),
  edges: [{ from: "think", to: "agnt-helper@1.0.0", edgeType: "delegate" }],
};
const lookup = registryLookup([DESK, llmOnly("agnt-helper", 1, { r: "text" })]);
const REGISTRY: GateOptions = { resolveWorkflow: lookup, resolveTool: lookup };

/** The example, its gate removed unless kept, naming the desk workflow as `form` says. */
function named(form: "element" | "attribute" | "none", keepGate = false): string {
  const gated = keepGate ? EXAMPLE : EXAMPLE.replace(GATE, "");
  expect(gated.includes(AGENT) && gated.includes(EXTENSIONS)).toBe(true);
  if (form === "attribute") return gated.replace(AGENT, `${AGENT} btv:agentWorkflowRef="${REF}"`);
  if (form === "none") return gated;
  return gated.replace(
    EXTENSIONS,
    `<bpmn:extensionElements>\n        <btv:agentTask agentWorkflowRef="${REF}" />\n        <zeebe:adHoc `,
  );
}

/** Every finding as `code node`, blocking first, each list sorted. */
function findings(decision: GateDecision): { blocking: string[]; warnings: string[] } {
  const line = (d: GateDecision["blocking"][number]) => {
    const node = d.data.nodeId ?? d.data.toolId;
    return typeof node === "string" ? `${d.code} ${node}` : d.code;
  };
  return {
    blocking: decision.blocking.map(line).sort(),
    warnings: decision.warnings.map(line).sort(),
  };
}

/** What the refund agent may do, ungated: the same with or without a btv ref beside it. */
const UNGATED = {
  blocking: [
    "AGENT_GATE_UNREACHABLE",
    "TOOL_EFFECT_NEEDS_GATE CheckFraud",
    "TOOL_EFFECT_NEEDS_GATE LegacyCheck",
    "TOOL_EFFECT_NEEDS_GATE RefundPayment",
  ],
  warnings: ["CAMUNDA_TOOL_EFFECT_UNMAPPED CheckFraud", "CAMUNDA_TOOL_EFFECT_UNMAPPED LegacyCheck"],
};

describe.each(READINGS)("a btv ref on the refund example's AI agent (%s)", (_, reading) => {
  it.each(["element", "attribute"] as const)(
    "blocks it ungated as it does without the ref (the ref as a btv:agentTask %s)",
    async (form) => {
      const bare = await checkProcess(named("none"), { ...reading, ...REGISTRY });
      const decision = await checkProcess(named(form), { ...reading, ...REGISTRY });
      expect(findings(bare)).toEqual(UNGATED);
      expect(decision.allowed).toBe(false);
      expect(findings(decision)).toEqual(UNGATED);
      expect(
        decision.agentTasks.map((t) => [
          t.elementId,
          t.source,
          t.ref,
          t.level,
          t.resolution,
          t.requirement,
          t.derived?.workflowRef,
          t.derived?.level,
        ]),
      ).toEqual([["Agent", "btv", REF, 4, "registry", "required", "camunda.Agent@1.0.0", 3]]);
      const unreachable = decision.blocking.find((d) => d.code === "AGENT_GATE_UNREACHABLE");
      expect(unreachable?.message).toMatch(
        /^agent task "Agent" names agnt-desk@1\.0\.0 \(autonomy level 4\) but runs the Camunda AI agent the BPMN draws, read at autonomy level 3: it needs an approval gate downstream, and no gate is reachable from it/,
      );
      const payment = decision.blocking.find((d) => d.data.nodeId === "RefundPayment");
      expect(payment?.data).toMatchObject({
        ref: "camunda.Agent@1.0.0",
        tool: "tool:camunda.RefundPayment@1.0.0",
        effect: "write-irreversible",
      });
    },
  );

  it("allows it behind its supervisor's gate, still naming the tools nothing maps", async () => {
    const decision = await checkProcess(named("element", true), { ...reading, ...REGISTRY });
    expect(findings(decision)).toEqual({ blocking: [], warnings: UNGATED.warnings });
    expect(decision.agentTasks.map((t) => [t.requirement, t.gate])).toEqual([
      ["required", "reached"],
    ]);
  });

  it("validates the ref's workflow too: its errors and the tools drawn both block", async () => {
    // The desk hands the helper `q`, which this helper's input does not take.
    const broken = registryLookup([
      DESK,
      { ...llmOnly("agnt-helper", 1, { r: "text" }), inputSchema: { other: "int" } },
    ]);
    const decision = await checkProcess(named("element"), {
      ...reading,
      resolveWorkflow: broken,
      resolveTool: broken,
    });
    expect(findings(decision).blocking).toEqual(
      [...UNGATED.blocking, "AGENT_WORKFLOW_INVALID"].sort(),
    );
  });

  it("reads the tools beside the ref with the organisation's mapping", async () => {
    const decision = await checkProcess(named("element"), {
      ...reading,
      ...REGISTRY,
      toolEffects: { "acme:fraud-score:1": "read" },
    });
    expect(findings(decision)).toEqual({
      blocking: UNGATED.blocking.filter((f) => !f.endsWith("CheckFraud")),
      warnings: ["CAMUNDA_TOOL_EFFECT_UNMAPPED LegacyCheck"],
    });
  });

  it("keeps the tools when the ref cannot be resolved: the task is unreviewed and its tools count", async () => {
    const decision = await checkProcess(named("element"), reading);
    expect(decision.allowed).toBe(false);
    expect(findings(decision).blocking).toEqual(UNGATED.blocking);
    expect(decision.agentTasks.map((t) => [t.resolution, t.requirement])).toEqual([
      ["unresolved", "required"],
    ]);
  });
});

describe("a btv ref on an AI Agent task, whose tools are another element's", () => {
  const SUPPORT = readFileSync("test/fixtures/camunda/task-v11-support.bpmn", "utf8");
  const JOB = '<zeebe:taskDefinition type="io.camunda.agenticai:aiagent:1" retries="3" />';
  const CONTAINER = '<zeebe:adHoc activeElementsCollection="=[toolCall._meta.name]" />';
  const PROPERTY =
    '<zeebe:properties><zeebe:property name="io.camunda.agenticai.toolContainer" value="true" /></zeebe:properties>';
  /** The support agent naming `ref`, its container marked; `containerRef` named on the container. */
  const support = (containerRef?: string) =>
    SUPPORT.replace(JOB, `<btv:agentTask agentWorkflowRef="${REF}" />${JOB}`).replace(
      CONTAINER,
      `${containerRef === undefined ? "" : `<btv:agentTask agentWorkflowRef="${containerRef}" />`}${CONTAINER}${PROPERTY}`,
    );
  const rows = (decision: GateDecision) =>
    decision.agentTasks.map((t) => [t.elementId, t.source, t.derived?.tools.map((x) => x.id)]);
  const TOOLS = ["SendDeliveryMail", "PostToSupport", "TrackParcel"];

  it.each(READINGS)(
    "reads the container's tools on the task, not as an agent of their own (%s)",
    async (_, reading) => {
      const decision = await checkProcess(support(), { ...reading, ...REGISTRY });
      expect(rows(decision)).toEqual([["Agent", "btv", TOOLS]]);
    },
  );

  it.each(READINGS)(
    "keeps a btv ref on the container as an agent task, its tools read once, on the task (%s)",
    async (_, reading) => {
      const decision = await checkProcess(support(REF), { ...reading, ...REGISTRY });
      expect(rows(decision)).toEqual([
        ["Agent", "btv", TOOLS],
        ["Tools", "btv", undefined],
      ]);
    },
  );
});

describe("the policy facts of a btv ref on a Camunda AI agent", () => {
  it("read as many tools and models as run, the engine's limits as the budget, and both workflows", async () => {
    const { view } = await viewOf(named("element", true), REGISTRY);
    const task = view.agentTasks.find((t) => t.element.id === "Agent");
    expect(task).toMatchObject({
      ref: REF,
      level: 4,
      camunda: true,
      models: ["gpt-4o"],
      budget: { maxSteps: 8, maxTokens: 1024, maxWallTimeMs: null },
      unread: [],
    });
    expect(task?.tools?.map((t) => [t.id, t.effect])).toEqual([
      ["LookupOrder", "read"],
      ["RefundPayment", "write-irreversible"],
      ["NotifyCustomer", "notify"],
      ["ApproveRefund", "read"],
      ["CheckFraud", null],
      ["ArchiveCase", "write-reversible"],
      ["LegacyCheck", null],
    ]);
    expect(view.tools.map((t) => t.id)).toContain("RefundPayment");
    expect(view.workflows.map((w) => [w.id, w.level, w.tools?.length ?? null])).toEqual([
      ["agnt-desk", 4, 0],
      ["camunda.Agent", 3, 7],
      // The desk's delegate: a workflow the agent runs, judged as its own subject.
      ["agnt-helper", 1, 0],
    ]);
  });

  // Red team: a harmless level-1 ref lowered the justified level a pack reads, and a rule on
  // `justifiedLevel >= 3` let the agent the BPMN draws (a tool choice: 3) pass.
  it("read the justified level as the higher of the ref's and the BPMN agent's", async () => {
    const xml = named("attribute", true).replace(REF, "agnt-helper@1.0.0");
    const { view } = await viewOf(xml, REGISTRY);
    const task = view.agentTasks.find((t) => t.element.id === "Agent");
    expect([task?.ref, task?.level, task?.justifiedLevel]).toEqual(["agnt-helper@1.0.0", 1, 3]);
  });

  it("read the tools as unknown when the ref's workflow cannot be read, and keep the BPMN's as subjects", async () => {
    const { view } = await viewOf(named("element", true));
    const task = view.agentTasks.find((t) => t.element.id === "Agent");
    expect(task).toMatchObject({ tools: null, models: null, camunda: true });
    expect(view.tools.map((t) => t.id)).toContain("RefundPayment");
    expect(view.workflows.map((w) => w.id)).toEqual(["camunda.Agent", "agnt-desk"]);
  });
});
