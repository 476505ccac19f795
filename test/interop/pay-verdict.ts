/**
 * The gate's verdict on an imported workflow run as the agent `agnt-pay@1.0.0` of a small
 * process, with no gate after it or with one: what the LangGraph verdict tests compare.
 */
import { checkProcess } from "../../src/bpmn/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import type { RuleSettings } from "../../src/rules/index.js";

/** A process that runs the agent `agnt-pay@1.0.0` with no gate after it. */
export const UNGATED = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
    xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="Billing" targetNamespace="https://example.com">
  <bpmn:process id="Pay" isExecutable="true">
    <bpmn:startEvent id="Start" />
    <bpmn:serviceTask id="PayAgent">
      <bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-pay@1.0.0" /></bpmn:extensionElements>
    </bpmn:serviceTask>
    <bpmn:endEvent id="End" />
    <bpmn:sequenceFlow id="F1" sourceRef="Start" targetRef="PayAgent" />
    <bpmn:sequenceFlow id="F2" sourceRef="PayAgent" targetRef="End" />
  </bpmn:process>
</bpmn:definitions>`;

/** {@link UNGATED} with an approval gate between the agent and the end. */
export const GATED = UNGATED.replace(
  '<bpmn:sequenceFlow id="F2" sourceRef="PayAgent" targetRef="End" />',
  `<bpmn:userTask id="Approve"><bpmn:extensionElements><btv:gate approverRole="treasurer" /></bpmn:extensionElements></bpmn:userTask>
    <bpmn:sequenceFlow id="F2" sourceRef="PayAgent" targetRef="Approve" />
    <bpmn:sequenceFlow id="F3" sourceRef="Approve" targetRef="End" />`,
);

/**
 * The verdict on `xml` with `imported` as `agnt-pay@1.0.0` and the rule settings `rules`: allowed,
 * the blocking findings (a tool's node, ref and effect; else the element), and the dependencies
 * that could not be looked up.
 */
export async function payVerdict(imported: AgentWorkflow, xml: string, rules: RuleSettings = {}) {
  const wf: AgentWorkflow = { ...imported, id: "agnt-pay", version: "1.0.0" };
  const decision = await checkProcess(xml, {
    resolveWorkflow: (ref) => (ref === "agnt-pay@1.0.0" ? wf : undefined),
    rules,
  });
  return {
    allowed: decision.allowed,
    blocking: decision.blocking.map((d) =>
      d.code === "TOOL_EFFECT_NEEDS_GATE"
        ? [d.code, d.data.nodeId, d.data.tool, d.data.effect]
        : [d.code, d.data.elementId],
    ),
    unresolved: decision.warnings
      .filter((d) => d.code === "AGENT_DEPENDENCY_UNRESOLVED")
      .map((d) => d.data.dependency),
  };
}
