/**
 * The gate verdicts issue 6 names, one case each, with the verdict stated: a gate behind a
 * sub-process, a gate reached only through a boundary event, a loop back before the gate, a second
 * process in a collaboration, an agent inside an ad-hoc sub-process — and the neighbours that tell
 * each verdict apart.
 */
import { describe, expect, it } from "vitest";
import type { GateStatus } from "../../src/bpmn/index.js";
import { checkProcess } from "../../src/bpmn/index.js";

const NS = `xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:btv="https://agentflow.dev/schema/btv/1.0"`;
const agent = (id: string, level = 2): string =>
  `<bpmn:serviceTask id="${id}"><bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-x@1.0.0" autonomyLevel="${level}"/></bpmn:extensionElements></bpmn:serviceTask>`;
const gate = (id: string): string =>
  `<bpmn:userTask id="${id}"><bpmn:extensionElements><btv:gate/></bpmn:extensionElements></bpmn:userTask>`;
const flow = (from: string, to: string): string =>
  `<bpmn:sequenceFlow id="${from}-${to}" sourceRef="${from}" targetRef="${to}"/>`;
const process = (id: string, body: string): string =>
  `<bpmn:process id="${id}">${body}</bpmn:process>`;
const definitions = (body: string): string =>
  `<bpmn:definitions ${NS} id="defs">${body}</bpmn:definitions>`;

async function verdicts(xml: string): Promise<Record<string, GateStatus>> {
  const result = await checkProcess(xml);
  expect(result.blocking.map((d) => d.code)).not.toContain("BPMN_PARSE");
  return Object.fromEntries(result.agentTasks.map((t) => [t.elementId, t.gate]));
}

async function gateCodes(xml: string): Promise<string[]> {
  const result = await checkProcess(xml);
  return result.blocking
    .filter((d) => d.code.startsWith("AGENT_GATE"))
    .map((d) => `${d.code}@${d.target.kind === "bpmn-element" ? d.target.elementId : ""}`);
}

describe("gate verdicts", () => {
  it("a gate inside a sub-process after the agent is reached", async () => {
    const sub = `<bpmn:subProcess id="review"><bpmn:startEvent id="rs"/>${gate("approve")}<bpmn:endEvent id="re"/>${flow("rs", "approve")}${flow("approve", "re")}</bpmn:subProcess>`;
    const xml = definitions(
      process(
        "p",
        `${agent("a")}${sub}<bpmn:endEvent id="e"/>${flow("a", "review")}${flow("review", "e")}`,
      ),
    );
    expect(await verdicts(xml)).toEqual({ a: "reached" });
  });

  it("a gate behind a sub-process whose inside can end without it is bypassed", async () => {
    const sub = `<bpmn:subProcess id="review"><bpmn:startEvent id="rs"/><bpmn:exclusiveGateway id="g"/>${gate("approve")}<bpmn:endEvent id="re1"/><bpmn:endEvent id="re2"/>${flow("rs", "g")}${flow("g", "approve")}${flow("approve", "re1")}${flow("g", "re2")}</bpmn:subProcess>`;
    const xml = definitions(
      process(
        "p",
        `${agent("a")}${sub}<bpmn:endEvent id="e"/>${flow("a", "review")}${flow("review", "e")}`,
      ),
    );
    expect(await verdicts(xml)).toEqual({ a: "bypassed" });
    const result = await checkProcess(xml);
    expect(result.blocking[0]?.data.pathIds).toEqual(["a", "review", "rs", "g", "re2", "e"]);
  });

  it("a gate reached only through a boundary event of the agent task is bypassed (the normal flow ends ungated)", async () => {
    const boundary = `<bpmn:boundaryEvent id="timeout" attachedToRef="a"><bpmn:timerEventDefinition/></bpmn:boundaryEvent>`;
    const xml = definitions(
      process(
        "p",
        `${agent("a")}${boundary}${gate("approve")}<bpmn:endEvent id="e1"/><bpmn:endEvent id="e2"/>${flow("a", "e1")}${flow("timeout", "approve")}${flow("approve", "e2")}`,
      ),
    );
    expect(await verdicts(xml)).toEqual({ a: "bypassed" });
  });

  it("a boundary event that leads around the gate makes an otherwise gated agent bypassed", async () => {
    const boundary = `<bpmn:boundaryEvent id="err" attachedToRef="a"><bpmn:errorEventDefinition/></bpmn:boundaryEvent>`;
    const xml = definitions(
      process(
        "p",
        `${agent("a")}${boundary}${gate("approve")}<bpmn:endEvent id="e1"/><bpmn:endEvent id="e2"/>${flow("a", "approve")}${flow("approve", "e1")}${flow("err", "e2")}`,
      ),
    );
    expect(await verdicts(xml)).toEqual({ a: "bypassed" });
  });

  it("a loop back before the gate is still gated: every way out passes the gate", async () => {
    const xml = definitions(
      process(
        "p",
        `<bpmn:startEvent id="s"/>${agent("a")}<bpmn:exclusiveGateway id="good"/>${gate("approve")}<bpmn:endEvent id="e"/>${flow("s", "a")}${flow("a", "good")}${flow("good", "a")}${flow("good", "approve")}${flow("approve", "e")}`,
      ),
    );
    expect(await verdicts(xml)).toEqual({ a: "reached" });
    expect(await gateCodes(xml)).toEqual([]);
  });

  it("a loop back that has an exit around the gate is bypassed", async () => {
    const xml = definitions(
      process(
        "p",
        `${agent("a")}<bpmn:exclusiveGateway id="good"/>${gate("approve")}<bpmn:endEvent id="e"/><bpmn:endEvent id="quit"/>${flow("a", "good")}${flow("good", "a")}${flow("good", "approve")}${flow("approve", "e")}${flow("good", "quit")}`,
      ),
    );
    expect(await gateCodes(xml)).toEqual(["AGENT_GATE_BYPASS@a"]);
  });

  it("a second process of a collaboration is checked on its own: a gate in the first does not count", async () => {
    const collaboration = `<bpmn:collaboration id="c"><bpmn:participant id="bank" processRef="p1"/><bpmn:participant id="broker" processRef="p2"/><bpmn:messageFlow id="m" sourceRef="b" targetRef="approve"/></bpmn:collaboration>`;
    const first = process(
      "p1",
      `${agent("a1")}${gate("approve")}<bpmn:endEvent id="e1"/>${flow("a1", "approve")}${flow("approve", "e1")}`,
    );
    const second = process("p2", `${agent("b")}<bpmn:endEvent id="e2"/>${flow("b", "e2")}`);
    const xml = definitions(collaboration + first + second);
    expect(await verdicts(xml)).toEqual({ a1: "reached", b: "missing" });
    expect(await gateCodes(xml)).toEqual(["AGENT_GATE_UNREACHABLE@b"]);
  });

  it("an agent inside an ad-hoc sub-process: a gate among its siblings is bypassed, a gate after it is reached", async () => {
    const adhoc = (id: string, inner: string): string =>
      `<bpmn:adHocSubProcess id="${id}">${agent(`${id}-agent`)}${inner}</bpmn:adHocSubProcess>`;
    const siblings = definitions(
      process("p", `${adhoc("h", gate("h-approve"))}<bpmn:endEvent id="e"/>${flow("h", "e")}`),
    );
    expect(await verdicts(siblings)).toEqual({ "h-agent": "bypassed" });
    const after = definitions(
      process(
        "p",
        `${adhoc("h", '<bpmn:task id="h-other"/>')}${gate("approve")}<bpmn:endEvent id="e"/>${flow("h", "approve")}${flow("approve", "e")}`,
      ),
    );
    expect(await verdicts(after)).toEqual({ "h-agent": "reached" });
  });

  it("an event sub-process that can end the process without a gate bypasses it", async () => {
    const events = `<bpmn:subProcess id="onError" triggeredByEvent="true"><bpmn:startEvent id="es"><bpmn:errorEventDefinition/></bpmn:startEvent><bpmn:endEvent id="ee"/>${flow("es", "ee")}</bpmn:subProcess>`;
    const xml = definitions(
      process(
        "p",
        `${agent("a")}${gate("approve")}<bpmn:endEvent id="e"/>${events}${flow("a", "approve")}${flow("approve", "e")}`,
      ),
    );
    expect(await verdicts(xml)).toEqual({ a: "bypassed" });
  });

  it("a link event pair carries the path to the gate", async () => {
    const thrower = `<bpmn:intermediateThrowEvent id="go"><bpmn:linkEventDefinition name="toReview"/></bpmn:intermediateThrowEvent>`;
    const catcher = `<bpmn:intermediateCatchEvent id="land"><bpmn:linkEventDefinition name="toReview"/></bpmn:intermediateCatchEvent>`;
    const xml = definitions(
      process(
        "p",
        `${agent("a")}${thrower}${catcher}${gate("approve")}<bpmn:endEvent id="e"/>${flow("a", "go")}${flow("land", "approve")}${flow("approve", "e")}`,
      ),
    );
    expect(await verdicts(xml)).toEqual({ a: "reached" });
  });
});
