/**
 * AGENT_GATE_UNREACHABLE's hint never suggests an AI agent's own tools as gates: the user tasks
 * in its tool container are people the model may consult or not (red team: the AI Agent task's
 * container, drawn in the loop after the task, had its user-task tools suggested).
 */
import { describe, expect, it } from "vitest";
import { checkProcess } from "../../../src/bpmn/index.js";
import { fixture, READINGS } from "../camunda/fixtures.js";

const PERSON_TOOL = fixture("task-v11-person-tool.bpmn");
const REVIEW = /<bpmn:userTask id="Review" name="Review the answer">[\s\S]*?<\/bpmn:userTask>/;

describe.each(READINGS)(
  "the user tasks an AGENT_GATE_UNREACHABLE finding names (%s)",
  (_, reading) => {
    it.each([
      ["a user task after the agent, and one among its tools", PERSON_TOOL, ["Review"]],
      [
        "only the one among its tools",
        PERSON_TOOL.replace(
          REVIEW,
          '<bpmn:task id="Review" name="Review the answer"><bpmn:incoming>Flow_5</bpmn:incoming><bpmn:outgoing>Flow_6</bpmn:outgoing></bpmn:task>',
        ),
        [],
      ],
    ])("%s: names only those outside its tool container", async (_name, xml, named) => {
      const decision = await checkProcess(xml, reading);
      const found = decision.blocking.filter((d) => d.code === "AGENT_GATE_UNREACHABLE");
      expect(found.map((d) => [d.target, d.data.userTasks])).toEqual([
        [
          { kind: "bpmn-element", elementId: "Agent", path: "/rootElements/0/flowElements/2" },
          named,
        ],
      ]);
      expect(found[0]?.message).not.toContain("AskSupervisor");
      expect(decision.agentTasks[0]?.derived?.people).toEqual(["AskSupervisor"]);
    });
  },
);

describe.each(READINGS)("a gate marker on an agent's own tool (%s)", (_, reading) => {
  it("does not make it a gate: the tool runs when the agent calls it", async () => {
    const xml = PERSON_TOOL.replace(
      "<zeebe:userTask />",
      '<zeebe:userTask />\n<btv:gate approverRole="support-leads" />',
    );
    expect(xml).not.toBe(PERSON_TOOL);
    const decision = await checkProcess(xml, reading);
    expect(decision.allowed).toBe(false);
    expect(decision.agentTasks.map((t) => [t.elementId, t.gate])).toEqual([["Agent", "missing"]]);
    const found = decision.blocking.filter((d) => d.code === "AGENT_GATE_UNREACHABLE");
    expect(found.map((d) => [d.data.discountedGates, d.data.discountHint])).toEqual([
      [
        ["AskSupervisor"],
        '; the gate after it does not count: "AskSupervisor" is a tool of the agent "Agent" (in its tool container): it runs when the agent calls it, so it completes with nobody deciding',
      ],
    ]);
  });
});
