/**
 * What the approved model reads of a BPMN document for Zeebe's records: the `bpmnElementType`
 * each element's records carry (the protocol's names), with a multi-instance element's body and
 * an ad-hoc sub-process's inner instances under its own id.
 */
import { describe, expect, it } from "vitest";
import { readProcess } from "../../src/bpmn/index.js";
import { zeebeElementTypes } from "../../src/conform/process-shape.js";

const XML = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="D" targetNamespace="https://example.com">
  <bpmn:process id="claims" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:adHocSubProcess id="agent">
      <bpmn:serviceTask id="lookup" />
    </bpmn:adHocSubProcess>
    <bpmn:userTask id="approve">
      <bpmn:multiInstanceLoopCharacteristics isSequential="true" />
    </bpmn:userTask>
    <bpmn:subProcess id="onCancel" triggeredByEvent="true">
      <bpmn:startEvent id="cancelled" />
    </bpmn:subProcess>
    <bpmn:task id="note" />
    <bpmn:endEvent id="end" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="agent" />
  </bpmn:process>
</bpmn:definitions>`;

describe("zeebeElementTypes", () => {
  it("gives each element the types Zeebe records it with", async () => {
    const { definitions } = await readProcess(XML);
    expect(Object.fromEntries(zeebeElementTypes(definitions))).toEqual({
      start: ["START_EVENT"],
      agent: ["AD_HOC_SUB_PROCESS", "AD_HOC_SUB_PROCESS_INNER_INSTANCE"],
      lookup: ["SERVICE_TASK"],
      approve: ["USER_TASK", "MULTI_INSTANCE_BODY"],
      onCancel: ["EVENT_SUB_PROCESS"],
      cancelled: ["START_EVENT"],
      note: ["TASK"],
      end: ["END_EVENT"],
      f1: ["SEQUENCE_FLOW"],
    });
  });
});
