/**
 * A delegate that fails its own rules blocks the process through the agent's workflow: the gate
 * validates the agent task's workflow, whose DELEGATE_INVALID error is an AGENT_WORKFLOW_INVALID
 * on the task (docs/rules/AGENT_WORKFLOW_INVALID.md), in `checkProcess` and `evaluateGatesSync`
 * alike. The red-team repros: a delegate that loops forever, one that under-declares its level
 * (honest, it was blocked by AUTONOMY_CHAIN; lying got through), one that calls a forbidden tool.
 */
import { describe, expect, it } from "vitest";
import { checkProcess, evaluateGatesSync } from "../../src/bpmn/index.js";
import type { AgentWorkflow, AutonomyLevel } from "../../src/model/index.js";
import { edge, llm, tool, workflow } from "./builders.js";

const xml = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
                  xmlns:btv="https://agentflow.dev/schema/btv/1.0"
                  id="Defs" targetNamespace="https://example.com/x">
  <bpmn:process id="P" isExecutable="true">
    <bpmn:startEvent id="S" />
    <bpmn:serviceTask id="AgentTask" name="Agent">
      <bpmn:extensionElements>
        <btv:agentTask agentWorkflowRef="agnt-boss@1.0.0" autonomyLevel="4" />
      </bpmn:extensionElements>
    </bpmn:serviceTask>
    <bpmn:userTask id="Review">
      <bpmn:extensionElements><btv:gate approverRole="risk" /></bpmn:extensionElements>
    </bpmn:userTask>
    <bpmn:endEvent id="E" />
    <bpmn:sequenceFlow id="F1" sourceRef="S" targetRef="AgentTask" />
    <bpmn:sequenceFlow id="F2" sourceRef="AgentTask" targetRef="Review" />
    <bpmn:sequenceFlow id="F3" sourceRef="Review" targetRef="E" />
  </bpmn:process>
</bpmn:definitions>`;

const agent = (id: string, level: AutonomyLevel, nodes: AgentWorkflow["nodes"], extra = {}) =>
  workflow(nodes, [], {
    id,
    autonomyLevel: level,
    inputSchema: { done: "bool" },
    ...(level >= 2 ? { budget: { maxSteps: 5 } } : {}),
    ...extra,
  });

const boss = workflow([llm("think")], [edge("think", "agnt-x@1.0.0", "delegate")], {
  id: "agnt-boss",
  autonomyLevel: 4,
  budget: { maxSteps: 5 },
});

const lookup = tool("look", "tool:lookup@1.0.0", { params: { q: "x" } });
const loopy = workflow([lookup, llm("think")], [edge("look", "think"), edge("think", "look")], {
  id: "agnt-x",
  autonomyLevel: 1,
  inputSchema: { done: "bool" },
});
const planner = (level: AutonomyLevel) =>
  agent("agnt-x", level, [{ ...lookup, decorators: [{ type: "planner", strategy: "dynamic" }] }]);
const forbidden = agent("agnt-x", 1, [tool("dump", "tool:export@1.0.0", { params: { q: "x" } })]);

const contract = (id: string, authorization: string) => ({
  kind: "ToolContract",
  id,
  version: "1.0.0",
  name: id,
  inputSchema: { q: "text" },
  outputSchema: { r: "text" },
  effect: "read",
  authorization,
});

function lookupOf(delegate: AgentWorkflow): (ref: string) => unknown {
  const docs: Record<string, unknown> = {
    "agnt-boss@1.0.0": boss,
    "agnt-x@1.0.0": delegate,
    "tool:lookup@1.0.0": contract("tool:lookup", "automatic"),
    "tool:export@1.0.0": contract("tool:export", "forbidden"),
  };
  return (ref) => docs[ref];
}

/** The gate's blocking codes, with AGENT_WORKFLOW_INVALID's workflow codes, both ways. */
async function blockingOf(delegate: AgentWorkflow): Promise<unknown[]> {
  const registry = lookupOf(delegate);
  const options = { resolveWorkflow: registry, resolveTool: registry };
  const decision = await checkProcess(xml, options);
  const blocking = decision.blocking.map((d) => [d.code, d.data.codes]);
  expect(decision.allowed).toBe(blocking.length === 0);
  if (decision.definitions === undefined) throw new Error("the process does not read");
  const sync = evaluateGatesSync(decision.definitions, options);
  expect(sync.blocking.map((d) => [d.code, d.data.codes])).toEqual(blocking);
  return blocking;
}

describe("a delegate that fails its own rules blocks the process", () => {
  it.each<[string, AgentWorkflow]>([
    ["a delegate that loops forever", loopy],
    ["a delegate that calls a forbidden tool", forbidden],
  ])("%s, and not once it passes them", async (_name, delegate) => {
    expect(await blockingOf(delegate)).toEqual([["AGENT_WORKFLOW_INVALID", ["DELEGATE_INVALID"]]]);
    expect(await blockingOf(agent("agnt-x", 1, [lookup]))).toEqual([]);
  });

  it("a planner under-declaring its level is blocked as when it declares it honestly", async () => {
    expect(await blockingOf(planner(5))).toEqual([["AGENT_WORKFLOW_INVALID", ["AUTONOMY_CHAIN"]]]);
    expect(await blockingOf(planner(1))).toEqual([
      ["AGENT_WORKFLOW_INVALID", ["DELEGATE_INVALID"]],
    ]);
  });
});
