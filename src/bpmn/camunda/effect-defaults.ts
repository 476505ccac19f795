/**
 * agentflow's default effects for Camunda's published connectors, as data (docs/bpmn.md prints the
 * same table). Keyed by element template id (many vendor templates share the HTTP job type
 * `io.camunda:http-json:1`, so the template is looked up first, and applies only to an element
 * that runs the template's job type), by job type, or by an inbound connector's `inbound.type`.
 * Conservative:
 * where a connector can both read and write, the effect is `read` only for operation values known
 * to read, and the most demanding effect it can have otherwise — including when the selector is
 * absent or a FEEL expression, whose value is unknown before run time. Messages to people (mail,
 * chat, SMS) `notify`; messages to systems (queues, topics, event buses, process messages) are
 * `write-irreversible`: a consumer acts on them and they cannot be recalled.
 */
import type { ToolEffect } from "../../model/index.js";

/** A case: every input named must hold one of the values (lower case; `x*` is a prefix). */
export interface DefaultEffectCase {
  readonly when: Readonly<Record<string, readonly string[]>>;
  readonly effect: ToolEffect;
}

/** One connector's default. */
export interface DefaultEffect {
  /** The element template id or job type it applies to. */
  readonly key: string;
  /** The connector, for people. */
  readonly connector: string;
  /**
   * For a template id: the job type every element made from the template runs, as Camunda's
   * published template sets it. The template is a label: only an element that runs this job type
   * is what the template says, so the default applies to no other (and a template entry without
   * it applies to none). Absent for a key that is itself a job type or an inbound type.
   */
  readonly jobType?: string;
  /** The input that selects the operation, which an organisation's mapping keys on by default. */
  readonly selector?: string;
  readonly cases: readonly DefaultEffectCase[];
  /** The effect when no case matches (or the selector is absent or FEEL). */
  readonly otherwise: ToolEffect;
}

const W = "write-irreversible";
const reads = (input: string, ...values: string[]): DefaultEffectCase => ({
  when: { [input]: values },
  effect: "read",
});
const fixed = (key: string, connector: string, effect: ToolEffect): DefaultEffect => ({
  key,
  connector,
  cases: [],
  otherwise: effect,
});
const http = (key: string, connector: string): DefaultEffect => ({
  key,
  connector,
  selector: "method",
  cases: [reads("method", "get", "head", "options")],
  otherwise: W,
});
/** The job type of the REST connector and of the vendor templates built on it. */
const HTTP_JSON = "io.camunda:http-json:1";
/** A template that runs the REST connector, deciding by its `method` input as the connector does. */
const httpTemplate = (key: string, connector: string): DefaultEffect => ({
  ...http(key, connector),
  jobType: HTTP_JSON,
});
/** A template on the REST connector whose API agentflow knows the effect of. */
const fixedTemplate = (key: string, connector: string, effect: ToolEffect): DefaultEffect => ({
  ...fixed(key, connector, effect),
  jobType: HTTP_JSON,
});
const READ_OPS = ["get*", "list*", "search*", "describe*", "scan*", "read*"];

/** Every default, template ids first, then job types. */
export const DEFAULT_EFFECTS: readonly DefaultEffect[] = Object.freeze([
  httpTemplate("io.camunda.connectors.HttpJson.v2", "REST"),
  httpTemplate("io.camunda.connectors.HttpJson.v1", "REST (v1)"),
  httpTemplate("io.camunda.connectors.HttpJson.v1.noAuth", "REST (v1, no auth)"),
  httpTemplate("io.camunda.connectors.HttpJson.v1.basicAuth", "REST (v1, basic auth)"),
  httpTemplate("io.camunda.connectors.HttpJson.v1.bearerToken", "REST (v1, bearer token)"),
  httpTemplate("io.camunda.connectors.MSFT.O365.Mail.v1", "Microsoft 365 Mail"),
  httpTemplate("io.camunda.connectors.Salesforce.v1", "Salesforce"),
  httpTemplate(
    "io.camunda.connectors.CamundaOrchestrationCluster.v1",
    "Camunda Orchestration Cluster",
  ),
  fixedTemplate("io.camunda.connectors.CamundaOperate.v1", "Camunda Operate", "read"),
  {
    key: "io.camunda.connectors.GitHub.v1",
    connector: "GitHub",
    jobType: HTTP_JSON,
    selector: "operationType",
    cases: [{ when: { operationType: READ_OPS }, effect: "read" }],
    otherwise: W,
  },
  {
    key: "io.camunda.connectors.GitLab.v1",
    connector: "GitLab",
    jobType: HTTP_JSON,
    selector: "operation",
    cases: [{ when: { operation: READ_OPS }, effect: "read" }],
    otherwise: W,
  },
  {
    key: "io.camunda.connectors.Twilio.v1",
    connector: "Twilio",
    jobType: HTTP_JSON,
    selector: "operationType",
    cases: [
      { when: { operationType: ["sendsms", "sendwhatsapp"] }, effect: "notify" },
      reads("operationType", "getmessage", "listmessages"),
    ],
    otherwise: W,
  },
  fixedTemplate("io.camunda.connectors.WhatsApp.v1", "WhatsApp", "notify"),
  fixedTemplate("io.camunda.connectors.OpenAI.v1", "OpenAI", "read"),
  fixedTemplate("io.camunda.connectors.AzureOpenAI.outbound.v1", "Azure OpenAI", "read"),
  http(HTTP_JSON, "REST and the HTTP-based connectors"),
  fixed("io.camunda:connector-graphql:1", "GraphQL (a query may be a mutation)", W),
  {
    key: "io.camunda:email:1",
    connector: "Email",
    selector: "protocol",
    cases: [
      { when: { protocol: ["smtp"] }, effect: "notify" },
      {
        when: { protocol: ["imap"], "data.imapActionDiscriminator": ["list*", "read*", "search*"] },
        effect: "read",
      },
      // POP3 "read" deletes the message (the connector opens the inbox read-write; Camunda's
      // template warns so): only listing and searching read.
      {
        when: { protocol: ["pop3"], "data.pop3ActionDiscriminator": ["list*", "search*"] },
        effect: "read",
      },
    ],
    otherwise: W,
  },
  fixed("io.camunda:sendgrid:1", "SendGrid", "notify"),
  {
    key: "io.camunda:slack:1",
    connector: "Slack",
    selector: "method",
    cases: [
      { when: { method: ["chat.postmessage"] }, effect: "notify" },
      {
        when: { method: ["conversations.create", "conversations.invite", "reactions.add"] },
        effect: "write-reversible",
      },
      { when: { method: ["pins.add", "pins.remove"] }, effect: "write-reversible" },
    ],
    otherwise: W,
  },
  {
    key: "io.camunda:connector-microsoft-teams:1",
    connector: "Microsoft Teams",
    selector: "data.method",
    cases: [
      { when: { "data.method": ["sendmessage*"] }, effect: "notify" },
      { when: { "data.method": ["get*", "list*"] }, effect: "read" },
    ],
    otherwise: W,
  },
  fixed("io.camunda:aws-lambda:1", "AWS Lambda (runs arbitrary code)", W),
  {
    key: "io.camunda:aws-s3:1",
    connector: "AWS S3",
    selector: "actionDiscriminator",
    cases: [reads("actionDiscriminator", "downloadobject")],
    otherwise: W,
  },
  fixed("io.camunda:aws-sqs:1", "AWS SQS", W),
  fixed("io.camunda:aws-sns:1", "AWS SNS", W),
  fixed("io.camunda:aws-eventbridge:1", "AWS EventBridge", W),
  {
    key: "io.camunda:aws-dynamodb:1",
    connector: "AWS DynamoDB",
    cases: [
      reads("input.tableOperation", "describetable", "scantable"),
      reads("input.itemOperation", "getitem"),
    ],
    otherwise: W,
  },
  {
    key: "io.camunda:google-drive:1",
    connector: "Google Drive",
    selector: "resource.type",
    cases: [
      reads("resource.type", "download"),
      { when: { "resource.type": ["folder", "file", "upload"] }, effect: "write-reversible" },
    ],
    otherwise: W,
  },
  {
    key: "io.camunda:google-sheets:1",
    connector: "Google Sheets",
    selector: "operation.type",
    cases: [reads("operation.type", "get*", "spreadsheetsdetails")],
    otherwise: W,
  },
  fixed("io.camunda:connector-kafka:1", "Kafka producer", W),
  fixed("io.camunda:connector-rabbitmq:1", "RabbitMQ producer", W),
  fixed("io.camunda:sendMessage:1", "Camunda message (correlates into processes)", W),
  fixed("io.camunda:connector-jdbc:1", "SQL database (any statement)", W),
  fixed("io.camunda:aws-bedrock:1", "AWS Bedrock (a model call)", "read"),
  fixed("io.camunda:google-gemini:1", "Google Gemini (a model call)", "read"),
  // An asynchronous mode starts a job that writes its output to S3 (Textract's may also publish
  // to SNS): only the real-time modes, and Textract's polling, read and nothing more.
  {
    key: "io.camunda:aws-sagemaker:1",
    connector: "AWS SageMaker (inference)",
    selector: "input.invocationType",
    cases: [reads("input.invocationType", "sync")],
    otherwise: W,
  },
  {
    key: "io.camunda:aws-textract:1",
    connector: "AWS Textract",
    selector: "input.executionType",
    cases: [reads("input.executionType", "sync", "polling")],
    otherwise: W,
  },
  {
    key: "io.camunda:aws-comprehend:1",
    connector: "AWS Comprehend",
    selector: "input.type",
    cases: [reads("input.type", "sync")],
    otherwise: W,
  },
  fixed("io.camunda:csv-connector", "CSV", "read"),
  fixed("io.camunda:soap:1", "SOAP (any operation)", W),
  fixed("io.camunda:box:1", "Box", W),
  fixed("io.camunda:google-gcs:1", "Google Cloud Storage", W),
  fixed("io.camunda:azure-blobstorage:1", "Azure Blob Storage", W),
  fixed("io.camunda:embeddings-vector-database:1", "Embeddings vector database", W),
  fixed("io.camunda:connector-automationanywhere:1", "Automation Anywhere (runs bots)", W),
  fixed("io.camunda:aws-bedrock-agentcore-runtime:1", "AWS Bedrock AgentCore (runs an agent)", W),
  // Inbound connectors (keyed by `inbound.type`, selecting on the element's zeebe:property).
  http("io.camunda:http-polling:1", "HTTP Polling (inbound: sends its request until it matches)"),
  fixed("io.camunda:webhook:1", "Webhook (inbound: waits to be called)", "read"),
]);

const BY_KEY = new Map(DEFAULT_EFFECTS.map((entry) => [entry.key, entry]));

/** The default for a template id or job type. */
export function defaultEffectOf(key: string): DefaultEffect | undefined {
  return BY_KEY.get(key);
}

/** True when a value matches a pattern (lower case; a trailing `*` matches a prefix). */
export function matchesValue(value: string, pattern: string): boolean {
  const lower = value.trim().toLowerCase();
  return pattern.endsWith("*") ? lower.startsWith(pattern.slice(0, -1)) : lower === pattern;
}

/**
 * True when the element sets an input the default decides by (its selector or an input one of
 * its cases names), or the default decides by none: then the default reads what the element
 * runs. A REST job without a `method` input states nothing: the template that made it decides.
 * `sets` says whether a mapping gives the input (the element's own reader, `fieldSource`: the
 * modeller loads these defaults without the FEEL reader).
 */
export function statesEffect(entry: DefaultEffect, sets: (input: string) => boolean): boolean {
  if (entry.cases.length === 0) return true;
  const named = new Set(entry.cases.flatMap((c) => Object.keys(c.when)));
  if (entry.selector !== undefined) named.add(entry.selector);
  for (const input of named) if (sets(input)) return true;
  return false;
}
