/**
 * A label is not what runs. A gateway marker (`io.camunda.agenticai.gateway.type`) makes a
 * gateway, and an A2A one a delegation (level 4), only on the job type of Camunda's MCP or A2A
 * client; an element template decides an effect only on the job type the published template
 * runs. Anything else — another job type, a FEEL one, none at all — is unknown, never `read` and
 * never a level-4 pass, and the reason says which signals disagree.
 */
import { describe, expect, it } from "vitest";
import { checkProcess, DEFAULT_EFFECTS } from "../../../src/bpmn/index.js";
import type { GateOptions } from "../../../src/bpmn/index.js";
import { A2A_CLIENT, derivedOf, modelerAgent, templatedTask } from "./fixtures.js";

const GATEWAY = "io.camunda.agenticai.gateway.type";
const marker = (type: string) =>
  `<zeebe:properties><zeebe:property name="${GATEWAY}" value="${type}" /></zeebe:properties>`;
const HTTP = "io.camunda.connectors.HttpJson.v2";
const REST = "io.camunda:http-json:1";
const SLACK = templatedTask("Post", "io.camunda.connectors.Slack.v1", "io.camunda:slack:1", {
  method: "chat.postMessage",
});

/** The tool `id` of the agent: effect, source, key, reason; the level and its features. */
async function read(tools: string, id: string, options: GateOptions = {}) {
  const decision = await checkProcess(modelerAgent(tools), options);
  const { task, derived } = derivedOf(decision);
  const tool = derived.tools.find((t) => t.id === id);
  return {
    tool: [tool?.effect ?? "unknown", tool?.effectSource, tool?.effectKey, tool?.unknownReason],
    level: [task.level, task.requirement, derived.reasons.map((r) => r.feature)],
  };
}

/** The mapping key CAMUNDA_TOOL_EFFECT_UNMAPPED advises for tool `id` (none: only btv:toolEffect helps). */
async function advised(tools: string, id: string): Promise<unknown> {
  const decision = await checkProcess(modelerAgent(tools));
  return decision.warnings.find(
    (d) => d.code === "CAMUNDA_TOOL_EFFECT_UNMAPPED" && d.data.toolId === id,
  )?.data.key;
}

const unborne = (
  marked: string,
  runs: string,
  gateway = "the a2aClient connector runs 'io.camunda.agenticai:a2aclient:0'",
) =>
  `the gateway marker ${GATEWAY}=${marked} is not borne out (${gateway}, but ${runs}): it is no gateway and delegates to nothing, and the marker does not say what it does`;

describe("a gateway marker is borne out by the job type of Camunda's gateway connector", () => {
  const DELEGATES = [4, "optional", ["delegation", "branching-decision", "loop"]];
  const CHOOSES = [3, "required", ["branching-decision", "loop"]];

  it.each([
    [
      "the A2A client (template, job type, marker): a delegation",
      A2A_CLIENT,
      "Partner",
      [
        "unknown",
        "unknown",
        undefined,
        "a gateway tool (a2aClient) whose tools the remote server lists at run time",
      ],
      DELEGATES,
    ],
    [
      "the A2A client's job type as a FEEL string literal: a delegation",
      templatedTask(
        "Partner",
        undefined,
        "=&#34;io.camunda.agenticai:a2aclient:0&#34;",
        {},
        marker("a2aClient"),
      ),
      "Partner",
      [
        "unknown",
        "unknown",
        undefined,
        "a gateway tool (a2aClient) whose tools the remote server lists at run time",
      ],
      DELEGATES,
    ],
    [
      "a REST GET with the A2A marker: no delegation, and unknown",
      templatedTask(
        "Lookup",
        HTTP,
        REST,
        { method: "GET", url: "https://shop.example.com/orders" },
        marker("a2aClient"),
      ),
      "Lookup",
      ["unknown", "unknown", REST, unborne("a2aClient", `the element's job type is '${REST}'`)],
      CHOOSES,
    ],
    [
      "the A2A template on a REST job type with the marker: no delegation",
      templatedTask(
        "Lookup",
        "io.camunda.connectors.agenticai.a2a.client.v0",
        REST,
        { method: "GET" },
        marker("a2aClient"),
      ),
      "Lookup",
      ["unknown", "unknown", REST, unborne("a2aClient", `the element's job type is '${REST}'`)],
      CHOOSES,
    ],
    [
      "a FEEL job type with the A2A marker: no delegation",
      templatedTask("Lookup", undefined, "=worker.type", {}, marker("a2aClient")),
      "Lookup",
      [
        "unknown",
        "unknown",
        "=worker.type",
        unborne(
          "a2aClient",
          "the element's job type is the FEEL expression '=worker.type', known only at run time",
        ),
      ],
      CHOOSES,
    ],
    [
      "a plain task with the A2A marker: no delegation, and not read",
      `<bpmn:task id="Note" name="Note"><bpmn:extensionElements>${marker("a2aClient")}</bpmn:extensionElements></bpmn:task>`,
      "Note",
      ["unknown", "unknown", undefined, unborne("a2aClient", "the element has no job type")],
      CHOOSES,
    ],
    [
      "the A2A client's job type under the MCP marker: no gateway",
      templatedTask(
        "Partner",
        undefined,
        "io.camunda.agenticai:a2aclient:0",
        {},
        marker("mcpClient"),
      ),
      "Partner",
      [
        "unknown",
        "unknown",
        "io.camunda.agenticai:a2aclient:0",
        unborne(
          "mcpClient",
          "the element's job type is 'io.camunda.agenticai:a2aclient:0'",
          "the mcpClient connector runs 'io.camunda.agenticai:mcpclient:0' or 'io.camunda.agenticai:mcpclient:1' or 'io.camunda.agenticai:mcpremoteclient:0' or 'io.camunda.agenticai:mcpremoteclient:1'",
        ),
      ],
      CHOOSES,
    ],
    [
      "a marker naming no gateway Camunda has",
      templatedTask("Lookup", HTTP, REST, { method: "GET" }, marker("a2a")),
      "Lookup",
      [
        "unknown",
        "unknown",
        REST,
        unborne(
          "a2a",
          `the element's job type is '${REST}'`,
          "no connector of Camunda is a 'a2a' gateway",
        ),
      ],
      CHOOSES,
    ],
  ])("%s", async (_name, tool, id, effect, level) => {
    expect(await read(tool + SLACK, id)).toEqual({ tool: effect, level });
  });

  it("the organisation's mapping of the job type decides an unborne marker's tool, still no delegation", async () => {
    const lookup = templatedTask("Lookup", HTTP, REST, { method: "GET" }, marker("a2aClient"));
    expect(
      await read(lookup + SLACK, "Lookup", {
        toolEffects: { [REST]: { GET: "read", "*": "write-irreversible" } },
      }),
    ).toEqual({
      tool: ["read", "config", `${REST} method=GET`, undefined],
      level: CHOOSES,
    });
  });

  it("a REST GET with the A2A marker and no gate after the agent is blocked, as any level-3 agent", async () => {
    const lookup = templatedTask("Lookup", HTTP, REST, { method: "GET" }, marker("a2aClient"));
    const decision = await checkProcess(modelerAgent(lookup + SLACK));
    expect([decision.allowed, decision.blocking.map((d) => d.code)]).toEqual([
      false,
      ["AGENT_GATE_UNREACHABLE", "TOOL_EFFECT_NEEDS_GATE"],
    ]);
  });
});

describe("an element template decides only on the job type its published template runs", () => {
  const label = (template: string, runs: string) =>
    `the template '${template}' runs job type '${REST}', but ${runs}: the template does not say what it does`;
  const TEMPLATES = [
    "io.camunda.connectors.OpenAI.v1",
    "io.camunda.connectors.AzureOpenAI.outbound.v1",
    "io.camunda.connectors.CamundaOperate.v1",
    "io.camunda.connectors.CamundaOrchestrationCluster.v1",
    "io.camunda.connectors.WhatsApp.v1",
    "io.camunda.connectors.MSFT.O365.Mail.v1",
    "io.camunda.connectors.GitLab.v1",
    "io.camunda.connectors.Salesforce.v1",
    "io.camunda.connectors.Twilio.v1",
  ];

  it.each(TEMPLATES)("%s on a job worker of one's own is unknown", async (template) => {
    const pay = templatedTask("Pay", template, "acme:wire-money:1", {
      method: "GET",
      operationType: "getMessage",
      operation: "getIssueById",
    });
    expect((await read(pay, "Pay")).tool).toEqual([
      "unknown",
      "unknown",
      "acme:wire-money:1",
      label(template, "the element's job type is 'acme:wire-money:1'"),
    ]);
  });

  it.each([
    [
      "a FEEL job type",
      templatedTask("Pay", "io.camunda.connectors.OpenAI.v1", "=worker.type"),
      [
        "unknown",
        "unknown",
        "=worker.type",
        label(
          "io.camunda.connectors.OpenAI.v1",
          "the element's job type is the FEEL expression '=worker.type', known only at run time",
        ),
      ],
    ],
    [
      "a call activity",
      `<bpmn:callActivity id="Pay" zeebe:modelerTemplate="${HTTP}"><bpmn:extensionElements><zeebe:calledElement processId="wire-money" propagateAllChildVariables="false" /><zeebe:ioMapping><zeebe:input source="GET" target="method" /></zeebe:ioMapping></bpmn:extensionElements></bpmn:callActivity>`,
      ["unknown", "unknown", undefined, label(HTTP, "the element has no job type")],
    ],
    [
      "a sub-process",
      `<bpmn:subProcess id="Pay" zeebe:modelerTemplate="io.camunda.connectors.OpenAI.v1"><bpmn:startEvent id="PayStart" /></bpmn:subProcess>`,
      [
        "unknown",
        "unknown",
        undefined,
        label("io.camunda.connectors.OpenAI.v1", "the element has no job type"),
      ],
    ],
    [
      "a plain task",
      `<bpmn:task id="Pay" zeebe:modelerTemplate="${HTTP}"><bpmn:extensionElements><zeebe:ioMapping><zeebe:input source="GET" target="method" /></zeebe:ioMapping></bpmn:extensionElements></bpmn:task>`,
      ["unknown", "unknown", undefined, label(HTTP, "the element has no job type")],
    ],
  ])("a template label on %s is unknown", async (_name, tool, effect) => {
    expect((await read(tool, "Pay")).tool).toEqual(effect);
    // Mapping the template cannot help: it is borne out only by its own job type.
    expect(await advised(tool, "Pay")).toBe(effect[2]);
  });

  it.each([
    [
      "O365 Mail listing by GET",
      "io.camunda.connectors.MSFT.O365.Mail.v1",
      { method: "GET" },
      ["read", "default", "io.camunda.connectors.MSFT.O365.Mail.v1 method=GET", undefined],
    ],
    [
      "Twilio sending an SMS by POST",
      "io.camunda.connectors.Twilio.v1",
      { operationType: "sendSms", method: "post" },
      ["notify", "default", "io.camunda.connectors.Twilio.v1 operationType=sendSms", undefined],
    ],
    [
      "WhatsApp",
      "io.camunda.connectors.WhatsApp.v1",
      { method: "post" },
      ["notify", "default", "io.camunda.connectors.WhatsApp.v1", undefined],
    ],
  ])(
    "the real template on the REST job type keeps its default: %s",
    async (_name, template, inputs, effect) => {
      expect((await read(templatedTask("Pay", template, REST, inputs), "Pay")).tool).toEqual(
        effect,
      );
    },
  );

  it("every template in the defaults names the job type its published template runs", () => {
    const templates = DEFAULT_EFFECTS.filter((d) => d.key.startsWith("io.camunda.connectors."));
    expect(templates.filter((d) => d.jobType !== REST).map((d) => d.key)).toEqual([]);
  });
});

describe("defaults that read only what reads", () => {
  const EMAIL = "io.camunda.connectors.email.v1";
  it.each([
    [
      "email POP3 read (deletes the mail)",
      EMAIL,
      "io.camunda:email:1",
      { protocol: "pop3", "data.pop3ActionDiscriminator": "readEmailPop3" },
      ["write-irreversible", "io.camunda:email:1 protocol=pop3"],
    ],
    [
      "email POP3 list",
      EMAIL,
      "io.camunda:email:1",
      { protocol: "pop3", "data.pop3ActionDiscriminator": "listEmailsPop3" },
      ["read", "io.camunda:email:1 protocol=pop3 data.pop3ActionDiscriminator=listEmailsPop3"],
    ],
    [
      "email POP3 search",
      EMAIL,
      "io.camunda:email:1",
      { protocol: "pop3", "data.pop3ActionDiscriminator": "searchEmailsPop3" },
      ["read", "io.camunda:email:1 protocol=pop3 data.pop3ActionDiscriminator=searchEmailsPop3"],
    ],
    [
      "email IMAP read (read-only)",
      EMAIL,
      "io.camunda:email:1",
      { protocol: "imap", "data.imapActionDiscriminator": "readEmailImap" },
      ["read", "io.camunda:email:1 protocol=imap data.imapActionDiscriminator=readEmailImap"],
    ],
    [
      "Textract asynchronous (S3, SNS)",
      "io.camunda.connectors.AWSTEXTRACT.v1",
      "io.camunda:aws-textract:1",
      { "input.executionType": "ASYNC" },
      ["write-irreversible", "io.camunda:aws-textract:1 input.executionType=ASYNC"],
    ],
    [
      "Textract real-time",
      "io.camunda.connectors.AWSTEXTRACT.v1",
      "io.camunda:aws-textract:1",
      { "input.executionType": "SYNC" },
      ["read", "io.camunda:aws-textract:1 input.executionType=SYNC"],
    ],
    [
      "Textract polling",
      "io.camunda.connectors.AWSTEXTRACT.v1",
      "io.camunda:aws-textract:1",
      { "input.executionType": "POLLING" },
      ["read", "io.camunda:aws-textract:1 input.executionType=POLLING"],
    ],
    [
      "Textract without an execution type",
      "io.camunda.connectors.AWSTEXTRACT.v1",
      "io.camunda:aws-textract:1",
      {},
      ["write-irreversible", "io.camunda:aws-textract:1 input.executionType=(absent)"],
    ],
    [
      "Comprehend asynchronous (S3)",
      "io.camunda.connectors.AWSCOMPREHEND.v1",
      "io.camunda:aws-comprehend:1",
      { "input.type": "async" },
      ["write-irreversible", "io.camunda:aws-comprehend:1 input.type=async"],
    ],
    [
      "Comprehend synchronous",
      "io.camunda.connectors.AWSCOMPREHEND.v1",
      "io.camunda:aws-comprehend:1",
      { "input.type": "sync" },
      ["read", "io.camunda:aws-comprehend:1 input.type=sync"],
    ],
    [
      "SageMaker asynchronous (S3)",
      "io.camunda.connectors.AWSSAGEMAKER.v1",
      "io.camunda:aws-sagemaker:1",
      { "input.invocationType": "ASYNC" },
      ["write-irreversible", "io.camunda:aws-sagemaker:1 input.invocationType=ASYNC"],
    ],
    [
      "SageMaker real-time",
      "io.camunda.connectors.AWSSAGEMAKER.v1",
      "io.camunda:aws-sagemaker:1",
      { "input.invocationType": "SYNC" },
      ["read", "io.camunda:aws-sagemaker:1 input.invocationType=SYNC"],
    ],
  ])("%s", async (_name, template, jobType, inputs, [effect, key]) => {
    expect((await read(templatedTask("T", template, jobType, inputs), "T")).tool).toEqual([
      effect,
      "default",
      key,
      undefined,
    ]);
  });
});
