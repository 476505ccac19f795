/**
 * The gate verdict on a langgraph-gen spec: each spec node is a function stub the developer fills
 * with any code, so a payment made inside one needs a gate. Read as llm nodes (model steps, no
 * effect), an ungated process promoted an agent whose stubs may wire money.
 */
import { describe, expect, it } from "vitest";
import { checkProcess } from "../../src/bpmn/index.js";
import { importLangGraphGen } from "../../src/interop/langgraph-gen/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import type { RuleSettings } from "../../src/rules/index.js";
import { readFixture } from "./helpers.js";

/** `draft_invoice → wire_money`, as a developer writes the spec langgraph-gen turns into stubs. */
const BILLING = {
  name: "Billing",
  entrypoint: "draft_invoice",
  nodes: [{ name: "draft_invoice" }, { name: "wire_money" }],
  edges: [
    { from: "draft_invoice", to: "wire_money" },
    { from: "wire_money", to: "__end__" },
  ],
};

/** A process that runs the agent `agnt-pay@1.0.0` with no gate after it. */
const UNGATED = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
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
const GATED = UNGATED.replace(
  '<bpmn:sequenceFlow id="F2" sourceRef="PayAgent" targetRef="End" />',
  `<bpmn:userTask id="Approve"><bpmn:extensionElements><btv:gate approverRole="treasurer" /></bpmn:extensionElements></bpmn:userTask>
    <bpmn:sequenceFlow id="F2" sourceRef="PayAgent" targetRef="Approve" />
    <bpmn:sequenceFlow id="F3" sourceRef="Approve" targetRef="End" />`,
);

/**
 * The verdict on `xml` (no gate, by default) with the imported spec as `agnt-pay@1.0.0`, and the
 * rule settings `rules`.
 */
async function verdict(doc: unknown, xml = UNGATED, rules: RuleSettings = {}) {
  const imported = importLangGraphGen(doc).workflow;
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

const ref = (id: string): string => `tool:langgraph.node.${id}@0.0.0`;

describe("the gate verdict on a langgraph-gen spec with no gate after the agent", () => {
  // Before, every spec node was an llm node (no effect): only the level's own gate rule blocked.
  it.each<[string, unknown, string[]]>([
    ["a spec whose second stub wires money", BILLING, ["draft_invoice", "wire_money"]],
    [
      // langgraph-gen's own test spec: a stub, then a router to one of two more
      "langgraph-gen's sample_01 spec (a fixture)",
      readFixture("langgraph-gen/sample_01.yml"),
      ["Node-1", "Node-2", "Node-3"],
    ],
  ])("%s: each stub's effect is unknown, so it is blocked", async (_name, doc, steps) => {
    expect(await verdict(doc)).toEqual({
      allowed: false,
      blocking: [
        // a tool of unknown effect needs a gate, whatever the level says
        ["AGENT_GATE_UNREACHABLE", "PayAgent"],
        ...steps.map((id) => ["TOOL_EFFECT_NEEDS_GATE", id, ref(id), "unknown"]),
      ],
      unresolved: steps.map(ref),
    });
  });

  it("a team that waives the level's gate rule still needs one for the stubs (before: ALLOWED)", async () => {
    // AGENT_GATE_UNREACHABLE off: an ungated level-1 agent is accepted, an unknown effect is not
    expect(await verdict(BILLING, UNGATED, { AGENT_GATE_UNREACHABLE: "off" })).toEqual({
      allowed: false,
      blocking: ["draft_invoice", "wire_money"].map((id) => [
        "TOOL_EFFECT_NEEDS_GATE",
        id,
        ref(id),
        "unknown",
      ]),
      unresolved: [ref("draft_invoice"), ref("wire_money")],
    });
  });

  it("behind an approval gate, the same spec is allowed (its unknown tools stay warnings)", async () => {
    expect(await verdict(BILLING, GATED)).toEqual({
      allowed: true,
      blocking: [],
      unresolved: [ref("draft_invoice"), ref("wire_money")],
    });
  });
});
