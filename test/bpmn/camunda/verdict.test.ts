/**
 * Gate verdicts from the agent read from the BPMN (issue 39, item 3): the derived level with its
 * reasons naming the elements, the requirement it gives, TOOL_EFFECT_NEEDS_GATE on the derived
 * effects, the unmapped tool's hint, the unbounded loop, and the same verdict through
 * `evaluateGates`, `evaluateGatesSync` and the bpmnlint plugin (whose messages name the elements).
 */
import { describe, expect, it } from "vitest";
import type { GateDecision } from "../../../src/bpmn/index.js";
import { evaluateGates, evaluateGatesSync, readProcess } from "../../../src/bpmn/index.js";
import { namedDecision } from "../../../src/bpmn/evaluate-labels.js";
import { createRules } from "../../../src/bpmn/lint/index.js";
import { check, derivedOf, fixture } from "./fixtures.js";

const codes = (decision: GateDecision) => ({
  allowed: decision.allowed,
  blocking: decision.blocking.map((d) => d.code),
  warnings: decision.warnings.map((d) => d.code),
});

describe("the derived agent's level", () => {
  it("is 3 for a model choosing among several tools in a loop, with the elements named", async () => {
    const { task, derived } = derivedOf(await check("task-v11-support.bpmn"));
    expect([task.level, task.justifiedLevel, task.requirement]).toEqual([3, 3, "required"]);
    expect(derived.reasons).toEqual([
      {
        level: 3,
        feature: "branching-decision",
        nodeIds: ["Agent.next", "SendDeliveryMail", "PostToSupport", "TrackParcel"],
        edgeIndexes: [],
      },
      {
        level: 2,
        feature: "loop",
        nodeIds: ["Agent", "Agent.next", "SendDeliveryMail", "PostToSupport", "TrackParcel"],
        edgeIndexes: [],
      },
    ]);
  });

  it("is 1 for an agent with no tools (one model call)", async () => {
    const { task, derived } = derivedOf(await check("task-v4-no-tools.bpmn"));
    expect([task.level, derived.reasons]).toEqual([1, []]);
  });

  it("is 4 for an agent with an A2A tool (a delegation), which is no agent task of its own", async () => {
    const decision = await check("subprocess-v4-gateways.bpmn");
    expect(decision.agentTasks.map((t) => t.elementId)).toEqual(["Agent"]);
    const { task, derived } = derivedOf(decision);
    expect([task.level, task.requirement]).toEqual([4, "optional"]);
    expect(derived.reasons[0]).toEqual({
      level: 4,
      feature: "delegation",
      nodeIds: ["PartnerAgent"],
      edgeIndexes: [4],
    });
  });
});

describe("verdicts on the fixtures", () => {
  it("allows the refund agent behind a gate, warning about each unmapped tool with the hint", async () => {
    const decision = await check("subprocess-v11-refund.bpmn");
    expect(codes(decision)).toEqual({
      allowed: true,
      blocking: [],
      warnings: ["CAMUNDA_TOOL_EFFECT_UNMAPPED", "CAMUNDA_TOOL_EFFECT_UNMAPPED"],
    });
    expect(decision.warnings.map((d) => d.message)).toEqual([
      'Camunda agent "Agent" may call tool "CheckFraud", whose effect is unknown (no btv:toolEffect, toolEffects mapping or agentflow default covers job type \'acme:fraud-score:1\'); it counts as needing a gate. Map it: add "toolEffects": { "acme:fraud-score:1": "<effect>" } to agentflow.config.json, or btv:toolEffect="<effect>" on "CheckFraud"',
      'Camunda agent "Agent" may call tool "LegacyCheck", whose effect is unknown (a call activity: the process it calls is not read); it counts as needing a gate. Map it: add btv:toolEffect="<effect>" on "LegacyCheck"',
    ]);
    expect(decision.agentTasks[0]?.gate).toBe("reached");
  });

  it("blocks a tool of unmapped type with no gate after the agent, and the mapping lifts it", async () => {
    const decision = await check("subprocess-v11-no-marker.bpmn", {
      toolEffects: {},
    });
    // Level 3 needs a gate whatever the tools do.
    expect(codes(decision).blocking).toEqual(["AGENT_GATE_UNREACHABLE"]);
    const unmapped = await check("subprocess-v4-gateways.bpmn");
    expect(codes(unmapped)).toEqual({
      allowed: false,
      blocking: ["TOOL_EFFECT_NEEDS_GATE", "TOOL_EFFECT_NEEDS_GATE", "TOOL_EFFECT_NEEDS_GATE"],
      warnings: [
        "CAMUNDA_TOOL_EFFECT_UNMAPPED",
        "CAMUNDA_TOOL_EFFECT_UNMAPPED",
        "CAMUNDA_TOOL_EFFECT_UNMAPPED",
        "AGENT_GATE_OPTIONAL",
      ],
    });
    expect(unmapped.blocking[0]?.message).toBe(
      `camunda.Agent@1.0.0 (agent task "Agent") calls "tool:camunda.RunJobScript@1.0.0" at node "RunJobScript", whose effect is unknown (no btv:toolEffect, toolEffects mapping or agentflow default covers job type 'acme:summary-script:1') and so counts as needing a gate, but the gate downstream is missing`,
    );
    expect(unmapped.agentTasks[0]?.dependencies[0]).toMatchObject({
      kind: "tool",
      ref: "tool:camunda.RunJobScript@1.0.0",
      nodeId: "RunJobScript",
      effectSource: "unknown",
      failure: { reason: "unmapped" },
    });
    const mapped = await check("subprocess-v4-gateways.bpmn", {
      toolEffects: {
        "acme:summary-script:1": "read",
        "io.camunda.connectors.agenticai.mcp.remoteclient.v0": "read",
        "io.camunda.connectors.agenticai.a2a.client.v0": "propose",
      },
    });
    expect(codes(mapped)).toEqual({
      allowed: true,
      blocking: [],
      warnings: ["AGENT_GATE_OPTIONAL"],
    });
  });

  it("blocks an irreversible tool and an unbounded loop", async () => {
    expect(codes(await check("task-v7-unbounded.bpmn"))).toEqual({
      allowed: false,
      blocking: ["CAMUNDA_AGENT_UNBOUNDED", "AGENT_GATE_UNREACHABLE", "TOOL_EFFECT_NEEDS_GATE"],
      warnings: [],
    });
    const feel = await check("subprocess-v2-custom.bpmn");
    expect(codes(feel)).toEqual({
      allowed: false,
      blocking: ["CAMUNDA_AGENT_UNBOUNDED"],
      warnings: [],
    });
    expect(feel.blocking[0]?.message).toBe(
      `Camunda agent "Agent" calls its 3 tool(s) in a loop whose maximum of model calls is the expression '=maxCalls' (data.limits.maxModelCalls), which agentflow cannot evaluate, so the loop has no stated bound`,
    );
  });

  it("fails closed on a container that is not in the file", async () => {
    const decision = await check("task-v11-missing-container.bpmn");
    // The agent names no container in the file, so the ad-hoc sub-process "Tools", whose
    // collection is read at run time, is an agent of its own (not derived) as well.
    expect(decision.agentTasks.map((t) => [t.elementId, t.resolution])).toEqual([
      ["Agent", "derived"],
      ["Tools", "unresolved"],
    ]);
    expect(codes(decision)).toEqual({
      allowed: false,
      blocking: ["AGENT_GATE_UNREACHABLE", "AGENT_GATE_UNREACHABLE", "TOOL_EFFECT_NEEDS_GATE"],
      warnings: ["AGENT_DEPENDENCY_UNRESOLVED", "CAMUNDA_TOOL_EFFECT_UNMAPPED"],
    });
  });

  it("reads the BPMN's agent beside a btv:agentTask: the ref names a workflow, the engine runs the tools drawn", async () => {
    const xml = fixture("subprocess-v4-gateways.bpmn").replace(
      "<zeebe:adHoc ",
      '<btv:agentTask agentWorkflowRef="agnt-research@1.0.0" />\n<zeebe:adHoc ',
    );
    const decision = await (await import("../../../src/bpmn/index.js")).checkProcess(xml);
    expect(
      decision.agentTasks.map((t) => [
        t.elementId,
        t.source,
        t.resolution,
        t.derived?.workflowRef,
        t.derived?.tools.map((tool) => tool.id),
      ]),
    ).toEqual([
      // Still a tool of the read agent: the A2A client is its delegation, no agent task.
      [
        "Agent",
        "btv",
        "unresolved",
        "camunda.Agent@1.0.0",
        ["RunJobScript", "ResearchServer", "PartnerAgent"],
      ],
    ]);
  });
});

describe("the same verdict everywhere", () => {
  const options = { toolEffects: { "acme:fraud-score:1": "write-irreversible" as const } };

  it("evaluateGates, evaluateGatesSync and the bpmnlint rules agree", async () => {
    const xml = fixture("subprocess-v11-refund.bpmn").replace(
      /<btv:gate approverRole="supervisor" \/>/,
      "",
    );
    const { definitions } = await readProcess(xml);
    if (definitions === undefined) throw new Error("unreadable");
    const asyncDecision = await evaluateGates(definitions, options);
    const syncDecision = evaluateGatesSync(definitions, options);
    expect(codes(asyncDecision)).toEqual(codes(syncDecision));
    expect(codes(syncDecision)).toEqual({
      allowed: false,
      blocking: [
        "AGENT_GATE_UNREACHABLE",
        "TOOL_EFFECT_NEEDS_GATE",
        "TOOL_EFFECT_NEEDS_GATE",
        "TOOL_EFFECT_NEEDS_GATE",
      ],
      warnings: ["CAMUNDA_TOOL_EFFECT_UNMAPPED"],
    });
    expect(syncDecision.blocking.slice(1).map((d) => d.data.nodeId)).toEqual([
      "RefundPayment",
      "CheckFraud",
      "LegacyCheck",
    ]);
    const rules = createRules(options);
    const reported: string[] = [];
    for (const name of [
      "agent-gate-unreachable",
      "tool-effect-needs-gate",
      "camunda-tool-effect-unmapped",
    ] as const) {
      rules[name](undefined).check(definitions, {
        report: (id: string, message: string) => reported.push(`${name} ${id}: ${message}`),
      });
    }
    // The same findings, worded with the elements' names as a modeller shows them.
    const named = namedDecision(syncDecision, definitions, options);
    expect(reported).toEqual(
      [...named.blocking, ...named.warnings].map(
        (d) => `${d.code.toLowerCase().replaceAll("_", "-")} Agent: ${d.message}`,
      ),
    );
    expect(reported.at(-1)).toBe(
      'camunda-tool-effect-unmapped Agent: Camunda agent "Refund agent" may call tool "Legacy check", whose effect is unknown (a call activity: the process it calls is not read); it counts as needing a gate. Map it: add btv:toolEffect="<effect>" on "Legacy check"',
    );
  });
});
