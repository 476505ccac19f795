/**
 * An ad-hoc sub-process whose elements something the BPMN does not describe activates at run
 * time — a job worker of its own, an `activeElementsCollection` read from variables — is a Camunda
 * agent that is not derived (red team: both were allowed as "no agent tasks"); a fixed list of
 * element ids, or neither, is none. The finding names the attribute that makes it one.
 */
import { describe, expect, it } from "vitest";
import type { GateDecision } from "../../../src/bpmn/index.js";
import { checkProcess } from "../../../src/bpmn/index.js";
import { fixture, modelerAgent, READINGS } from "./fixtures.js";

const WORKER = fixture("adhoc-own-job-worker.bpmn");
const HANDMADE = fixture("adhoc-llm-collection.bpmn");
const COLLECTION = '<zeebe:adHoc activeElementsCollection="=tasks" />';

/** The handmade pattern with another `zeebe:adHoc` on its ad-hoc sub-process. */
const collection = (adHoc: string) => HANDMADE.replace(COLLECTION, adHoc);

/** `id source resolution requirement gate` per agent task. */
const tasks = (decision: GateDecision) =>
  decision.agentTasks.map((t) =>
    [t.elementId, t.source, t.resolution, t.requirement, t.gate].join(" "),
  );

describe.each(READINGS)("an ad-hoc sub-process driven from outside the BPMN (%s)", (_, reading) => {
  /** The ad-hoc sub-process's path: the third flow element of the one, the seventh of the other. */
  const WORKER_PATH = "/rootElements/0/flowElements/2";
  const HANDMADE_PATH = "/rootElements/0/flowElements/6";
  it.each([
    [
      "its own job worker (the refund agent on a worker of one's own)",
      WORKER,
      ["Agent", WORKER_PATH, 'zeebe:taskDefinition type="acme:refund-llm-agent:1"'],
    ],
    [
      "the same, still carrying the tool-container property",
      WORKER.replace(
        '<zeebe:taskDefinition type="acme:refund-llm-agent:1" retries="3" />',
        '<zeebe:taskDefinition type="acme:refund-llm-agent:1" retries="3" /><zeebe:properties><zeebe:property name="io.camunda.agenticai.toolContainer" value="true" /></zeebe:properties>',
      ),
      ["Agent", WORKER_PATH, 'zeebe:taskDefinition type="acme:refund-llm-agent:1"'],
    ],
    [
      "a collection a script made of an LLM's answer",
      HANDMADE,
      ["Actions", HANDMADE_PATH, 'zeebe:adHoc activeElementsCollection="=tasks"'],
    ],
    [
      "a list that reads a variable",
      collection('<zeebe:adHoc activeElementsCollection="=[&#34;refund&#34;, next]" />'),
      ["Actions", HANDMADE_PATH, 'zeebe:adHoc activeElementsCollection="=["refund", next]"'],
    ],
    [
      "static text, which is no list",
      collection('<zeebe:adHoc activeElementsCollection="refund" />'),
      ["Actions", HANDMADE_PATH, 'zeebe:adHoc activeElementsCollection="refund"'],
    ],
  ])("%s is an agent that is not derived, needing a gate", async (_name, xml, expected) => {
    const [id = "", path, marker] = expected;
    const decision = await checkProcess(xml, reading);
    expect(decision.allowed).toBe(false);
    expect(tasks(decision)).toEqual([`${id} camunda unresolved required missing`]);
    expect(decision.blocking.map((d) => [d.code, d.target, d.data.marker])).toEqual([
      ["AGENT_GATE_UNREACHABLE", { kind: "bpmn-element", elementId: id, path }, marker],
    ]);
    expect(decision.blocking[0]?.message).toContain(
      `is a Camunda agent the BPMN does not describe (${marker ?? ""})`,
    );
  });

  it.each([
    [
      "a FEEL list of string literals",
      '<zeebe:adHoc activeElementsCollection="=[&#34;refund&#34;, &#34;email&#34;]" />',
    ],
    ["an empty FEEL list", '<zeebe:adHoc activeElementsCollection="=[]" />'],
    ["no collection (a client activates elements through the API)", "<zeebe:adHoc />"],
    ["no zeebe:adHoc at all", ""],
  ])("%s makes no agent, where =tasks makes one", async (_name, adHoc) => {
    const [fixed, chosen] = await Promise.all([
      checkProcess(collection(adHoc), reading),
      checkProcess(HANDMADE, reading),
    ]);
    expect([tasks(fixed), fixed.allowed]).toEqual([[], true]);
    expect([tasks(chosen), chosen.allowed]).toEqual([
      ["Actions camunda unresolved required missing"],
      false,
    ]);
  });

  it("the camundaAgents policy governs it, and a gate after it is reached", async () => {
    const optional = await checkProcess(HANDMADE, {
      ...reading,
      policy: { camundaAgents: "gate-optional" },
    });
    expect([optional.allowed, optional.warnings.map((d) => d.code)]).toEqual([
      true,
      ["AGENT_GATE_OPTIONAL"],
    ]);
    // The warning names what makes it an agent, as AGENT_GATE_UNREACHABLE does.
    expect(optional.warnings[0]?.data.marker).toBe('zeebe:adHoc activeElementsCollection="=tasks"');
    expect(optional.warnings[0]?.message).toBe(
      'agent task "Actions" is a Camunda agent the BPMN does not describe (zeebe:adHoc activeElementsCollection="=tasks"): its autonomy level is unknown, and it has no approval gate downstream; the camundaAgents policy makes one optional, but recommended',
    );
    const gated = HANDMADE.replace(
      '<bpmn:sequenceFlow id="F4" sourceRef="Actions" targetRef="End" />',
      '<bpmn:sequenceFlow id="F4" sourceRef="Actions" targetRef="Approve" /><bpmn:userTask id="Approve"><bpmn:extensionElements><btv:gate approverRole="clerk" /></bpmn:extensionElements></bpmn:userTask><bpmn:sequenceFlow id="F5" sourceRef="Approve" targetRef="End" />',
    ).replace(
      'xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"',
      'xmlns:zeebe="http://camunda.org/schema/zeebe/1.0" xmlns:btv="https://agentflow.dev/schema/btv/1.0"',
    );
    const decision = await checkProcess(gated, reading);
    expect([decision.allowed, tasks(decision)]).toEqual([
      true,
      ["Actions camunda unresolved required reached"],
    ]);
    // A gate on one branch only: the bypass names the attribute too.
    const branched = gated.replace(
      '<bpmn:sequenceFlow id="F4" sourceRef="Actions" targetRef="Approve" />',
      '<bpmn:sequenceFlow id="F4" sourceRef="Actions" targetRef="Choice" /><bpmn:exclusiveGateway id="Choice" /><bpmn:sequenceFlow id="F6" sourceRef="Choice" targetRef="Approve" /><bpmn:sequenceFlow id="F7" sourceRef="Choice" targetRef="End" />',
    );
    const bypassed = await checkProcess(branched, reading);
    expect(bypassed.blocking.map((d) => [d.code, d.data.marker, d.data.bypassPath])).toEqual([
      [
        "AGENT_GATE_BYPASS",
        'zeebe:adHoc activeElementsCollection="=tasks"',
        "Actions → Choice → End",
      ],
    ]);
    expect(bypassed.blocking[0]?.message).toBe(
      'agent task "Actions" is a Camunda agent the BPMN does not describe (zeebe:adHoc activeElementsCollection="=tasks"): its autonomy level is unknown, so it needs an approval gate on every path, but it can reach the end without one: Actions → Choice → End',
    );
  });

  it("a job worker of its own under an AI Agent template (a hybrid runtime) is read, not opaque", async () => {
    const templated = WORKER.replace(
      '<bpmn:adHocSubProcess id="Agent" name="Refund agent (our Spring AI worker)">',
      '<bpmn:adHocSubProcess id="Agent" name="Refund agent" zeebe:modelerTemplate="io.camunda.connectors.agenticai.aiagent.jobworker.v1" zeebe:modelerTemplateVersion="11">',
    );
    const resolutions = async (xml: string) =>
      (await checkProcess(xml, reading)).agentTasks.map((t) => [t.elementId, t.resolution]);
    expect([await resolutions(templated), await resolutions(WORKER)]).toEqual([
      [["Agent", "derived"]],
      [["Agent", "unresolved"]],
    ]);
  });

  it("the container an AI Agent task names is no agent of its own; one it does not name is", async () => {
    const support = fixture("task-v11-support.bpmn");
    const named = await checkProcess(support, reading);
    expect(tasks(named)).toEqual(["Agent camunda derived required reached"]);
    const other = support.replace(
      '<zeebe:input source="Tools" target="data.tools.containerElementId" />',
      '<zeebe:input source="OtherTools" target="data.tools.containerElementId" />',
    );
    expect(tasks(await checkProcess(other, reading))).toEqual([
      "Agent camunda derived required reached",
      // Its path back to the agent leads on to the agent's gate.
      "Tools camunda unresolved required reached",
    ]);
  });

  it("an agent's own tool is judged as its tool, not as an agent of its own", async () => {
    const batch =
      '<bpmn:adHocSubProcess id="Batch"><bpmn:extensionElements><zeebe:adHoc activeElementsCollection="=fromAi(toolCall.steps)" /></bpmn:extensionElements><bpmn:task id="Step" /></bpmn:adHocSubProcess>';
    const nested = await checkProcess(modelerAgent(batch, { gate: true }), reading);
    expect(tasks(nested)).toEqual(["Agent camunda derived required reached"]);
    const tool = nested.agentTasks[0]?.derived?.tools.find((t) => t.id === "Batch");
    expect([tool?.nature, tool?.effect, tool?.effectSource]).toEqual([
      "sub-process",
      undefined,
      "unknown",
    ]);
    // The same sub-process outside the agent is one.
    const alone = modelerAgent("", { gate: true }).replace(
      '<bpmn:endEvent id="End" />',
      `${batch}<bpmn:endEvent id="End" />`,
    );
    expect(tasks(await checkProcess(alone, reading))).toContain(
      "Batch camunda unresolved required missing",
    );
  });
});
