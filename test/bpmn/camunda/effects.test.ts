/**
 * Tool effects, fail closed (issue 39, item 2): `btv:toolEffect`, then the organisation's
 * mapping (template id before job type, by the selector input's value, `"*"`, `"$input"`), then
 * agentflow's defaults, else unknown; every effect with its source and the key it matched; a
 * tool's sub-flow counts; a bad mapping is a TypeError naming the key.
 */
import { describe, expect, it } from "vitest";
import {
  checkProcess,
  evaluateGatesSync,
  readProcess,
  toolEffectsProblems,
} from "../../../src/bpmn/index.js";
import { check, effects } from "./fixtures.js";

describe("tool effects on the refund agent", () => {
  it("takes btv:toolEffect, then the defaults, and leaves the rest unknown", async () => {
    expect(effects(await check("subprocess-v11-refund.bpmn"))).toEqual([
      "LookupOrder: read (default, io.camunda.connectors.HttpJson.v2 method=GET)",
      "RefundPayment: write-irreversible (default, io.camunda.connectors.HttpJson.v2 method=POST)",
      "NotifyCustomer: notify (default, io.camunda:email:1 protocol=smtp)",
      "ApproveRefund: read (default, user-task)",
      "CheckFraud: unknown (unknown)",
      "ArchiveCase: write-reversible (btv, btv:toolEffect)",
      "LegacyCheck: unknown (unknown)",
    ]);
  });

  it("takes the organisation's mapping over the defaults, template id before job type", async () => {
    const decision = await check("subprocess-v11-refund.bpmn", {
      toolEffects: {
        "acme:fraud-score:1": "read",
        "io.camunda:http-json:1": "external-commitment",
        "io.camunda.connectors.HttpJson.v2": { GET: "read", POST: "external-commitment" },
        "io.camunda:email:1": "write-irreversible",
      },
    });
    expect(effects(decision)).toEqual([
      "LookupOrder: read (config, io.camunda.connectors.HttpJson.v2 method=GET)",
      "RefundPayment: external-commitment (config, io.camunda.connectors.HttpJson.v2 method=POST)",
      "NotifyCustomer: write-irreversible (config, io.camunda:email:1)",
      "ApproveRefund: read (default, user-task)",
      "CheckFraud: read (config, acme:fraud-score:1)",
      "ArchiveCase: write-reversible (btv, btv:toolEffect)",
      "LegacyCheck: unknown (unknown)",
    ]);
  });

  it('falls back to "*", and a selector value the mapping does not cover is unknown', async () => {
    const star = await check("subprocess-v11-refund.bpmn", {
      toolEffects: { "io.camunda:http-json:1": { GET: "read", "*": "write-reversible" } },
    });
    // The organisation's mapping (here by job type) comes before any default, the template's too.
    expect(effects(star).slice(0, 2)).toEqual([
      "LookupOrder: read (config, io.camunda:http-json:1 method=GET)",
      "RefundPayment: write-reversible (config, io.camunda:http-json:1 method=*)",
    ]);
    const byTemplate = await check("subprocess-v11-refund.bpmn", {
      toolEffects: {
        "io.camunda.connectors.HttpJson.v2": { get: "read", "*": "write-reversible" },
      },
    });
    expect(effects(byTemplate).slice(0, 2)).toEqual([
      "LookupOrder: read (config, io.camunda.connectors.HttpJson.v2 method=GET)",
      "RefundPayment: write-reversible (config, io.camunda.connectors.HttpJson.v2 method=*)",
    ]);
    const partial = await check("subprocess-v11-refund.bpmn", {
      toolEffects: { "io.camunda.connectors.HttpJson.v2": { GET: "read" } },
    });
    const refund = partial.agentTasks[0]?.derived?.tools[1];
    expect([refund?.effect, refund?.effectSource, refund?.unknownReason]).toEqual([
      undefined,
      "unknown",
      `the toolEffects mapping for 'io.camunda.connectors.HttpJson.v2' has no entry for method ('POST') and no "*"`,
    ]);
  });

  it('selects on the input "$input" names', async () => {
    const decision = await check("subprocess-v11-refund.bpmn", {
      toolEffects: { "acme:fraud-score:1": { $input: "customerId", "*": "propose" } },
    });
    expect(effects(decision)[4]).toBe(
      "CheckFraud: propose (config, acme:fraud-score:1 customerId=*)",
    );
  });

  it("reads Slack, a FEEL script and HTTP DELETE by the defaults", async () => {
    expect(effects(await check("subprocess-v2-custom.bpmn"))).toEqual([
      "CreateChannel: write-reversible (default, io.camunda:slack:1 method=conversations.create)",
      "PostWelcome: notify (default, io.camunda:slack:1 method=chat.postMessage)",
      "ComputeVat: read (default, engine)",
    ]);
    expect(effects(await check("task-v7-unbounded.bpmn"))).toEqual([
      "CancelOrder: write-irreversible (default, io.camunda.connectors.HttpJson.v2 method=DELETE)",
      "ComputeRefund: read (default, engine)",
    ]);
  });

  it("leaves job-worker scripts and MCP and A2A gateways unknown until mapped", async () => {
    const decision = await check("subprocess-v4-gateways.bpmn");
    expect(effects(decision)).toEqual([
      "RunJobScript: unknown (unknown)",
      "ResearchServer: unknown (unknown)",
      "PartnerAgent: unknown (unknown)",
    ]);
    const mapped = await check("subprocess-v4-gateways.bpmn", {
      toolEffects: { "io.camunda.connectors.agenticai.mcp.remoteclient.v0": "read" },
    });
    expect(effects(mapped)[1]).toBe(
      "ResearchServer: read (config, io.camunda.connectors.agenticai.mcp.remoteclient.v0)",
    );
  });
});

/** A sub-process agent whose tools are given as XML, followed by a gate. */
const agentWith = (
  tools: string,
  flows = "",
) => `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
    xmlns:zeebe="http://camunda.org/schema/zeebe/1.0" xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="D" targetNamespace="x">
  <bpmn:process id="P" isExecutable="true">
    <bpmn:startEvent id="Start" />
    <bpmn:adHocSubProcess id="Agent">
      <bpmn:extensionElements>
        <zeebe:taskDefinition type="io.camunda.agenticai:aiagent-job-worker:1" />
        <zeebe:ioMapping><zeebe:input source="=5" target="data.limits.maxModelCalls" /></zeebe:ioMapping>
      </bpmn:extensionElements>
      ${tools}
      ${flows}
    </bpmn:adHocSubProcess>
    <bpmn:userTask id="Review"><bpmn:extensionElements><btv:gate /></bpmn:extensionElements></bpmn:userTask>
    <bpmn:endEvent id="End" />
    <bpmn:sequenceFlow id="F1" sourceRef="Start" targetRef="Agent" />
    <bpmn:sequenceFlow id="F2" sourceRef="Agent" targetRef="Review" />
    <bpmn:sequenceFlow id="F3" sourceRef="Review" targetRef="End" />
  </bpmn:process>
</bpmn:definitions>`;

/** A REST tool; `incoming` names the flows that lead to it, as Camunda Modeler writes them. */
const http = (id: string, method: string, attrs = "", incoming: readonly string[] = []) =>
  `<bpmn:serviceTask id="${id}"${attrs}><bpmn:extensionElements><zeebe:taskDefinition type="io.camunda:http-json:1" /><zeebe:ioMapping><zeebe:input source="${method}" target="method" /></zeebe:ioMapping></bpmn:extensionElements>${incoming.map((f) => `<bpmn:incoming>${f}</bpmn:incoming>`).join("")}</bpmn:serviceTask>`;

describe("a tool's sub-flow and its boundary events", () => {
  it("takes the most demanding effect of what the tool leads to, naming the element", async () => {
    const xml = agentWith(
      `${http("Find", "GET")}${http("Purge", "DELETE", "", ["S1"])}<bpmn:task id="Note" />${http("Fallback", "=method", "", ["S2"])}
       <bpmn:boundaryEvent id="OnError" attachedToRef="Note"><bpmn:errorEventDefinition /></bpmn:boundaryEvent>`,
      `<bpmn:sequenceFlow id="S1" sourceRef="Find" targetRef="Purge" />
       <bpmn:sequenceFlow id="S2" sourceRef="OnError" targetRef="Fallback" />`,
    );
    const decision = await checkProcess(xml);
    const tools = decision.agentTasks[0]?.derived?.tools ?? [];
    expect(tools.map((t) => [t.id, t.effect ?? "unknown", t.decidedBy, t.effectKey])).toEqual([
      ["Find", "write-irreversible", "Purge", "io.camunda:http-json:1 method=DELETE"],
      // A FEEL method can be anything: the most demanding effect HTTP can have.
      ["Note", "write-irreversible", "Fallback", "io.camunda:http-json:1 method==method"],
    ]);
  });

  it("a root's btv:toolEffect states the tool's effect as a whole", async () => {
    const xml = agentWith(
      `${http("Find", "GET", ' btv:toolEffect="read"')}${http("Purge", "DELETE", "", ["S1"])}`,
      `<bpmn:sequenceFlow id="S1" sourceRef="Find" targetRef="Purge" />`,
    );
    const decision = await checkProcess(xml);
    expect(
      decision.agentTasks[0]?.derived?.tools.map((t) => [t.id, t.effect, t.effectSource]),
    ).toEqual([["Find", "read", "btv"]]);
  });

  it("an invalid btv:toolEffect is an error, and the effect counts as unknown", async () => {
    const decision = await checkProcess(agentWith(http("Find", "GET", ' btv:toolEffect="reed"')));
    expect(decision.allowed).toBe(false);
    expect(decision.blocking.map((d) => [d.code, d.target])).toEqual([
      [
        "TOOL_EFFECT_INVALID",
        {
          kind: "bpmn-element",
          elementId: "Find",
          path: "/rootElements/0/flowElements/1/flowElements/0/toolEffect",
        },
      ],
    ]);
    expect(decision.agentTasks[0]?.derived?.tools[0]?.unknownReason).toBe(
      "btv:toolEffect 'reed' is not an effect",
    );
  });
});

describe("the mapping is checked", () => {
  it("names the key of an unknown effect or a bad shape", () => {
    expect(toolEffectsProblems({ "io.camunda:slack:1": "sends" })).toEqual([
      `toolEffects["io.camunda:slack:1"]: unknown effect 'sends' (expected read, propose, notify, write-reversible, write-irreversible, external-commitment)`,
    ]);
    expect(toolEffectsProblems({ "io.camunda:http-json:1": { GET: "reads" } })).toEqual([
      `toolEffects["io.camunda:http-json:1"]["GET"]: unknown effect 'reads' (expected read, propose, notify, write-reversible, write-irreversible, external-commitment)`,
    ]);
    expect(toolEffectsProblems({ "acme:x:1": { a: "read" } })).toEqual([
      `toolEffects["acme:x:1"]: agentflow knows no operation selector for 'acme:x:1'; name the input with "$input"`,
    ]);
    expect(toolEffectsProblems({ "acme:x:1": 3 })).toEqual([
      `toolEffects["acme:x:1"]: must be an effect or an object of effects by the selector's value`,
    ]);
    // The first of two keys the selector reads as one would decide: the order of the keys.
    expect(
      toolEffectsProblems({
        "io.camunda:http-json:1": { post: "read", POST: "write-irreversible", " Post ": "read" },
      }),
    ).toEqual([
      `toolEffects["io.camunda:http-json:1"]: "post" and "POST" are one value to the selector (compared without case and surrounding spaces); keep one`,
      `toolEffects["io.camunda:http-json:1"]: "post" and " Post " are one value to the selector (compared without case and surrounding spaces); keep one`,
    ]);
    expect(toolEffectsProblems([])).toEqual([
      "toolEffects: must be an object keyed by job type or element template id",
    ]);
  });

  it("evaluateGates throws a TypeError for a bad mapping", async () => {
    const { definitions } = await readProcess(agentWith(http("Find", "GET")));
    if (definitions === undefined) throw new Error("unreadable");
    expect(() =>
      evaluateGatesSync(definitions, {
        toolEffects: { "io.camunda:http-json:1": "maybe" } as never,
      }),
    ).toThrow(
      new TypeError(
        `evaluateGates: toolEffects["io.camunda:http-json:1"]: unknown effect 'maybe' (expected read, propose, notify, write-reversible, write-irreversible, external-commitment)`,
      ),
    );
  });
});

/** A tool made from `template` that runs `jobType` with these inputs (target → source). */
const templated = (
  id: string,
  template: string,
  jobType: string,
  inputs: Readonly<Record<string, string>>,
) =>
  `<bpmn:serviceTask id="${id}" zeebe:modelerTemplate="${template}"><bpmn:extensionElements><zeebe:taskDefinition type="${jobType}" /><zeebe:ioMapping>${Object.entries(
    inputs,
  )
    .map(([target, source]) => `<zeebe:input source="${source}" target="${target}" />`)
    .join("")}</zeebe:ioMapping></bpmn:extensionElements></bpmn:serviceTask>`;

/** The first tool's effect, source, reason and the key CAMUNDA_TOOL_EFFECT_UNMAPPED advises. */
async function firstTool(tool: string, toolEffects = {}) {
  const decision = await checkProcess(agentWith(tool), { toolEffects });
  const first = decision.agentTasks[0]?.derived?.tools[0];
  const unmapped = decision.warnings.find((d) => d.code === "CAMUNDA_TOOL_EFFECT_UNMAPPED");
  return [
    first?.effect ?? "unknown",
    first?.effectSource,
    first?.unknownReason,
    unmapped?.data.key,
  ];
}

describe("what a template says is borne out by what runs", () => {
  const HTTP = "io.camunda.connectors.HttpJson.v2";
  const GITHUB = "io.camunda.connectors.GitHub.v1";

  it("a REST template on another connector's job type is unknown, naming both", async () => {
    const jdbc = templated("Ledger", HTTP, "io.camunda:connector-jdbc:1", { method: "GET" });
    const reason = `the template '${HTTP}' runs job type 'io.camunda:http-json:1', but the element's job type is 'io.camunda:connector-jdbc:1': the template does not say what it does`;
    expect(await firstTool(jdbc)).toEqual([
      "unknown",
      "unknown",
      reason,
      "io.camunda:connector-jdbc:1",
    ]);
    // The organisation's mapping of the template meets the same disagreement.
    expect(await firstTool(jdbc, { [HTTP]: { GET: "read", "*": "write-irreversible" } })).toEqual([
      "unknown",
      "unknown",
      reason,
      "io.camunda:connector-jdbc:1",
    ]);
    // A job worker of one's own under the REST template's label: the same.
    expect((await firstTool(templated("X", HTTP, "acme:wipe:1", { method: "GET" })))[2]).toBe(
      `the template '${HTTP}' runs job type 'io.camunda:http-json:1', but the element's job type is 'acme:wipe:1': the template does not say what it does`,
    );
    // Mapping the job type that runs decides.
    expect(await firstTool(jdbc, { "io.camunda:connector-jdbc:1": "write-reversible" })).toEqual([
      "write-reversible",
      "config",
      undefined,
      undefined,
    ]);
  });

  it("a read operation whose REST method writes is unknown; a method that reads is read", async () => {
    const github = (method: string) =>
      templated("Repo", GITHUB, "io.camunda:http-json:1", { operationType: "getRepo", method });
    expect(await firstTool(github("delete"))).toEqual([
      "unknown",
      "unknown",
      `the signals disagree: ${GITHUB} operationType=getRepo says read, but job type io.camunda:http-json:1 method=delete says write-irreversible`,
      "io.camunda:http-json:1",
    ]);
    expect((await firstTool(github("=toolCall.method")))[0]).toBe("unknown");
    expect(await firstTool(github("get"))).toEqual(["read", "default", undefined, undefined]);
    // A template that knows more than the method keeps its word: GitHub createIssue by POST.
    const create = templated("Issue", GITHUB, "io.camunda:http-json:1", {
      operationType: "createIssue",
      method: "post",
    });
    expect((await firstTool(create)).slice(0, 2)).toEqual(["write-irreversible", "default"]);
  });
});
