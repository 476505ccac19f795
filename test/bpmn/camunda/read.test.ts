/**
 * Reading a Camunda AI agent from the BPMN (issue 39, item 1): both variants, template versions
 * 4, 7, 11 and v2, every field the docs list, the tools as Camunda resolves them (the root
 * elements of the container, with description and fromAi parameters), on fixtures drawn the way
 * Camunda Modeler saves them (with DI), read with and without zeebe-bpmn-moddle.
 */
import { describe, expect, it } from "vitest";
import { sha256 } from "../../../src/model/index.js";
import { checkProcess } from "../../../src/bpmn/index.js";
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

/** The agent element of a fixture with its template unlinked (attributes and id header gone). */
function unlinked(name: string): string {
  return fixture(name)
    .replace(/(<bpmn:\w+ id="Agent"[^>]*?) zeebe:modelerTemplate="[^"]*"/, "$1")
    .replace(
      /<zeebe:header key="elementTemplateId" value="io\.camunda\.connectors\.agenticai[^"]*" \/>/,
      "",
    );
}

const withType = (xml: string, from: string, to: string): string =>
  xml.replace(`<zeebe:taskDefinition type="${from}"`, `<zeebe:taskDefinition type="${to}"`);

const SUPPORT_TYPE = "io.camunda.agenticai:aiagent:1";
const REFUND_TYPE = "io.camunda.agenticai:aiagent-job-worker:1";

describe.each(READINGS)("a job type written as FEEL (%s)", (_label, options) => {
  it("reads a FEEL string literal as its text: the task variant, template unlinked", async () => {
    const xml = withType(
      unlinked("task-v11-support.bpmn"),
      SUPPORT_TYPE,
      `=&#34;${SUPPORT_TYPE}&#34;`,
    );
    const { task, derived } = derivedOf(await checkProcess(xml, options));
    expect([task.source, derived.templateId, derived.jobType, derived.variant]).toEqual([
      "camunda",
      undefined,
      "io.camunda.agenticai:aiagent:1",
      "task",
    ]);
    expect(derived.tools.map((t) => t.id)).toEqual([
      "SendDeliveryMail",
      "PostToSupport",
      "TrackParcel",
    ]);
  });

  it("reads a FEEL string literal as its text: the sub-process variant, template unlinked", async () => {
    const xml = withType(
      unlinked("subprocess-v11-refund.bpmn"),
      REFUND_TYPE,
      `= &#34;${REFUND_TYPE}&#34; `,
    );
    const { derived } = derivedOf(await checkProcess(xml, options));
    expect([derived.templateId, derived.jobType, derived.variant, derived.tools.length]).toEqual([
      undefined,
      "io.camunda.agenticai:aiagent-job-worker:1",
      "sub-process",
      7,
    ]);
  });

  it.each([
    // No read agent names the container now: its run-time collection makes it an agent too.
    ["task-v11-support.bpmn", SUPPORT_TYPE, ["Agent", "Tools"]],
    ["subprocess-v11-refund.bpmn", REFUND_TYPE, ["Agent"]],
  ])(
    "%s: any other FEEL job type may run an agent: an agent task of unknown level, needing a gate",
    async (name, type, ids) => {
      const xml = withType(unlinked(name), type, "=jobTypes.agent");
      const decision = await checkProcess(xml, options);
      expect(
        decision.agentTasks.map((t) => [t.elementId, t.source, t.level, t.requirement, t.derived]),
      ).toEqual(ids.map((id) => [id, "camunda", null, "required", undefined]));
    },
  );

  it("reads an agent whose template says so, keeping a FEEL job type as written", async () => {
    const xml = withType(fixture("task-v11-support.bpmn"), SUPPORT_TYPE, "=jobTypes.agent");
    const { derived } = derivedOf(await checkProcess(xml, options));
    expect([derived.jobType, derived.container?.found]).toEqual(["=jobTypes.agent", true]);
  });
});

const CONTAINER_INPUT = '<zeebe:input source="Tools" target="data.tools.containerElementId" />';
const RESULTS_INPUT =
  '<zeebe:input source="=toolCallResults" target="data.tools.toolCallResults" />';
const CALLS_INPUT = '<zeebe:input source="=10" target="data.limits.maxModelCalls" />';

/** The support fixture with its tools input(s) and its limit input replaced. */
function support(tools: string, calls = CALLS_INPUT): string {
  return fixture("task-v11-support.bpmn")
    .replace(CONTAINER_INPUT, tools)
    .replace(RESULTS_INPUT, "")
    .replace(CALLS_INPUT, calls);
}

describe.each(READINGS)("inputs given as one object (%s)", (_label, options) => {
  it("reads the container id from a FEEL context given to data.tools", async () => {
    const xml = support(
      '<zeebe:input source="={containerElementId: &#34;Tools&#34;, toolCallResults: toolCallResults}" target="data.tools" />',
    );
    const { derived } = derivedOf(await checkProcess(xml, options));
    expect(derived.container).toEqual({ id: "Tools", found: true });
    expect(derived.tools.map((t) => t.id)).toEqual([
      "SendDeliveryMail",
      "PostToSupport",
      "TrackParcel",
    ]);
  });

  it("reads the container id and the limit from nested contexts given to data", async () => {
    const source = "={tools: {containerElementId: &#34;Tools&#34;}, limits: {maxModelCalls: 6}}";
    const xml = support(`<zeebe:input source="${source}" target="data" />`, "");
    const { derived } = derivedOf(await checkProcess(xml, options));
    expect([derived.container, derived.limits.maxModelCalls, derived.unbounded]).toEqual([
      { id: "Tools", found: true },
      {
        input: "data",
        source: '={tools: {containerElementId: "Tools"}, limits: {maxModelCalls: 6}}',
        value: 6,
      },
      false,
    ]);
  });

  it("fails closed on a container id inside FEEL it cannot read", async () => {
    const xml = support('<zeebe:input source="=config.tools" target="data.tools" />');
    const decision = await checkProcess(xml, options);
    const { derived } = derivedOf(decision);
    expect(derived.container).toEqual({
      id: "=config.tools",
      found: false,
      problem:
        "the container id is in the FEEL expression '=config.tools' given to data.tools, which cannot be read",
    });
    expect(derived.level).toBe(3);
    // One dependency that failed: it needs a gate (the fixture has one after the agent).
    const stand = decision.agentTasks[0]?.dependencies.find((d) => d.nodeId === "=config.tools");
    expect([stand?.kind, stand?.effect, stand?.failure?.reason]).toEqual([
      "tool",
      undefined,
      "missing",
    ]);
    const ungated = await checkProcess(
      xml.replace('<btv:gate approverRole="support-lead" />', ""),
      options,
    );
    expect(ungated.blocking.map((d) => d.code)).toContain("TOOL_EFFECT_NEEDS_GATE");
  });

  it("reports a limit inside a context it cannot evaluate as unbounded", async () => {
    const calls = '<zeebe:input source="={maxModelCalls: calls}" target="data.limits" />';
    const decision = await checkProcess(support(CONTAINER_INPUT, calls), options);
    const { derived } = derivedOf(decision);
    expect([derived.limits.maxModelCalls, derived.unbounded]).toEqual([
      { input: "data.limits", source: "={maxModelCalls: calls}" },
      true,
    ]);
    expect(decision.blocking.map((d) => [d.code, d.data.input, d.data.source])).toEqual([
      ["CAMUNDA_AGENT_UNBOUNDED", "data.limits", "={maxModelCalls: calls}"],
    ]);
  });
});

describe.each(READINGS)(
  "the maximum of model calls by connector version (%s)",
  (_label, options) => {
    const GUARDRAILS = '<zeebe:input source="=10" target="data.guardrails.maxModelCalls" />';
    const V0 = (xml: string) =>
      withType(xml, SUPPORT_TYPE, "io.camunda.agenticai:aiagent:0").replace(
        'zeebe:modelerTemplate="io.camunda.connectors.agenticai.aiagent.v1" zeebe:modelerTemplateVersion="11"',
        'zeebe:modelerTemplate="io.camunda.connectors.agenticai.aiagent.v0" zeebe:modelerTemplateVersion="0"',
      );

    it("ignores data.guardrails on a v1 connector (template 11): no bound", async () => {
      const decision = await checkProcess(support(CONTAINER_INPUT, GUARDRAILS), options);
      const { derived } = derivedOf(decision);
      expect([derived.limits.maxModelCalls, derived.unbounded]).toEqual([undefined, true]);
      expect(decision.blocking.map((d) => d.code)).toEqual(["CAMUNDA_AGENT_UNBOUNDED"]);
    });

    it("reads data.guardrails on the alpha connector (job type aiagent:0, template v0)", async () => {
      const { derived } = derivedOf(
        await checkProcess(V0(support(CONTAINER_INPUT, GUARDRAILS)), options),
      );
      expect([derived.limits.maxModelCalls, derived.unbounded]).toEqual([
        { input: "data.guardrails.maxModelCalls", source: "=10", value: 10 },
        false,
      ]);
    });

    it("ignores data.limits on the alpha connector, which has none", async () => {
      const { derived } = derivedOf(await checkProcess(V0(support(CONTAINER_INPUT)), options));
      expect([derived.limits.maxModelCalls, derived.unbounded]).toEqual([undefined, true]);
    });
  },
);

describe.each(READINGS)("a container that is also an agent (%s)", (_label, options) => {
  const PROPERTY =
    '<zeebe:properties><zeebe:property name="io.camunda.agenticai.toolContainer" value="true" /></zeebe:properties>';
  const DEFINITION = '<zeebe:agentDefinition agentType="aiAgentSubProcess" />';
  /** The support fixture, its container `Tools` carrying these extension elements first. */
  const marked = (...values: string[]) =>
    fixture("task-v11-support.bpmn").replace(
      '<zeebe:adHoc activeElementsCollection="=[toolCall._meta.name]" />',
      `${values.join("")}<zeebe:adHoc activeElementsCollection="=[toolCall._meta.name]" />`,
    );

  it.each([
    ["the tool-container property alone: the task's container only", [PROPERTY], ["Agent"]],
    [
      "the property, then zeebe:agentDefinition: an agent too",
      [PROPERTY, DEFINITION],
      ["Agent", "Tools"],
    ],
    [
      "zeebe:agentDefinition, then the property: an agent too",
      [DEFINITION, PROPERTY],
      ["Agent", "Tools"],
    ],
  ])("%s", async (_name, values, agents) => {
    const decision = await checkProcess(marked(...values), options);
    expect(decision.agentTasks.map((t) => t.elementId).sort()).toEqual(agents);
  });
});
