/**
 * processTopology: each agent task with the gates downstream of it (not those only upstream or
 * on another branch), every flow node id, and the process ids.
 */
import { describe, expect, it } from "vitest";
import { processTopology, readProcess } from "../../src/bpmn/index.js";

const agent = (id: string): string =>
  `<bpmn:serviceTask id="${id}"><bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-rsch@2.1.0" /></bpmn:extensionElements></bpmn:serviceTask>`;
const gate = (id: string): string =>
  `<bpmn:userTask id="${id}"><bpmn:extensionElements><btv:gate /></bpmn:extensionElements></bpmn:userTask>`;
const flow = (id: string, from: string, to: string): string =>
  `<bpmn:sequenceFlow id="${id}" sourceRef="${from}" targetRef="${to}" />`;

async function topology(body: string) {
  const xml = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
    xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="D" targetNamespace="https://example.com">
    <bpmn:process id="P" isExecutable="true">${body}</bpmn:process></bpmn:definitions>`;
  const { definitions } = await readProcess(xml);
  if (definitions === undefined) throw new Error("not BPMN");
  return processTopology(definitions);
}

describe("processTopology", () => {
  it("names the gates downstream of each agent task, not those before it or beside it", async () => {
    const t = await topology(
      [
        '<bpmn:startEvent id="S" />',
        gate("Before"),
        '<bpmn:parallelGateway id="Fork" />',
        agent("A"),
        agent("B"),
        gate("AfterA"),
        gate("Both"),
        '<bpmn:endEvent id="E" />',
        flow("f1", "S", "Before"),
        flow("f2", "Before", "Fork"),
        flow("f3", "Fork", "A"),
        flow("f4", "Fork", "B"),
        flow("f5", "A", "AfterA"),
        flow("f6", "AfterA", "Both"),
        flow("f7", "B", "Both"),
        flow("f8", "Both", "E"),
      ].join(""),
    );
    expect(t.processIds).toEqual(["P"]);
    expect(t.tasks).toEqual([
      { elementId: "A", gates: ["AfterA", "Both"] },
      { elementId: "B", gates: ["Both"] },
    ]);
    expect([...t.elements].sort()).toEqual([
      "A",
      "AfterA",
      "B",
      "Before",
      "Both",
      "E",
      "Fork",
      "S",
    ]);
  });

  it("finds a gate the task loops back to, and none when there is none", async () => {
    const looped = await topology(
      [agent("A"), gate("G"), flow("f1", "A", "G"), flow("f2", "G", "A")].join(""),
    );
    expect(looped.tasks).toEqual([{ elementId: "A", gates: ["G"] }]);
    const none = await topology(
      [agent("A"), '<bpmn:endEvent id="E" />', flow("f1", "A", "E")].join(""),
    );
    expect(none.tasks).toEqual([{ elementId: "A", gates: [] }]);
  });
});
