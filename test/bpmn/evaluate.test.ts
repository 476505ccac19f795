/**
 * `evaluateGates` as an API: resolvers sync and async, the agent-task summary (levels, content
 * hash, resolution), rule settings, the Camunda policy, and a host's own `isGate`.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import type { ModdleObject } from "../../src/bpmn/index.js";
import {
  checkProcess,
  evaluateGates,
  evaluateGatesSync,
  instanceOf,
  readProcess,
} from "../../src/bpmn/index.js";
import { contentHash, parseToolContractText, parseWorkflowText } from "../../src/model/index.js";

const loanXml = readFileSync("examples/processes/loan-origination.bpmn", "utf8");
const registryDoc = (name: string): unknown =>
  parseWorkflowText(readFileSync(`examples/registry/${name}`, "utf8")).value;
const docs = new Map<string, unknown>([
  ["agnt-credit-risk@1.0.0", registryDoc("credit-risk.agent.json")],
  ["agnt-offer-sender@1.0.0", registryDoc("offer-sender.agent.json")],
  ["tool:credit-bureau-report@2.0.0", registryDoc("credit-bureau-report.tool.json")],
  ["tool:send-loan-offer@1.1.0", registryDoc("send-loan-offer.tool.json")],
]);
const lookup = (ref: string): unknown => docs.get(ref);

async function loan(): Promise<ModdleObject> {
  const { definitions } = await readProcess(loanXml);
  if (definitions === undefined) throw new Error("the example must parse");
  return definitions;
}

describe("evaluateGates", () => {
  it("summarises each agent task with the hash of exactly what was reviewed", async () => {
    const decision = await evaluateGates(await loan(), {
      resolveWorkflow: lookup,
      resolveTool: lookup,
    });
    expect(decision.allowed).toBe(false);
    const credit = parseWorkflowText(
      readFileSync("examples/registry/credit-risk.agent.json", "utf8"),
    );
    const bureau = parseToolContractText(
      readFileSync("examples/registry/credit-bureau-report.tool.json", "utf8"),
    );
    expect(decision.agentTasks).toEqual([
      {
        elementId: "AssessCreditRisk",
        source: "btv",
        ref: "agnt-credit-risk@1.0.0",
        level: 2,
        justifiedLevel: 2,
        resolution: "registry",
        contentHash: contentHash(credit.workflow),
        requirement: "required",
        gate: "reached",
        dependencies: [
          {
            kind: "tool",
            ref: "tool:credit-bureau-report@2.0.0",
            nodeId: "pull-report",
            contentHash: contentHash(bureau.contract),
            effect: "read",
            authorization: "automatic",
          },
        ],
      },
      expect.objectContaining({ elementId: "DraftAndSendOffer", level: 3, gate: "missing" }),
    ]);
  });

  it("takes async resolvers; the sync variant refuses them with a TypeError", async () => {
    const definitions = await loan();
    const async = await evaluateGates(definitions, {
      resolveWorkflow: (ref) => Promise.resolve(lookup(ref)),
      resolveTool: (ref) => Promise.resolve(lookup(ref)),
    });
    const sync = evaluateGatesSync(definitions, { resolveWorkflow: lookup, resolveTool: lookup });
    expect(async).toEqual(sync);
    expect(() =>
      evaluateGatesSync(definitions, { resolveWorkflow: (ref) => Promise.resolve(lookup(ref)) }),
    ).toThrow(TypeError);
  });

  it("rule settings silence or soften a rule; an unknown code is a TypeError", async () => {
    const definitions = await loan();
    const options = { resolveWorkflow: lookup, resolveTool: lookup };
    const off = await evaluateGates(definitions, {
      ...options,
      rules: { AGENT_GATE_UNREACHABLE: "off", TOOL_EFFECT_NEEDS_GATE: "warning" },
    });
    expect(off.allowed).toBe(true);
    expect(off.warnings.map((d) => d.code)).toEqual(["TOOL_EFFECT_NEEDS_GATE"]);
    await expect(evaluateGates(definitions, { rules: { NOPE: "off" } })).rejects.toThrow(
      "unknown BPMN rule 'NOPE'",
    );
  });

  it("a host's isGate (every user task) replaces the btv:gate marker", async () => {
    const xml = loanXml.replaceAll(/<btv:gate [^>]*\/>/g, "");
    const withoutMarkers = await checkProcess(xml, {
      resolveWorkflow: lookup,
      resolveTool: lookup,
    });
    expect(withoutMarkers.agentTasks.map((t) => t.gate)).toEqual(["missing", "missing"]);
    const userTasks = await checkProcess(xml, {
      resolveWorkflow: lookup,
      resolveTool: lookup,
      isGate: (element) => instanceOf(element, "bpmn:UserTask"),
    });
    expect(userTasks.agentTasks.map((t) => t.gate)).toEqual(["reached", "missing"]);
  });
});

describe("Camunda 8 agents", () => {
  const zeebe = createRequire(import.meta.url)("zeebe-bpmn-moddle/resources/zeebe.json") as object;
  const fixture = readFileSync(
    "test/fixtures/bpmn/zeebe-bpmn-moddle/zeebe-agentDefinition.bpmn",
    "utf8",
  );

  it.each([
    ["without zeebe-bpmn-moddle", {}],
    ["with zeebe-bpmn-moddle registered", { zeebe }],
  ])(
    "zeebe:agentDefinition aiAgentTask is an AI Agent task read from the BPMN %s",
    async (_name, extensions) => {
      const result = await checkProcess(fixture, { moddleExtensions: extensions });
      // No tools and no inputs: one model call, level 1 (issue 39; it was of unknown level before).
      expect(result.agentTasks).toEqual([
        expect.objectContaining({
          elementId: "ServiceTask_1",
          source: "camunda",
          resolution: "derived",
          level: 1,
          requirement: "required",
          gate: "missing",
        }),
      ]);
      expect(result.blocking.map((d) => d.code)).toEqual(["AGENT_GATE_UNREACHABLE"]);
    },
  );

  it.each([
    ["gate-required", ["AGENT_GATE_UNREACHABLE"], []],
    ["gate-optional", [], ["AGENT_GATE_OPTIONAL"]],
    ["ignore", [], []],
  ] as const)(
    "policy %s governs an external agent (nothing to read)",
    async (policy, blocking, warnings) => {
      const external = fixture.replace('agentType="aiAgentTask"', 'agentType="external"');
      const result = await checkProcess(external, { policy: { camundaAgents: policy } });
      expect(result.agentTasks.map((t) => [t.resolution, t.level])).toEqual([["unresolved", null]]);
      expect(result.blocking.map((d) => d.code)).toEqual(blocking);
      expect(result.warnings.map((d) => d.code)).toEqual(warnings);
    },
  );

  it("the AI Agent element template and the tool-container property mark agents too", async () => {
    const xml = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0" id="d">
  <bpmn:process id="p">
    <bpmn:serviceTask id="byTemplate" zeebe:modelerTemplate="io.camunda.connectors.agenticai.aiagent.v1"/>
    <bpmn:adHocSubProcess id="byProperty"><bpmn:extensionElements><zeebe:properties><zeebe:property name="io.camunda.agenticai.toolContainer" value="true"/></zeebe:properties></bpmn:extensionElements><bpmn:task id="tool"/></bpmn:adHocSubProcess>
    <bpmn:serviceTask id="plain" zeebe:modelerTemplate="io.camunda.connectors.HttpJson.v2"/>
  </bpmn:process>
</bpmn:definitions>`;
    const result = await checkProcess(xml);
    expect(result.agentTasks.map((t) => [t.elementId, t.source])).toEqual([
      ["byTemplate", "camunda"],
      ["byProperty", "camunda"],
    ]);
  });
});
