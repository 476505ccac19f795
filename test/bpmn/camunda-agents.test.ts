/**
 * Camunda 8 agents known only by what a modeller leaves in the XML: the job type of their
 * `zeebe:taskDefinition` (kept when the element template is unlinked) and the element template
 * id. Every job type and template id of Camunda's agentic-ai element templates is listed: the
 * agents (AI Agent task and sub-process, every version, and the A2A client) are agent tasks; the
 * tools an agent calls (MCP clients, the ad-hoc tools schema) are not. Of the other connectors,
 * AWS Bedrock AgentCore Runtime runs an agent; its Bedrock siblings do not. A job type written as a
 * FEEL string literal is that text; any other FEEL job type may be an agent's (fail closed).
 */
import { describe, expect, it } from "vitest";
import { checkProcess } from "../../src/bpmn/index.js";
import { chain, element, endEvent, processXml, startEvent, ZEEBE_MODDLE } from "./builders.js";
import { withDiagram } from "./diagram.js";

/** Start → `X` → End, with DI, where `X` is the element under test. */
async function around(x: string): Promise<string> {
  return withDiagram(
    processXml(startEvent("Start"), x, endEvent("End"), chain("Start", "X", "End")),
  );
}

const byJobType = (type: string, tag = "serviceTask"): string =>
  element(tag, "X", { ext: [`<zeebe:taskDefinition type="${type}" retries="3" />`] });
const byTemplate = (id: string, tag = "serviceTask"): string =>
  element(tag, "X", { attrs: { "zeebe:modelerTemplate": id } });

const AGENTS: readonly (readonly [string, string])[] = [
  [
    "job type io.camunda.agenticai:aiagent:1 (AI Agent task)",
    byJobType("io.camunda.agenticai:aiagent:1"),
  ],
  ["job type io.camunda.agenticai:aiagent:0 (alpha)", byJobType("io.camunda.agenticai:aiagent:0")],
  [
    "job type io.camunda.agenticai:aiagent-job-worker:1 (AI Agent sub-process)",
    byJobType("io.camunda.agenticai:aiagent-job-worker:1", "adHocSubProcess"),
  ],
  [
    "job type io.camunda.agenticai:aiagent:task:2",
    byJobType("io.camunda.agenticai:aiagent:task:2"),
  ],
  [
    "job type io.camunda.agenticai:aiagent:subprocess:2",
    byJobType("io.camunda.agenticai:aiagent:subprocess:2", "adHocSubProcess"),
  ],
  [
    "job type io.camunda.agenticai:a2aclient:0 (A2A client)",
    byJobType("io.camunda.agenticai:a2aclient:0"),
  ],
  [
    'job type ="io.camunda.agenticai:aiagent:1" (a FEEL string literal)',
    byJobType("=&quot;io.camunda.agenticai:aiagent:1&quot;"),
  ],
  [
    'job type ="io.camunda.agenticai:aiagent-job-worker:1" (a FEEL string literal)',
    byJobType("=&quot;io.camunda.agenticai:aiagent-job-worker:1&quot;", "adHocSubProcess"),
  ],
  ["job type =jobTypes.agent (FEEL known at run time only)", byJobType("=jobTypes.agent")],
  [
    "job type =jobTypes.agent on an ad-hoc sub-process",
    byJobType("=jobTypes.agent", "adHocSubProcess"),
  ],
  [
    "template io.camunda.connectors.agenticai.aiagent.v1",
    byTemplate("io.camunda.connectors.agenticai.aiagent.v1"),
  ],
  [
    "template io.camunda.connectors.agenticai.aiagent.jobworker.v1",
    byTemplate("io.camunda.connectors.agenticai.aiagent.jobworker.v1", "adHocSubProcess"),
  ],
  [
    "template io.camunda.connectors.agenticai.ai-agent-task.v2",
    byTemplate("io.camunda.connectors.agenticai.ai-agent-task.v2"),
  ],
  [
    "template io.camunda.connectors.agenticai.ai-agent-subprocess.v2-hybrid",
    byTemplate("io.camunda.connectors.agenticai.ai-agent-subprocess.v2-hybrid", "adHocSubProcess"),
  ],
  [
    "template io.camunda.connectors.agenticai.a2a.client.v0",
    byTemplate("io.camunda.connectors.agenticai.a2a.client.v0"),
  ],
  [
    "job type io.camunda:aws-bedrock-agentcore-runtime:1 (AWS Bedrock AgentCore Runtime)",
    byJobType("io.camunda:aws-bedrock-agentcore-runtime:1"),
  ],
  [
    "template io.camunda.connectors.aws.bedrock.agentcore.runtime.v1",
    byTemplate("io.camunda.connectors.aws.bedrock.agentcore.runtime.v1"),
  ],
  [
    "template io.camunda.connectors.aws.bedrock.agentcore.runtime.v1-hybrid",
    byTemplate("io.camunda.connectors.aws.bedrock.agentcore.runtime.v1-hybrid"),
  ],
];

const NOT_AGENTS: readonly (readonly [string, string])[] = [
  [
    "job type io.camunda.agenticai:mcpclient:1 (a tool)",
    byJobType("io.camunda.agenticai:mcpclient:1"),
  ],
  [
    "job type io.camunda.agenticai:mcpremoteclient:1 (a tool)",
    byJobType("io.camunda.agenticai:mcpremoteclient:1"),
  ],
  [
    "job type io.camunda.agenticai:adhoctoolsschema:1 (a tool)",
    byJobType("io.camunda.agenticai:adhoctoolsschema:1"),
  ],
  ["job type io.camunda:http-json:1", byJobType("io.camunda:http-json:1")],
  [
    'job type ="io.camunda:http-json:1" (a FEEL string literal)',
    byJobType("=&quot;io.camunda:http-json:1&quot;"),
  ],
  [
    "template io.camunda.connectors.agenticai.mcp.client.v0 (a tool)",
    byTemplate("io.camunda.connectors.agenticai.mcp.client.v0"),
  ],
  [
    "template io.camunda.connectors.agenticai.adhoctoolsschema.v1 (a tool)",
    byTemplate("io.camunda.connectors.agenticai.adhoctoolsschema.v1"),
  ],
  [
    "template io.camunda.connectors.agenticai.a2a.client.polling.receive.v0 (waits for an answer)",
    byTemplate("io.camunda.connectors.agenticai.a2a.client.polling.receive.v0", "receiveTask"),
  ],
  [
    "job type io.camunda:aws-bedrock-agentcore-lt-memory:1 (reads a memory store)",
    byJobType("io.camunda:aws-bedrock-agentcore-lt-memory:1"),
  ],
  [
    "template io.camunda.connectors.aws.bedrock.agentcore.memory.longterm.v1",
    byTemplate("io.camunda.connectors.aws.bedrock.agentcore.memory.longterm.v1"),
  ],
  [
    "job type io.camunda:aws-bedrock-codeinterpreter:1 (runs code in a sandbox)",
    byJobType("io.camunda:aws-bedrock-codeinterpreter:1"),
  ],
  [
    "job type io.camunda:aws-bedrock-knowledgebase:1 (retrieves documents)",
    byJobType("io.camunda:aws-bedrock-knowledgebase:1"),
  ],
  ["job type io.camunda:aws-bedrock:1 (one model call)", byJobType("io.camunda:aws-bedrock:1")],
];

describe("Camunda agents by job type and element template", () => {
  for (const moddle of [undefined, ZEEBE_MODDLE]) {
    const label = moddle === undefined ? "" : ", zeebe-bpmn-moddle registered";
    const options = moddle === undefined ? {} : { moddleExtensions: moddle };

    it.each(AGENTS)(`%s is an ungated agent task${label}`, async (_name, x) => {
      const result = await checkProcess(await around(x), options);
      expect(result.allowed).toBe(false);
      expect(result.agentTasks.map((t) => [t.elementId, t.source, t.gate])).toEqual([
        ["X", "camunda", "missing"],
      ]);
      expect(result.blocking.map((d) => [d.code, d.target])).toEqual([
        [
          "AGENT_GATE_UNREACHABLE",
          { kind: "bpmn-element", elementId: "X", path: "/rootElements/0/flowElements/1" },
        ],
      ]);
    });

    it.each(NOT_AGENTS)(`%s is no agent task${label}`, async (_name, x) => {
      const result = await checkProcess(await around(x), options);
      expect(result.agentTasks).toEqual([]);
      expect(result.allowed).toBe(true);
      expect(result.blocking).toEqual([]);
    });
  }
});
