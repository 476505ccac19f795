/**
 * Readings of a Camunda agent that must fail closed: a template named only by its task header,
 * a tool without an id, a stray `<zeebe:userTask/>` on a job, candidate groups on an element
 * that is no user task. Each would otherwise let an agent or a tool pass as harmless.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkProcess, readProcess, selectGate } from "../../../src/bpmn/index.js";
import type { ModdleObject } from "../../../src/bpmn/index.js";

const REFUND = readFileSync("test/fixtures/camunda/subprocess-v11-refund.bpmn", "utf8");
const FRAUD = '<bpmn:serviceTask id="CheckFraud" name="Check fraud score">';
const ZEEBE = 'xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"';

describe("a Camunda agent read from the BPMN fails closed", () => {
  it("an agent named only by its elementTemplateId header, with a job type of its own, is an agent", async () => {
    const xml = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" ${ZEEBE} id="D" targetNamespace="https://example.com">
  <bpmn:process id="P" isExecutable="true">
    <bpmn:serviceTask id="Agent">
      <bpmn:extensionElements>
        <zeebe:taskDefinition type="acme:agent-runtime:1" />
        <zeebe:taskHeaders><zeebe:header key="elementTemplateId" value="io.camunda.connectors.agenticai.aiagent.v1" /></zeebe:taskHeaders>
      </bpmn:extensionElements>
    </bpmn:serviceTask>
    <bpmn:endEvent id="End" />
    <bpmn:sequenceFlow id="F" sourceRef="Agent" targetRef="End" />
  </bpmn:process>
</bpmn:definitions>`;
    const decision = await checkProcess(xml);
    expect(decision.agentTasks.map((t) => t.elementId)).toEqual(["Agent"]);
    expect(decision.allowed).toBe(false);
  });

  it("a tool without an id is still a tool, whose unknown effect counts", async () => {
    const decision = await checkProcess(
      REFUND.replace(FRAUD, '<bpmn:serviceTask name="Check fraud score">'),
    );
    const unnamed = decision.agentTasks[0]?.dependencies.find((d) =>
      d.nodeId.startsWith("unnamed-"),
    );
    expect(unnamed).toMatchObject({ kind: "tool", failure: { reason: "unmapped" } });
  });

  it("a stray <zeebe:userTask/> on a service task makes no person of a job", async () => {
    const stray = REFUND.replace(
      '<zeebe:taskDefinition type="acme:fraud-score:1" retries="3" />',
      '<zeebe:taskDefinition type="acme:fraud-score:1" retries="3" /><zeebe:userTask />',
    );
    const decision = await checkProcess(stray);
    const fraud = decision.agentTasks[0]?.dependencies.find((d) => d.nodeId === "CheckFraud");
    expect(fraud?.failure?.reason).toBe("unmapped");
    expect(fraud?.effect).toBeUndefined();
  });

  it("candidate groups on an element that is no user task select no gate", async () => {
    const xml = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" ${ZEEBE} id="D" targetNamespace="https://example.com">
  <bpmn:process id="P"><bpmn:serviceTask id="Archive"><bpmn:extensionElements>
    <zeebe:assignmentDefinition candidateGroups="credit-officers" />
  </bpmn:extensionElements></bpmn:serviceTask></bpmn:process>
</bpmn:definitions>`;
    const { definitions } = await readProcess(xml);
    const [process] = definitions?.rootElements as { flowElements: ModdleObject[] }[];
    const [archive] = process?.flowElements ?? [];
    if (archive === undefined) throw new Error("no service task");
    expect(selectGate([{ candidateGroup: "credit-officers" }], archive).selected).toBe(false);
  });
});
