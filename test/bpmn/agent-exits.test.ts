/**
 * Where an agent's work goes on besides its outgoing flows (docs/bpmn.md, "Where an agent's work
 * goes on"): an agent sub-process that throws an error or escalation caught outside it, and an
 * agent in a parallel multi-instance body whose completion condition may cancel its instance's
 * gate. Each bypass beside the shape that must stay allowed.
 */
import { describe, expect, it } from "vitest";
import {
  chain,
  element,
  endEvent,
  gate,
  gateMarker,
  startEvent,
  subProcess,
  task,
} from "./builders.js";
import type { Outcome } from "./outcome.js";
import { ALLOWED, BLOCKED, boundary, doc, ERROR, event, LATE, outcome } from "./outcome.js";

const AGENT_MARKER = '<btv:agentTask agentWorkflowRef="agnt-x@1.0.0" autonomyLevel="2" />';

/** Agent sub-process `A`: `AS → Decide`, then `ADone`, or the end event `AThrow` throwing `definition`. */
function agentThrowing(definition: string): string {
  const inside = [
    startEvent("AS"),
    element("exclusiveGateway", "Decide"),
    endEvent("ADone"),
    event("endEvent", "AThrow", definition),
    chain("AS", "Decide", "ADone"),
    chain("Decide", "AThrow"),
  ];
  return subProcess("A", inside, { ext: [AGENT_MARKER] });
}

/** `S → A → Review → E`, with `OnThrow` on A (caught) leading along `after` to `E2`. */
function caught(definition: string, after: readonly string[]): Promise<string> {
  return doc(
    startEvent("S"),
    agentThrowing(definition),
    boundary("OnThrow", "A", definition),
    gate("Review"),
    ...after.map((id) => (id === "Review2" ? gate(id) : task(id))),
    endEvent("E"),
    endEvent("E2"),
    chain("S", "A", "Review", "E"),
    chain("OnThrow", ...after, "E2"),
  );
}

describe("an agent sub-process whose throw is caught outside it", () => {
  const cases: readonly (readonly [string, () => Promise<string>, Outcome])[] = [
    [
      "an escalation its boundary event takes to a payment skips the gate",
      () => caught(LATE, ["Pay"]),
      BLOCKED(["A", "OnThrow", "Pay", "E2"]),
    ],
    [
      "an error its boundary event takes to a payment skips the gate",
      () => caught(ERROR, ["Pay"]),
      BLOCKED(["A", "OnThrow", "Pay", "E2"]),
    ],
    [
      "the same escalation taken to a second review first stays allowed",
      () => caught(LATE, ["Review2", "Pay"]),
      ALLOWED,
    ],
  ];
  it.each(cases)("%s", async (_name, xml, expected) => {
    expect(await outcome(await xml())).toEqual(expected);
  });

  it("an escalation an event sub-process of the process takes skips the gate", async () => {
    const handler = subProcess(
      "OnOps",
      [
        event("startEvent", "OpsStart", LATE),
        task("Pay"),
        endEvent("OpsEnd"),
        chain("OpsStart", "Pay", "OpsEnd"),
      ],
      { triggeredByEvent: true },
    );
    const xml = await doc(
      startEvent("S"),
      agentThrowing(LATE),
      handler,
      gate("Review"),
      endEvent("E"),
      chain("S", "A", "Review", "E"),
    );
    expect(await outcome(xml)).toEqual(BLOCKED(["A", "OpsStart", "Pay", "OpsEnd"]));
  });
});

/** A multi-instance sub-process `Each` over two offers, parallel unless `sequential`. */
function perOffer(
  inside: readonly (string | readonly string[])[],
  options: { readonly sequential?: boolean; readonly condition?: boolean } = {},
): string {
  const condition =
    options.condition === false
      ? []
      : [
          "<bpmn:completionCondition>=numberOfCompletedInstances &gt;= 1</bpmn:completionCondition>",
        ];
  const loop = element("multiInstanceLoopCharacteristics", "EachLoop", {
    ...(options.sequential === true ? { attrs: { isSequential: "true" } } : {}),
    ext: ['<zeebe:loopCharacteristics inputCollection="=[1, 2]" inputElement="offer" />'],
    children: condition,
  });
  return element("subProcess", "Each", { children: [loop, ...inside.flat()] });
}

/** `S → Each → Disburse → E`, Each holding `inside`. */
const around = (each: string): Promise<string> =>
  doc(startEvent("S"), each, task("Disburse"), endEvent("E"), chain("S", "Each", "Disburse", "E"));

const AGENT_AND_REVIEW = [
  startEvent("In"),
  element("serviceTask", "A", { ext: [AGENT_MARKER] }),
  gate("Review"),
  endEvent("Out"),
  chain("In", "A", "Review", "Out"),
];

describe("an agent in a parallel body that a completion condition may cut short", () => {
  it("another instance's completion cancels its gate: the flow goes on without it", async () => {
    expect(await outcome(await around(perOffer(AGENT_AND_REVIEW)))).toEqual(
      BLOCKED(["A", "Disburse", "E"]),
    );
  });

  it.each([
    ["instances run one after another", { sequential: true }],
    ["no completion condition", { condition: false }],
  ] as const)("stays allowed when %s", async (_name, options) => {
    expect(await outcome(await around(perOffer(AGENT_AND_REVIEW, options)))).toEqual(ALLOWED);
  });

  it("stays allowed for an agent before the body: one instance's review saw its output", async () => {
    const review = [
      startEvent("In"),
      gate("Review"),
      endEvent("Out"),
      chain("In", "Review", "Out"),
    ];
    const xml = await doc(
      startEvent("S"),
      element("serviceTask", "A", { ext: [AGENT_MARKER] }),
      perOffer(review),
      task("Disburse"),
      endEvent("E"),
      chain("S", "A", "Each", "Disburse", "E"),
    );
    expect(await outcome(xml)).toEqual(ALLOWED);
  });
});

/**
 * An ad-hoc sub-process `Each` (the `Each` of {@link around}) holding the agent and its review in
 * the sub-process `Sub`, beside a task `Other`; `attrs` and `ext` are the ad-hoc's.
 */
function adHoc(
  attrs: Readonly<Record<string, string>>,
  options: { readonly condition?: boolean; readonly ext?: readonly string[] } = {},
): string {
  const condition =
    options.condition === false
      ? []
      : [
          '<bpmn:completionCondition xsi:type="bpmn:tFormalExpression">=true</bpmn:completionCondition>',
        ];
  return element("adHocSubProcess", "Each", {
    attrs,
    ...(options.ext === undefined ? {} : { ext: options.ext }),
    children: [subProcess("Sub", AGENT_AND_REVIEW), task("Other"), ...condition],
  });
}

describe("an agent in an ad-hoc sub-process that may complete before its gate does", () => {
  const cases: readonly (readonly [string, string, Outcome])[] = [
    [
      "its completion condition, cancelling what is active (the default), cancels the gate",
      adHoc({}),
      BLOCKED(["A", "Disburse", "E"]),
    ],
    [
      "cancelRemainingInstances written true does the same",
      adHoc({ cancelRemainingInstances: "true" }),
      BLOCKED(["A", "Disburse", "E"]),
    ],
    [
      "a job worker completing it (Camunda 8) may cancel the gate, whatever the attributes say",
      adHoc(
        { cancelRemainingInstances: "false" },
        { condition: false, ext: ['<zeebe:taskDefinition type="acme:case-planner" />'] },
      ),
      // The job worker choosing what the sub-process runs makes it an agent of its own, not
      // derived, with no gate after it (docs/bpmn.md).
      {
        ...BLOCKED(["A", "Disburse", "E"]),
        codes: ["AGENT_GATE_UNREACHABLE", "AGENT_GATE_BYPASS"],
      },
    ],
    [
      "stays allowed when it lets what is active finish",
      adHoc({ cancelRemainingInstances: "false" }),
      ALLOWED,
    ],
    ["stays allowed with no completion condition", adHoc({}, { condition: false }), ALLOWED],
  ];
  it.each(cases)("%s", async (_name, each, expected) => {
    expect(await outcome(await around(each))).toEqual(expected);
  });
});

describe("an agent marked as a gate", () => {
  it("is no approval of the agent before it: a gate is a person", async () => {
    const xml = await doc(
      startEvent("S"),
      element("serviceTask", "A", { ext: [AGENT_MARKER] }),
      element("serviceTask", "Second", {
        ext: [AGENT_MARKER.replace('autonomyLevel="2"', 'autonomyLevel="1"'), gateMarker()],
      }),
      endEvent("E"),
      chain("S", "A", "Second", "E"),
    );
    const result = await outcome(xml);
    expect(result).toMatchObject({ gate: "missing", allowed: false });
    expect(result.codes).toContain("AGENT_GATE_UNREACHABLE");
  });
});
