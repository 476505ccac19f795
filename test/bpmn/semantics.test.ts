/**
 * Gate verdicts on BPMN semantics a path reading gets wrong (issue 16), one small process each,
 * written with DI as a modeller writes it: a gate is passed only when it completes; a flow into
 * another process carries nothing; error, escalation and terminate end events go where the
 * engine sends them; compensation is not the normal flow; event sub-processes start from their
 * trigger; links jump by name; a call activity may be the gate.
 */
import { describe, expect, it } from "vitest";
import type { GateStatus } from "../../src/bpmn/index.js";
import { checkProcess } from "../../src/bpmn/index.js";
import {
  agentWorkflow,
  BPMN_NS,
  BTV_NS,
  chain,
  element,
  endEvent,
  flow,
  gate,
  gateMarker,
  processElement,
  startEvent,
  subProcess,
  task,
  userTask,
} from "./builders.js";
import { withDiagram } from "./diagram.js";

const WORKFLOW = agentWorkflow("agnt-x@1.0.0", 2);
const resolveWorkflow = (ref: string): unknown => (ref === "agnt-x@1.0.0" ? WORKFLOW : undefined);

/** A level-2 agent task (a gate is required). */
const agent = (id: string): string =>
  element("serviceTask", id, {
    ext: ['<btv:agentTask agentWorkflowRef="agnt-x@1.0.0" autonomyLevel="2" />'],
  });

/** A boundary event on `host` with the given event definition (interrupting unless `cancel` is false). */
function boundary(id: string, host: string, definition: string, cancel = true): string {
  return element("boundaryEvent", id, {
    attrs: { attachedToRef: host, ...(cancel ? {} : { cancelActivity: "false" }) },
    children: [definition.replace("/>", ` id="${id}_def" />`)],
  });
}

const TIMER = "<bpmn:timerEventDefinition />";
const errorDef = (ref?: string): string =>
  ref === undefined
    ? "<bpmn:errorEventDefinition />"
    : `<bpmn:errorEventDefinition errorRef="${ref}" />`;
const escalationDef = (ref: string): string =>
  `<bpmn:escalationEventDefinition escalationRef="${ref}" />`;
const throwEnd = (id: string, definition: string): string =>
  element("endEvent", id, { children: [definition.replace("/>", ` id="${id}_def" />`)] });

const ERRORS = [
  '<bpmn:error id="Rejected" name="Rejected" errorCode="REJECTED" />',
  '<bpmn:error id="Broken" name="Broken" errorCode="BROKEN" />',
  '<bpmn:escalation id="Late" name="Late" escalationCode="LATE" />',
];

/** A document with the given roots, the errors and escalations above, and DI. */
async function doc(...roots: readonly string[]): Promise<string> {
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<bpmn:definitions xmlns:bpmn="${BPMN_NS}" xmlns:btv="${BTV_NS}" id="Defs" targetNamespace="https://example.com/test">`,
    ...ERRORS,
    ...roots,
    "</bpmn:definitions>",
  ].join("\n");
  return withDiagram(xml);
}

const one = async (...children: readonly (string | readonly string[])[]): Promise<string> =>
  doc(processElement("P", ...children));

interface Verdict {
  readonly gate: GateStatus;
  readonly codes: readonly string[];
  readonly bypassPath?: readonly string[];
}

async function verdict(xml: string, agentId = "A"): Promise<Verdict> {
  const result = await checkProcess(xml, { resolveWorkflow });
  const task = result.agentTasks.find((t) => t.elementId === agentId);
  if (task === undefined) throw new Error(`no agent task ${agentId}`);
  const bypass = result.blocking.find(
    (d) =>
      d.code === "AGENT_GATE_BYPASS" &&
      d.target.kind === "bpmn-element" &&
      d.target.elementId === agentId,
  );
  const path = (bypass?.data as { readonly pathIds?: readonly string[] } | undefined)?.pathIds;
  return {
    gate: task.gate,
    codes: [...result.blocking, ...result.warnings].map((d) => d.code),
    ...(path === undefined ? {} : { bypassPath: path }),
  };
}

describe("a gate is passed only when it completes", () => {
  it("an interrupting timer on the gate that goes on to the action is a bypass", async () => {
    const xml = await one(
      startEvent("S"),
      agent("A"),
      gate("G"),
      boundary("AutoApprove", "G", TIMER),
      task("Disburse"),
      endEvent("E"),
      chain("S", "A", "G", "Disburse", "E"),
      flow("AutoApprove", "Disburse"),
    );
    expect(await verdict(xml)).toEqual({
      gate: "bypassed",
      codes: ["AGENT_GATE_BYPASS"],
      bypassPath: ["A", "G", "AutoApprove", "Disburse", "E"],
    });
  });

  it("an error boundary on the gate is always interrupting, whatever cancelActivity says", async () => {
    const xml = await one(
      startEvent("S"),
      agent("A"),
      gate("G"),
      boundary("Failed", "G", errorDef(), false),
      task("Disburse"),
      endEvent("E"),
      chain("S", "A", "G", "Disburse", "E"),
      flow("Failed", "Disburse"),
    );
    expect((await verdict(xml)).gate).toBe("bypassed");
  });

  it("a non-interrupting reminder on the gate leaves it running: the gate is reached", async () => {
    const xml = await one(
      startEvent("S"),
      agent("A"),
      gate("G"),
      boundary("Remind", "G", TIMER, false),
      task("SendReminder"),
      endEvent("Reminded"),
      task("Disburse"),
      endEvent("E"),
      chain("S", "A", "G", "Disburse", "E"),
      chain("Remind", "SendReminder", "Reminded"),
    );
    expect(await verdict(xml)).toEqual({ gate: "reached", codes: [] });
  });

  it("an interrupting timer on an ordinary task before the gate is still a path to the gate", async () => {
    const xml = await one(
      startEvent("S"),
      agent("A"),
      task("Prepare"),
      // Not "Late": the document declares an escalation of that id, which a flow cannot start at.
      boundary("Slow", "Prepare", TIMER),
      gate("G"),
      endEvent("E"),
      chain("S", "A", "Prepare", "G", "E"),
      flow("Slow", "G"),
    );
    expect(await verdict(xml)).toEqual({ gate: "reached", codes: [] });
  });

  it("a sub-process gate is passed at its exit, not when it is entered", async () => {
    const review = element("subProcess", "Review", {
      ext: [gateMarker()],
      children: [startEvent("RS"), userTask("Look"), endEvent("RE"), ...chain("RS", "Look", "RE")],
    });
    const xml = await one(
      startEvent("S"),
      agent("A"),
      review,
      boundary("Expired", "Review", TIMER),
      task("Disburse"),
      endEvent("E"),
      chain("S", "A", "Review", "Disburse", "E"),
      flow("Expired", "Disburse"),
    );
    expect((await verdict(xml)).gate).toBe("bypassed");
    const covered = await one(
      startEvent("S"),
      agent("A"),
      review,
      task("Disburse"),
      endEvent("E"),
      chain("S", "A", "Review", "Disburse", "E"),
    );
    expect(await verdict(covered)).toEqual({ gate: "reached", codes: [] });
  });

  it("a call activity marked as the gate keeps working", async () => {
    const xml = await one(
      startEvent("S"),
      agent("A"),
      element("callActivity", "Committee", {
        attrs: { calledElement: "CreditCommittee" },
        ext: [gateMarker()],
      }),
      endEvent("E"),
      chain("S", "A", "Committee", "E"),
    );
    expect(await verdict(xml)).toEqual({ gate: "reached", codes: [] });
  });
});

describe("a sequence flow into another process", () => {
  it("is reported with both processes and carries no reachability", async () => {
    const xml = await doc(
      '<bpmn:collaboration id="C"><bpmn:participant id="Broker" processRef="P1" /><bpmn:participant id="Bank" processRef="P2" /></bpmn:collaboration>',
      processElement("P1", startEvent("S"), agent("A"), chain("S", "A"), flow("A", "G")),
      processElement("P2", gate("G"), endEvent("E"), chain("G", "E")),
    );
    const result = await checkProcess(xml, { resolveWorkflow });
    expect(result.agentTasks.map((t) => t.gate)).toEqual(["missing"]);
    expect(result.blocking.map((d) => [d.code, d.target])).toEqual([
      [
        "SEQUENCE_FLOW_CROSSES_SCOPE",
        { kind: "bpmn-element", elementId: "A-G", path: "/rootElements/4/flowElements/3" },
      ],
      [
        "AGENT_GATE_UNREACHABLE",
        { kind: "bpmn-element", elementId: "A", path: "/rootElements/4/flowElements/1" },
      ],
    ]);
    expect(result.blocking[0]?.data).toEqual({
      flowId: "A-G",
      flowScope: "P1",
      sourceId: "A",
      sourceScope: "P1",
      targetId: "G",
      targetScope: "P2",
    });
    expect(result.blocking[0]?.location?.line).toBeGreaterThan(1);
  });
});

describe("a sequence flow whose end is no flow node", () => {
  /** `S → A → Review → Disburse → E`, the flow out of Review rewritten by `rewrite`. */
  async function reviewed(rewrite: (flow: string) => string): Promise<string> {
    const xml = await one(
      startEvent("S"),
      agent("A"),
      gate("Review"),
      task("Disburse"),
      endEvent("E"),
      '<bpmn:dataObjectReference id="Payout" dataObjectRef="PayoutData" />',
      '<bpmn:dataObject id="PayoutData" />',
      chain("S", "A", "Review", "Disburse", "E"),
    );
    const written = /<bpmn:sequenceFlow id="Review-Disburse"[^>]*\/>/.exec(xml)?.[0] ?? "";
    expect(written).toContain('sourceRef="Review"');
    return xml.replace(written, rewrite(written));
  }

  it.each([
    ["no targetRef", (f: string) => f.replace(' targetRef="Disburse"', ""), "missingEnd", {}],
    [
      "the process as its target",
      (f: string) => f.replace('"Disburse"', '"P"'),
      "notFlowNode",
      { refId: "P" },
    ],
    [
      "another flow as its target",
      (f: string) => f.replace('"Disburse"', '"S-A"'),
      "notFlowNode",
      { refId: "S-A" },
    ],
    [
      "a data object as its target",
      (f: string) => f.replace('"Disburse"', '"Payout"'),
      "notFlowNode",
      { refId: "Payout" },
    ],
  ] as const)("is reported, and blocks, with %s", async (_, rewrite, messageId, ref) => {
    const result = await checkProcess(await reviewed(rewrite), { resolveWorkflow });
    expect(result.allowed).toBe(false);
    const reported = result.blocking.find((d) => d.code === "SEQUENCE_FLOW_CROSSES_SCOPE");
    expect(reported?.data).toEqual({
      flowId: "Review-Disburse",
      flowScope: "P",
      end: "target",
      ...ref,
    });
    const said =
      "refId" in ref ? `has targetRef "${ref.refId}", which is no flow node` : "has no targetRef";
    expect(messageId).toBe("refId" in ref ? "notFlowNode" : "missingEnd");
    expect(reported?.message).toBe(
      `sequence flow "Review-Disburse" in "P" ${said}; a sequence flow joins two flow nodes of its process or sub-process, so this one never runs and counts for no path`,
    );
  });

  it("no sourceRef: the gate is no longer an end that is passed without a word", async () => {
    const result = await checkProcess(await reviewed((f) => f.replace(' sourceRef="Review"', "")), {
      resolveWorkflow,
    });
    expect(result.blocking.map((d) => [d.code, d.data.end])).toContainEqual([
      "SEQUENCE_FLOW_CROSSES_SCOPE",
      "source",
    ]);
  });
});

describe("error, escalation and terminate end events", () => {
  it("an error end never completes its sub-process: it goes to the matching boundary", async () => {
    // The sub-process only ever ends in an error; its normal exit leads to an ungated end.
    const check = subProcess("Check", [
      startEvent("CS"),
      task("Validate"),
      throwEnd("Invalid", errorDef("Rejected")),
      ...chain("CS", "Validate", "Invalid"),
    ]);
    const xml = await one(
      startEvent("S"),
      agent("A"),
      check,
      boundary("OnRejected", "Check", errorDef("Rejected")),
      endEvent("Done"),
      gate("G"),
      endEvent("E"),
      chain("S", "A", "Check", "Done"),
      chain("OnRejected", "G", "E"),
    );
    expect(await verdict(xml)).toEqual({ gate: "reached", codes: [] });
  });

  it("a catch-all error boundary catches an error no boundary names", async () => {
    const check = subProcess("Check", [
      startEvent("CS"),
      throwEnd("Invalid", errorDef("Rejected")),
      ...chain("CS", "Invalid"),
    ]);
    const xml = await one(
      startEvent("S"),
      agent("A"),
      check,
      boundary("OnAny", "Check", errorDef()),
      endEvent("Done"),
      gate("G"),
      endEvent("E"),
      chain("S", "A", "Check", "Done"),
      chain("OnAny", "G", "E"),
    );
    expect((await verdict(xml)).gate).toBe("reached");
  });

  it("an error nothing catches ends the process: the gate after the sub-process is bypassed", async () => {
    const check = subProcess("Check", [
      startEvent("CS"),
      element("exclusiveGateway", "Ok"),
      throwEnd("Invalid", errorDef("Rejected")),
      endEvent("Valid"),
      ...chain("CS", "Ok", "Invalid"),
      flow("Ok", "Valid"),
    ]);
    const xml = await one(
      startEvent("S"),
      agent("A"),
      check,
      gate("G"),
      endEvent("E"),
      chain("S", "A", "Check", "G", "E"),
    );
    expect(await verdict(xml)).toEqual({
      gate: "bypassed",
      codes: ["AGENT_GATE_BYPASS"],
      bypassPath: ["A", "Check", "CS", "Ok", "Invalid"],
    });
  });

  it("an error thrown in a nested sub-process is caught by the enclosing sub-process's boundary", async () => {
    const inner = subProcess("Inner", [
      startEvent("IS"),
      throwEnd("Invalid", errorDef("Rejected")),
      ...chain("IS", "Invalid"),
    ]);
    const outer = subProcess("Outer", [
      startEvent("OS"),
      inner,
      endEvent("OE"),
      ...chain("OS", "Inner", "OE"),
    ]);
    const xml = await one(
      startEvent("S"),
      agent("A"),
      outer,
      boundary("OnRejected", "Outer", errorDef("Rejected")),
      endEvent("Done"),
      gate("G"),
      endEvent("E"),
      chain("S", "A", "Outer", "Done"),
      chain("OnRejected", "G", "E"),
    );
    expect((await verdict(xml)).gate).toBe("reached");
  });

  it("an error event sub-process catches an error end of its process", async () => {
    const handler = subProcess(
      "OnError",
      [
        element("startEvent", "ES", {
          children: ['<bpmn:errorEventDefinition id="ES_def" errorRef="Rejected" />'],
        }),
        gate("G"),
        endEvent("EE"),
        ...chain("ES", "G", "EE"),
      ],
      { triggeredByEvent: true },
    );
    const xml = await one(
      startEvent("S"),
      agent("A"),
      throwEnd("Invalid", errorDef("Rejected")),
      handler,
      chain("S", "A", "Invalid"),
    );
    expect(await verdict(xml)).toEqual({ gate: "reached", codes: [] });
  });

  it("an escalation caught by an interrupting boundary does not complete the sub-process", async () => {
    const work = subProcess("Work", [
      startEvent("WS"),
      throwEnd("TooLate", escalationDef("Late")),
      ...chain("WS", "TooLate"),
    ]);
    const xml = await one(
      startEvent("S"),
      agent("A"),
      work,
      boundary("OnLate", "Work", escalationDef("Late")),
      endEvent("Done"),
      gate("G"),
      endEvent("E"),
      chain("S", "A", "Work", "Done"),
      chain("OnLate", "G", "E"),
    );
    expect((await verdict(xml)).gate).toBe("reached");
  });

  it("an escalation caught by a non-interrupting boundary goes on both ways", async () => {
    // As the interrupting case, but the sub-process also completes and goes on to an ungated end.
    const work = subProcess("Work", [
      startEvent("WS"),
      throwEnd("TooLate", escalationDef("Late")),
      ...chain("WS", "TooLate"),
    ]);
    const xml = await one(
      startEvent("S"),
      agent("A"),
      work,
      boundary("OnLate", "Work", escalationDef("Late"), false),
      endEvent("Done"),
      gate("G"),
      endEvent("E"),
      chain("S", "A", "Work", "Done"),
      chain("OnLate", "G", "E"),
    );
    expect(await verdict(xml)).toEqual({
      gate: "bypassed",
      codes: ["AGENT_GATE_BYPASS"],
      bypassPath: ["A", "Work", "WS", "TooLate", "Done"],
    });
  });

  it("an error boundary without outgoing flow inside a sub-process ends only the sub-process", async () => {
    // A catching error event is no thrower: found by the random-process property.
    const work = subProcess("Work", [
      startEvent("WS"),
      task("Call"),
      boundary("CallFailed", "Call", errorDef("Broken")),
      endEvent("WE"),
      ...chain("WS", "Call", "WE"),
    ]);
    const xml = await one(
      startEvent("S"),
      agent("A"),
      work,
      gate("G"),
      endEvent("E"),
      chain("S", "A", "Work", "G", "E"),
    );
    expect(await verdict(xml)).toEqual({ gate: "reached", codes: [] });
  });

  it("an agent task with no outgoing flow ends the process when it completes", async () => {
    // Found by the random-process property: the task itself is an end of the process.
    const xml = await one(
      startEvent("S"),
      agent("A"),
      boundary("Slow", "A", TIMER, false),
      gate("G"),
      endEvent("E"),
      chain("S", "A"),
      chain("Slow", "G", "E"),
    );
    expect(await verdict(xml)).toEqual({
      gate: "bypassed",
      codes: ["AGENT_GATE_BYPASS"],
      bypassPath: ["A"],
    });
  });

  it("a terminate end in a sub-process completes the sub-process, which goes on to the gate", async () => {
    const work = subProcess("Work", [
      startEvent("WS"),
      throwEnd("Stop", "<bpmn:terminateEventDefinition />"),
      ...chain("WS", "Stop"),
    ]);
    const xml = await one(
      startEvent("S"),
      agent("A"),
      work,
      gate("G"),
      endEvent("E"),
      chain("S", "A", "Work", "G", "E"),
    );
    expect(await verdict(xml)).toEqual({ gate: "reached", codes: [] });
  });

  it("a terminate end on the process level ends the process", async () => {
    const xml = await one(
      startEvent("S"),
      agent("A"),
      element("parallelGateway", "Fork"),
      gate("G"),
      endEvent("E"),
      throwEnd("Stop", "<bpmn:terminateEventDefinition />"),
      chain("S", "A", "Fork", "G", "E"),
      flow("Fork", "Stop"),
    );
    expect((await verdict(xml)).bypassPath).toEqual(["A", "Fork", "Stop"]);
  });
});

describe("compensation is not the normal flow", () => {
  it("a compensation boundary with its undo handler does not bypass the gate", async () => {
    const xml = await one(
      startEvent("S"),
      agent("A"),
      boundary("Undo", "A", "<bpmn:compensateEventDefinition />"),
      element("serviceTask", "Revert", { attrs: { isForCompensation: "true" } }),
      gate("G"),
      endEvent("E"),
      chain("S", "A", "G", "E"),
      '<bpmn:association id="Undo-Revert" associationDirection="One" sourceRef="Undo" targetRef="Revert" />',
    );
    expect(await verdict(xml)).toEqual({ gate: "reached", codes: [] });
  });
});

describe("event sub-processes and links", () => {
  it("an event sub-process starts from its trigger, not from its parent's start", async () => {
    const handler = subProcess(
      "OnTimer",
      [
        element("startEvent", "TS", {
          attrs: { isInterrupting: "false" },
          children: ['<bpmn:timerEventDefinition id="TS_def" />'],
        }),
        task("Log"),
        endEvent("TE"),
        ...chain("TS", "Log", "TE"),
      ],
      { triggeredByEvent: true },
    );
    const work = subProcess("Work", [
      startEvent("WS"),
      agent("A"),
      endEvent("WE"),
      ...chain("WS", "A", "WE"),
      handler,
    ]);
    const xml = await one(
      startEvent("S"),
      work,
      gate("G"),
      endEvent("E"),
      chain("S", "Work", "G", "E"),
    );
    expect(await verdict(xml)).toEqual({ gate: "reached", codes: [] });
  });

  it("an interrupting event sub-process that ends the process without the gate is a bypass", async () => {
    const handler = subProcess(
      "OnCancel",
      [
        element("startEvent", "CS", { children: ['<bpmn:messageEventDefinition id="CS_def" />'] }),
        endEvent("CE"),
        ...chain("CS", "CE"),
      ],
      { triggeredByEvent: true },
    );
    const xml = await one(
      startEvent("S"),
      agent("A"),
      gate("G"),
      endEvent("E"),
      chain("S", "A", "G", "E"),
      handler,
    );
    expect((await verdict(xml)).gate).toBe("bypassed");
  });

  it("a link throw jumps to the catch of the same name", async () => {
    const link = (id: string, kind: string, name: string): string =>
      element(kind, id, {
        children: [`<bpmn:linkEventDefinition id="${id}_def" name="${name}" />`],
      });
    const xml = await one(
      startEvent("S"),
      agent("A"),
      link("ToReview", "intermediateThrowEvent", "review"),
      link("FromReview", "intermediateCatchEvent", "review"),
      link("Elsewhere", "intermediateCatchEvent", "archive"),
      gate("G"),
      endEvent("E"),
      endEvent("Archived"),
      chain("S", "A", "ToReview"),
      chain("FromReview", "G", "E"),
      chain("Elsewhere", "Archived"),
    );
    expect(await verdict(xml)).toEqual({ gate: "reached", codes: [] });
  });
});
