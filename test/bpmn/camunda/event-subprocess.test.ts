/**
 * The event sub-processes of a tool container are no tools (the model cannot call them), but
 * what runs in them is part of what the agent may do: an escalation or error a tool throws, a
 * condition its result meets, a timer or a message while the agent runs starts them. So every
 * element inside (nested event sub-processes too) is read, and the most demanding effect among
 * them counts for every tool — never dropped.
 */
import { describe, expect, it } from "vitest";
import { checkProcess, readProcess } from "../../../src/bpmn/index.js";
import { readContainer } from "../../../src/bpmn/camunda/read-tools.js";
import { listProp } from "../../../src/bpmn/moddle.js";
import { A2A_CLIENT, derivedOf, modelerAgent, templatedTask } from "./fixtures.js";

const HTTP = "io.camunda.connectors.HttpJson.v2";
const REST = "io.camunda:http-json:1";
const CHARGE = templatedTask("Charge", HTTP, REST, {
  method: "POST",
  url: "https://pay.example.com/charge",
});
const ESCALATE = `<bpmn:intermediateThrowEvent id="Escalate" name="Escalate to billing"><bpmn:escalationEventDefinition escalationRef="Escalation_1" /></bpmn:intermediateThrowEvent>`;

/** An event sub-process started by the billing escalation, holding `body` after its start. */
const onEscalate = (body: string, attrs = "") =>
  `<bpmn:subProcess id="OnEscalate" triggeredByEvent="true"${attrs}>
     <bpmn:startEvent id="EscStart" isInterrupting="false"><bpmn:escalationEventDefinition escalationRef="Escalation_1" /></bpmn:startEvent>
     ${body}
   </bpmn:subProcess>`;
const CHARGING = onEscalate(
  `<bpmn:sequenceFlow id="E1" sourceRef="EscStart" targetRef="Charge" />${CHARGE}<bpmn:sequenceFlow id="E2" sourceRef="Charge" targetRef="EscEnd" /><bpmn:endEvent id="EscEnd" />`,
);
const A2A_READ = { toolEffects: { "io.camunda.agenticai:a2aclient:0": "read" } } as const;

/** Each tool as `[id, effect, source, key, decidedBy]`. */
async function tools(xml: string, options = {}) {
  const { derived } = derivedOf(await checkProcess(xml, options));
  return derived.tools.map((t) => [
    t.id,
    t.effect ?? "unknown",
    t.effectSource,
    t.effectKey,
    t.decidedBy,
  ]);
}

describe("the container's event sub-processes", () => {
  it("are read, each element inside with a flow from its event sub-process, and are no tools", async () => {
    const nested = `<bpmn:subProcess id="Later" triggeredByEvent="true"><bpmn:startEvent id="LaterStart"><bpmn:timerEventDefinition><bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:startEvent></bpmn:subProcess>`;
    const { definitions } = await readProcess(
      modelerAgent(A2A_CLIENT + ESCALATE + onEscalate(CHARGE + nested)),
    );
    const process = listProp(definitions ?? { $type: "none" }, "rootElements")[0];
    const agent = listProp(process ?? { $type: "none" }, "flowElements").find(
      (e) => e.$type === "bpmn:AdHocSubProcess",
    );
    if (agent === undefined) throw new Error("no agent");
    const read = readContainer(agent);
    expect({
      tools: read.tools.map((t) => t.id),
      steps: read.steps.map((s) => [s.id, s.nature]),
      flows: read.flows,
      events: read.eventSubProcesses,
    }).toEqual({
      tools: ["Partner", "Escalate"],
      steps: [
        ["OnEscalate", "event-sub-process"],
        ["EscStart", "pass-through"],
        ["Charge", "connector"],
        ["Later", "event-sub-process"],
        ["LaterStart", "pass-through"],
      ],
      flows: [
        ["OnEscalate", "EscStart"],
        ["OnEscalate", "Charge"],
        ["OnEscalate", "Later"],
        ["Later", "LaterStart"],
      ],
      events: ["OnEscalate"],
    });
  });

  it("count for every tool: an A2A agent whose escalation charges a card needs a gate", async () => {
    const xml = modelerAgent(A2A_CLIENT + ESCALATE + CHARGING);
    const row = ["write-irreversible", "default", `${HTTP} method=POST`, "Charge"];
    expect(await tools(xml, A2A_READ)).toEqual([
      ["Partner", ...row],
      ["Escalate", ...row],
    ]);
    const decision = await checkProcess(xml, A2A_READ);
    const { task } = derivedOf(decision);
    expect([task.level, task.requirement, decision.allowed]).toEqual([4, "optional", false]);
    expect(decision.blocking.map((d) => [d.code, d.data.nodeId])).toEqual([
      ["TOOL_EFFECT_NEEDS_GATE", "Partner"],
      ["TOOL_EFFECT_NEEDS_GATE", "Escalate"],
    ]);
    expect(
      (await checkProcess(modelerAgent(A2A_CLIENT + ESCALATE + CHARGING, { gate: true }), A2A_READ))
        .allowed,
    ).toBe(true);
  });

  it("a btv:toolEffect on an event sub-process states what all of it does", async () => {
    const stated = CHARGING.replace(
      'triggeredByEvent="true"',
      'triggeredByEvent="true" btv:toolEffect="notify"',
    );
    expect(await tools(modelerAgent(A2A_CLIENT + ESCALATE + stated), A2A_READ)).toEqual([
      ["Partner", "notify", "btv", "btv:toolEffect", "OnEscalate"],
      ["Escalate", "notify", "btv", "btv:toolEffect", "OnEscalate"],
    ]);
  });

  it("what is inside a nested event sub-process counts, and a sub-process inside is unknown", async () => {
    const nested = `<bpmn:subProcess id="Later" triggeredByEvent="true"><bpmn:startEvent id="LaterStart" /><bpmn:subProcess id="Inner"><bpmn:startEvent id="InnerStart" /></bpmn:subProcess></bpmn:subProcess>`;
    expect(await tools(modelerAgent(A2A_CLIENT + ESCALATE + onEscalate(nested)), A2A_READ)).toEqual(
      [
        ["Partner", "unknown", "unknown", undefined, "Inner"],
        ["Escalate", "unknown", "unknown", undefined, "Inner"],
      ],
    );
  });

  it("an agent with no tools still depends on what its event sub-processes do", async () => {
    const { task } = derivedOf(await checkProcess(modelerAgent(CHARGING)));
    expect(task.dependencies).toEqual([
      {
        kind: "tool",
        ref: "tool:camunda.OnEscalate@1.0.0",
        nodeId: "OnEscalate",
        effectSource: "default",
        effectKey: `${HTTP} method=POST`,
        effect: "write-irreversible",
      },
    ]);
  });
});
