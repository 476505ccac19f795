/**
 * Reading a Camunda AI agent from the BPMN (issue 39, item 1): both variants, template versions
 * 4, 7, 11 and v2, every field the docs list, the tools as Camunda resolves them (the root
 * elements of the container, with description and fromAi parameters), on fixtures drawn the way
 * Camunda Modeler saves them (with DI), read with and without zeebe-bpmn-moddle.
 */
import { describe, expect, it } from "vitest";
import { sha256 } from "../../../src/model/index.js";
import { check, derivedOf, fixture, READINGS } from "./fixtures.js";

const PROMPT =
  '="You are the refund desk of an online shop.\nAlways look the order up before anything else.\nNever pay out more than 100 EUR without approval."';

describe.each(READINGS)("reading Camunda agents (%s)", (_label, options) => {
  it("reads the sub-process variant, template 11: model, provider, prompt hash, limits, tools", async () => {
    const { task, derived } = derivedOf(await check("subprocess-v11-refund.bpmn", options));
    expect(task.source).toBe("camunda");
    expect(task.resolution).toBe("derived");
    expect(task.ref).toBeNull();
    expect(derived).toMatchObject({
      elementId: "Agent",
      name: "Refund agent",
      variant: "sub-process",
      templateId: "io.camunda.connectors.agenticai.aiagent.jobworker.v1",
      templateVersion: 11,
      jobType: "io.camunda.agenticai:aiagent-job-worker:1",
      provider: "openai",
      model: "gpt-4o",
      systemPromptHash: `sha256:${sha256(PROMPT)}`,
      limits: {
        maxModelCalls: { input: "data.limits.maxModelCalls", source: "=8", value: 8 },
        maxTokensPerResponse: {
          input: "provider.openai.model.parameters.maxCompletionTokens",
          source: "=1024",
          value: 1024,
        },
      },
      container: { id: "Agent", found: true },
      workflowRef: "camunda.Agent@1.0.0",
      unbounded: false,
      people: ["ApproveRefund"],
    });
    expect(derived.tools.map((t) => [t.id, t.elementType, t.templateId, t.jobType])).toEqual([
      [
        "LookupOrder",
        "bpmn:ServiceTask",
        "io.camunda.connectors.HttpJson.v2",
        "io.camunda:http-json:1",
      ],
      [
        "RefundPayment",
        "bpmn:ServiceTask",
        "io.camunda.connectors.HttpJson.v2",
        "io.camunda:http-json:1",
      ],
      [
        "NotifyCustomer",
        "bpmn:ServiceTask",
        "io.camunda.connectors.email.v1",
        "io.camunda:email:1",
      ],
      ["ApproveRefund", "bpmn:UserTask", undefined, undefined],
      ["CheckFraud", "bpmn:ServiceTask", undefined, "acme:fraud-score:1"],
      ["ArchiveCase", "bpmn:ServiceTask", undefined, "acme:archive:1"],
      ["LegacyCheck", "bpmn:CallActivity", undefined, undefined],
    ]);
    const lookup = derived.tools[0];
    expect(lookup?.description).toBe(
      "Loads an order by its number, with its items and payment state.",
    );
    expect(lookup?.fromAi).toEqual(["orderNumber"]);
    expect(lookup?.inputs.method).toBe("GET");
    expect(derived.tools[2]?.fromAi).toEqual(["recipient", "subject", "body"]);
    expect(derived.tools[3]?.nature).toBe("user-task");
    expect(derived.tools[6]?.nature).toBe("call-activity");
    expect(derived.tools.every((t) => t.contentHash.startsWith("sha256:"))).toBe(true);
  });

  it("reads the task variant, template 11: the tools are those of the container it names", async () => {
    const { derived } = derivedOf(await check("task-v11-support.bpmn", options));
    expect(derived).toMatchObject({
      variant: "task",
      templateVersion: 11,
      provider: "anthropic",
      model: "claude-sonnet-4-6",
      limits: {
        maxModelCalls: { value: 10 },
        maxTokensPerResponse: {
          input: "provider.anthropic.model.parameters.maxTokens",
          value: 2048,
        },
      },
      container: { id: "Tools", found: true },
    });
    expect(derived.tools.map((t) => [t.id, t.name, t.description])).toEqual([
      [
        "SendDeliveryMail",
        "Send delivery mail",
        "Emails the customer the current delivery status.",
      ],
      ["PostToSupport", "Post to support", "Tells the support channel about the case."],
      ["TrackParcel", "Track parcel", "Finds where a parcel is."],
    ]);
  });

  it("reads older and newer templates: task 7 and 4, sub-process 4 and v2", async () => {
    const v7 = derivedOf(await check("task-v7-unbounded.bpmn", options)).derived;
    expect([v7.templateVersion, v7.provider, v7.model, v7.limits.maxModelCalls]).toEqual([
      7,
      "openai",
      "gpt-4o",
      undefined,
    ]);
    const v4 = derivedOf(await check("task-v4-no-tools.bpmn", options)).derived;
    expect([v4.templateVersion, v4.model, v4.container, v4.tools]).toEqual([
      4,
      "claude-3-5-sonnet-20240620",
      undefined,
      [],
    ]);
    const sub4 = derivedOf(await check("subprocess-v4-gateways.bpmn", options)).derived;
    expect([sub4.templateVersion, sub4.provider, sub4.limits.maxModelCalls?.value]).toEqual([
      4,
      "bedrock",
      15,
    ]);
    expect(sub4.tools.map((t) => [t.id, t.nature, t.gateway])).toEqual([
      ["RunJobScript", "connector", undefined],
      ["ResearchServer", "gateway", "mcpClient"],
      ["PartnerAgent", "gateway", "a2aClient"],
    ]);
    const v2 = derivedOf(await check("subprocess-v2-custom.bpmn", options)).derived;
    expect(v2).toMatchObject({
      templateId: "io.camunda.connectors.agenticai.ai-agent-subprocess.v2",
      templateVersion: 1,
      jobType: "io.camunda.agenticai:aiagent:subprocess:2",
      provider: "custom:acme-llm-gateway",
      model: "gpt-4o",
      limits: { maxModelCalls: { source: "=maxCalls" } },
      unbounded: true,
    });
    expect(v2.limits.maxModelCalls?.value).toBeUndefined();
    expect(v2.tools.map((t) => [t.id, t.nature])).toEqual([
      ["CreateChannel", "connector"],
      ["PostWelcome", "connector"],
      ["ComputeVat", "engine"],
    ]);
  });

  it("reads a sub-process without the tool-container property (modelled before it existed)", async () => {
    const { derived } = derivedOf(await check("subprocess-v11-no-marker.bpmn", options));
    expect(derived.tools.map((t) => t.id)).toEqual(["LookupOrder", "ApproveRefund"]);
  });

  it("says when a task's container is not in the file", async () => {
    const { derived } = derivedOf(await check("task-v11-missing-container.bpmn", options));
    expect(derived.container).toEqual({
      id: "TriageTools",
      found: false,
      problem: 'no ad-hoc sub-process "TriageTools" is in the definitions',
    });
    expect(derived.tools).toEqual([]);
  });
});

describe("the fixtures are what Camunda Modeler saves", () => {
  const files = [
    "subprocess-v11-refund.bpmn",
    "subprocess-v11-no-marker.bpmn",
    "subprocess-v4-gateways.bpmn",
    "subprocess-v2-custom.bpmn",
    "task-v11-support.bpmn",
    "task-v7-unbounded.bpmn",
    "task-v4-no-tools.bpmn",
    "task-v11-missing-container.bpmn",
  ];

  it.each(files)("%s reads without loss and draws every element", async (name) => {
    for (const [, options] of READINGS) {
      const decision = await check(name, options);
      expect([...decision.blocking, ...decision.warnings].map((d) => d.code)).not.toContain(
        "BPMN_PARSE",
      );
    }
    const xml = fixture(name);
    const ids = [
      ...xml.matchAll(
        /<bpmn:(?!definitions|process|documentation|extensionElements|incoming|outgoing|conditionExpression|multiInstance)\w+ id="([^"]+)"/g,
      ),
    ].map((m) => m[1]);
    const drawn = new Set([...xml.matchAll(/bpmnElement="([^"]+)"/g)].map((m) => m[1]));
    expect(ids.length).toBeGreaterThan(3);
    expect(ids.filter((id) => !drawn.has(id))).toEqual([]);
  });
});
