/**
 * A gate counts only if it completes, whatever else may cancel it (issue 38; docs/bpmn.md, "What
 * cancels a gate"). One small process per case, with DI as a modeller writes it: (a) a
 * non-interrupting event on the gate whose path ends the gate's scope — a terminate, an uncaught
 * error, an escalation that interrupts the gate's sub-process; (b) a terminate on a parallel
 * branch that ends the scope while the gate is pending; (c) a boundary event exists as a path
 * only if something can trigger it. Each with the cases that must stay allowed.
 */
import { describe, expect, it } from "vitest";
import {
  BPMN_NS,
  BTV_NS,
  chain,
  element,
  endEvent,
  exclusiveGateway,
  flow,
  gate,
  parallelGateway,
  processElement,
  startEvent,
  subProcess,
  task,
} from "./builders.js";
import { withDiagram } from "./diagram.js";
import type { GateKind, Outcome } from "./outcome.js";
import {
  agent,
  ALLOWED,
  BLOCKED,
  boundary,
  doc,
  ERROR,
  event,
  GATE_KINDS,
  gateOf,
  LATE,
  outcome,
  TERMINATE,
  TIMER,
} from "./outcome.js";

const MESSAGE = '<bpmn:messageEventDefinition messageRef="Notice" />';

/** `S → A → Review → Disburse → E`, a reminder on Review leading along `reminder`. */
function remindedReview(kind: GateKind, ...reminder: readonly (string | readonly string[])[]) {
  return doc(
    startEvent("S"),
    agent("A"),
    gateOf(kind, "Review"),
    boundary("Remind", "Review", TIMER, false),
    task("Disburse"),
    endEvent("E"),
    chain("S", "A", "Review", "Disburse", "E"),
    ...reminder,
  );
}

/** `S → A → Work → Disburse → E`, Work holding `inside`, with an escalation boundary OnLate. */
function escalatedWork(inside: readonly (string | readonly string[])[], onLate = LATE) {
  return doc(
    startEvent("S"),
    agent("A"),
    subProcess("Work", inside),
    boundary("OnLate", "Work", onLate),
    task("Skip"),
    endEvent("Skipped"),
    task("Disburse"),
    endEvent("E"),
    chain("S", "A", "Work", "Disburse", "E"),
    chain("OnLate", "Skip", "Skipped"),
  );
}

describe("(a) a non-interrupting event on the gate whose path cancels the gate", () => {
  const cases: readonly (readonly [string, GateKind, () => Promise<string>, Outcome])[] = [
    ...GATE_KINDS.map(
      (kind) =>
        [
          "a terminate end ends the process while Review is pending",
          kind,
          () =>
            remindedReview(
              kind,
              task("Notify"),
              event("endEvent", "Stop", TERMINATE),
              chain("Remind", "Notify", "Stop"),
            ),
          BLOCKED(["A", "Review", "Stop"]),
        ] as const,
    ),
    ...GATE_KINDS.map(
      (kind) =>
        [
          "an error nothing catches ends the process while Review is pending",
          kind,
          () =>
            remindedReview(
              kind,
              task("Notify"),
              event("endEvent", "Boom", ERROR),
              chain("Remind", "Notify", "Boom"),
            ),
          BLOCKED(["A", "Review", "Boom"]),
        ] as const,
    ),
    ...GATE_KINDS.map(
      (kind) =>
        [
          "an escalation interrupts Work, Review's sub-process, while Review is pending",
          kind,
          () =>
            escalatedWork([
              startEvent("WS"),
              gateOf(kind, "Review"),
              endEvent("WE"),
              boundary("Remind", "Review", TIMER, false),
              event("endEvent", "Escalate", LATE),
              ...chain("WS", "Review", "WE"),
              ...chain("Remind", "Escalate"),
            ]),
          // A called process may escalate any time: OnLate fires while anything in Work runs.
          kind === "call activity"
            ? BLOCKED(["A", "Work", "OnLate", "Skip", "Skipped"])
            : BLOCKED(["A", "Work", "WS", "Review", "Escalate", "OnLate", "Skip", "Skipped"]),
        ] as const,
    ),
    [
      "a terminate ends Work, Review's sub-process, which completes and goes on to Disburse",
      "user task",
      () =>
        doc(
          startEvent("S"),
          agent("A"),
          subProcess("Work", [
            startEvent("WS"),
            gate("Review"),
            endEvent("WE"),
            boundary("Remind", "Review", TIMER, false),
            event("endEvent", "Stop", TERMINATE),
            ...chain("WS", "Review", "WE"),
            ...chain("Remind", "Stop"),
          ]),
          task("Disburse"),
          endEvent("E"),
          chain("S", "A", "Work", "Disburse", "E"),
        ),
      BLOCKED(["A", "Work", "WS", "Review", "Stop", "Disburse", "E"]),
    ],
  ];
  it.each(cases)("%s (the gate a %s): BLOCKED", async (_, _kind, xml, expected) => {
    expect(await outcome(await xml())).toEqual(expected);
  });

  const allowed: readonly (readonly [string, GateKind, () => Promise<string>])[] = [
    ...GATE_KINDS.map(
      (kind) =>
        [
          "a reminder that ends at a plain end leaves Review to complete",
          kind,
          () =>
            remindedReview(
              kind,
              task("Notify"),
              endEvent("Reminded"),
              chain("Remind", "Notify", "Reminded"),
            ),
        ] as const,
    ),
    [
      "a terminate inside a sub-process on the reminder's path ends only that sub-process",
      "user task",
      () =>
        remindedReview(
          "user task",
          subProcess("Fix", [
            startEvent("FS"),
            event("endEvent", "FixStop", TERMINATE),
            flow("FS", "FixStop"),
          ]),
          endEvent("Fixed"),
          chain("Remind", "Fix", "Fixed"),
        ),
    ],
    [
      "an error the reminder's own sub-process catches does not reach Review",
      "call activity",
      () =>
        remindedReview(
          "call activity",
          subProcess("Fix", [
            startEvent("FS"),
            event("endEvent", "FixFail", ERROR),
            flow("FS", "FixFail"),
          ]),
          boundary("OnBroken", "Fix", ERROR),
          endEvent("Fixed"),
          endEvent("Handled"),
          chain("Remind", "Fix", "Fixed"),
          chain("OnBroken", "Handled"),
        ),
    ],
    [
      "a terminate after the gate on an exclusive choice runs only once Review completed",
      "sub-process",
      () =>
        doc(
          startEvent("S"),
          agent("A"),
          gateOf("sub-process", "Review"),
          exclusiveGateway("Approved"),
          task("Disburse"),
          endEvent("E"),
          event("endEvent", "Stop", TERMINATE),
          chain("S", "A", "Review", "Approved", "Disburse", "E"),
          flow("Approved", "Stop"),
        ),
    ],
  ];
  it.each(allowed)("%s (the gate a %s): ALLOWED", async (_, _kind, xml) => {
    expect(await outcome(await xml())).toEqual(ALLOWED);
  });
});

/** `S → Work → Disburse → E`, Work holding `inside`. */
function work(inside: readonly (string | readonly string[])[]): Promise<string> {
  return doc(
    startEvent("S"),
    subProcess("Work", inside),
    task("Disburse"),
    endEvent("E"),
    chain("S", "Work", "Disburse", "E"),
  );
}

describe("(b) a terminate on a parallel branch cancels the pending gate", () => {
  const cases: readonly (readonly [string, () => Promise<string>, Outcome])[] = [
    [
      "Work: fork → (A → Review), (Wait → terminate): Work completes without Review, Disburse runs",
      () =>
        work([
          startEvent("WS"),
          parallelGateway("Fork"),
          agent("A"),
          gate("Review"),
          endEvent("WE"),
          task("Wait"),
          event("endEvent", "Stop", TERMINATE),
          ...chain("WS", "Fork", "A", "Review", "WE"),
          ...chain("Fork", "Wait", "Stop"),
        ]),
      BLOCKED(["A", "Review", "Stop", "Disburse", "E"]),
    ],
    [
      "Work: a task with two outgoing flows splits as a parallel gateway does",
      () =>
        work([
          startEvent("WS"),
          task("Prepare"),
          agent("A"),
          gate("Review"),
          endEvent("WE"),
          event("endEvent", "Stop", TERMINATE),
          ...chain("WS", "Prepare", "A", "Review", "WE"),
          flow("Prepare", "Stop"),
        ]),
      BLOCKED(["A", "Review", "Stop", "Disburse", "E"]),
    ],
    [
      "the process: fork → (A → Review → E), (Wait → terminate) ends the process",
      () =>
        doc(
          startEvent("S"),
          parallelGateway("Fork"),
          agent("A"),
          gate("Review"),
          endEvent("E"),
          task("Wait"),
          event("endEvent", "Stop", TERMINATE),
          chain("S", "Fork", "A", "Review", "E"),
          chain("Fork", "Wait", "Stop"),
        ),
      BLOCKED(["A", "Review", "Stop"]),
    ],
  ];
  it.each(cases)("%s: BLOCKED", async (_, xml, expected) => {
    expect(await outcome(await xml())).toEqual(expected);
  });

  const allowed: readonly (readonly [string, () => Promise<string>])[] = [
    [
      "Work: the terminate comes after the join that waits for Review",
      () =>
        work([
          startEvent("WS"),
          parallelGateway("Fork"),
          agent("A"),
          gate("Review"),
          task("Check"),
          parallelGateway("Join"),
          event("endEvent", "Stop", TERMINATE),
          ...chain("WS", "Fork", "A", "Review", "Join", "Stop"),
          ...chain("Fork", "Check", "Join"),
        ]),
    ],
    [
      "Work: an exclusive choice between the agent and the terminate",
      () =>
        work([
          startEvent("WS"),
          exclusiveGateway("Choose"),
          agent("A"),
          gate("Review"),
          endEvent("WE"),
          event("endEvent", "Stop", TERMINATE),
          ...chain("WS", "Choose", "A", "Review", "WE"),
          flow("Choose", "Stop"),
        ]),
    ],
  ];
  it.each(allowed)("%s: ALLOWED", async (_, xml) => {
    expect(await outcome(await xml())).toEqual(ALLOWED);
  });
});

describe("(c) a boundary event is a path only if something can trigger it", () => {
  /** Work: WS → [before →] Review → WE. */
  const reviewIn = (...before: readonly string[]): (string | readonly string[])[] => [
    startEvent("WS"),
    ...before.map((b) => (b.startsWith("<") ? b : task(b))),
    gate("Review"),
    endEvent("WE"),
  ];
  const cases: readonly (readonly [string, () => Promise<string>, Outcome])[] = [
    [
      "an escalation boundary on Work, which nothing in Work throws: never fires",
      () => escalatedWork([...reviewIn(), chain("WS", "Review", "WE")]),
      ALLOWED,
    ],
    [
      "an escalation throw in Work with another escalation code: does not reach OnLate",
      () =>
        escalatedWork([
          ...reviewIn(event("intermediateThrowEvent", "Warn", LATE.replace("Late", "Other"))),
          chain("WS", "Warn", "Review", "WE"),
        ]),
      ALLOWED,
    ],
    [
      "an error boundary on a sub-process that holds neither a task nor an error end: never fires",
      () =>
        doc(
          startEvent("S"),
          agent("A"),
          subProcess("Wait", [
            startEvent("WS"),
            event("intermediateCatchEvent", "Day", TIMER),
            endEvent("WE"),
            ...chain("WS", "Day", "WE"),
          ]),
          boundary("Failed", "Wait", ERROR),
          endEvent("Gone"),
          gate("Review"),
          endEvent("E"),
          chain("S", "A", "Wait", "Review", "E"),
          chain("Failed", "Gone"),
        ),
      ALLOWED,
    ],
    ...(["intermediateThrowEvent", "endEvent"] as const).map(
      (tag) =>
        [
          `an error boundary on a sub-process whose message ${tag === "endEvent" ? "end" : "throw"} event runs as a job, which may fail`,
          () =>
            doc(
              startEvent("S"),
              agent("A"),
              subProcess("Notify", [
                startEvent("NS"),
                event(tag, "Send", MESSAGE),
                ...(tag === "endEvent"
                  ? chain("NS", "Send")
                  : [endEvent("NE"), ...chain("NS", "Send", "NE")]),
              ]),
              boundary("Rejected", "Notify", ERROR),
              endEvent("Gone"),
              gate("Review"),
              endEvent("E"),
              chain("S", "A", "Notify", "Review", "E"),
              chain("Rejected", "Gone"),
            ),
          BLOCKED(["A", "Notify", "Rejected", "Gone"]),
        ] as const,
    ),
    ...[false, true].map(
      (thrown) =>
        [
          `a non-interrupting escalation event sub-process in Wait ending in an uncaught error, ${thrown ? "which a throw in Wait reaches" : "which nothing in Wait throws"}`,
          () =>
            doc(
              startEvent("S"),
              agent("A"),
              subProcess("Wait", [
                startEvent("WS"),
                thrown ? event("intermediateThrowEvent", "Warn", LATE) : task("Idle"),
                endEvent("WE"),
                ...chain("WS", thrown ? "Warn" : "Idle", "WE"),
                subProcess(
                  "OnLate",
                  [
                    element("startEvent", "LateStart", {
                      attrs: { isInterrupting: "false" },
                      children: [
                        '<bpmn:escalationEventDefinition id="LateStart_def" escalationRef="Late" />',
                      ],
                    }),
                    event("endEvent", "Boom", ERROR),
                    ...chain("LateStart", "Boom"),
                  ],
                  { triggeredByEvent: true },
                ),
              ]),
              gate("Review"),
              endEvent("E"),
              chain("S", "A", "Wait", "Review", "E"),
            ),
          thrown ? BLOCKED(["A", "Wait", "WS", "Warn", "LateStart", "Boom"]) : ALLOWED,
        ] as const,
    ),
    [
      "an escalation thrown in Work on a choice before Review: OnLate interrupts Work",
      () =>
        escalatedWork([
          ...reviewIn(exclusiveGateway("Choose"), event("intermediateThrowEvent", "Warn", LATE)),
          endEvent("Warned"),
          chain("WS", "Choose", "Review", "WE"),
          chain("Choose", "Warn", "Warned"),
        ]),
      BLOCKED(["A", "Work", "WS", "Choose", "Warn", "OnLate", "Skip", "Skipped"]),
    ],
    [
      "an escalation thrown on the only way to Review: OnLate interrupts Work, Review never runs",
      () =>
        escalatedWork([
          ...reviewIn(event("intermediateThrowEvent", "Warn", LATE)),
          chain("WS", "Warn", "Review", "WE"),
        ]),
      {
        gate: "missing",
        status: "missing",
        allowed: false,
        codes: ["AGENT_GATE_UNREACHABLE"],
      },
    ],
    [
      "a call activity in Work: the called process may escalate while Work runs",
      () =>
        escalatedWork([
          ...reviewIn(element("callActivity", "Fetch", { attrs: { calledElement: "Fetch" } })),
          chain("WS", "Fetch", "Review", "WE"),
        ]),
      BLOCKED(["A", "Work", "OnLate", "Skip", "Skipped"]),
    ],
    [
      "a timer boundary on Work: a timer fires whenever Work runs",
      () => escalatedWork([...reviewIn(), chain("WS", "Review", "WE")], TIMER),
      BLOCKED(["A", "Work", "OnLate", "Skip", "Skipped"]),
    ],
  ];
  it.each(cases)("%s", async (_, xml, expected) => {
    expect(await outcome(await xml())).toEqual(expected);
  });
});

describe("at scale", () => {
  /**
   * A → n blocks → Review → choice → (End | terminate): parallel blocks a join closes, or gates
   * with a reminder each (a non-interrupting timer to a plain end), which nothing joins again.
   */
  function blocks(n: number, joined: boolean): string {
    const parts = [startEvent("S"), agent("A"), flow("S", "A")];
    let last = "A";
    for (let i = 0; i < n; i++) {
      if (joined) {
        parts.push(
          parallelGateway(`F${i}`),
          task(`X${i}`),
          task(`Y${i}`),
          parallelGateway(`J${i}`),
        );
        parts.push(...chain(last, `F${i}`, `X${i}`, `J${i}`), ...chain(`F${i}`, `Y${i}`, `J${i}`));
        last = `J${i}`;
      } else {
        parts.push(gate(`G${i}`), boundary(`R${i}`, `G${i}`, TIMER, false), endEvent(`E${i}`));
        parts.push(flow(last, `G${i}`), flow(`R${i}`, `E${i}`));
        last = `G${i}`;
      }
    }
    parts.push(gate("Review"), exclusiveGateway("Q"), endEvent("End"));
    parts.push(event("endEvent", "Stop", TERMINATE), ...chain(last, "Review", "Q", "End"));
    parts.push(flow("Q", "Stop"));
    return [
      `<bpmn:definitions xmlns:bpmn="${BPMN_NS}" xmlns:btv="${BTV_NS}" id="D" targetNamespace="x">`,
      processElement("P", ...parts),
      "</bpmn:definitions>",
    ].join("\n");
  }

  it("3,000 parallel blocks in a row: each join closes its block, the terminate after Review cancels nothing", async () => {
    expect(await outcome(blocks(3000, true))).toEqual(ALLOWED);
  }, 60_000);

  it("a join with 2,500 incoming flows, released one round at a time, is judged within the budget", async () => {
    // A → Review → Fork → (X0 → ladder), (Xb → Join → Stop). Rung i: X_i → K_i+1 and
    // X_i → Y_i → K_i+1, a join that releases one round after the last, and X_i → s_i → Join.
    // Join is judged again each round; counting its flows of their own as they change keeps
    // each judgement at its branches, not its 2,500 flows.
    const n = 2500;
    const parts: (string | readonly string[])[] = [
      startEvent("S"),
      agent("A"),
      gate("Review"),
      parallelGateway("Fork"),
      exclusiveGateway("X0"),
      task("Xb"),
      parallelGateway("Join"),
      event("endEvent", "Stop", TERMINATE),
      chain("S", "A", "Review", "Fork", "X0"),
      chain("Fork", "Xb", "Join", "Stop"),
    ];
    for (let i = 0; i < n; i++) {
      parts.push(parallelGateway(`K${i + 1}`), task(`Y${i}`), exclusiveGateway(`X${i + 1}`));
      parts.push(task(`s${i}`), flow(`X${i}`, `K${i + 1}`));
      parts.push(
        chain(`X${i}`, `Y${i}`, `K${i + 1}`, `X${i + 1}`),
        chain(`X${i}`, `s${i}`, "Join"),
      );
    }
    const xml = [
      `<bpmn:definitions xmlns:bpmn="${BPMN_NS}" xmlns:btv="${BTV_NS}" id="D" targetNamespace="x">`,
      processElement("P", ...parts),
      "</bpmn:definitions>",
    ].join("\n");
    expect(await outcome(xml)).toEqual(ALLOWED);
  }, 60_000);

  it("past the work budget, every node of the scope may be cancelled by its terminate (stricter)", async () => {
    // Each gate splits off its reminder, and its own branch runs to the end of the process:
    // 200 are read exactly, 4,000 would take work quadratic in the size. The budget runs out
    // from about 900 gates on, so 4,000 are far past it; more would only add parsing time.
    expect(await outcome(blocks(200, false))).toEqual(ALLOWED);
    expect(await outcome(blocks(4_000, false))).toEqual(BLOCKED(["A", "G0", "Stop"]));
  }, 60_000);
});

/**
 * An error or escalation code written as FEEL (`errorCode="=outcome"`, which Camunda 8 evaluates
 * when the event is thrown) is known only then: it may match any catcher, or none.
 */
describe("an error or escalation whose code is computed", () => {
  /** `S → A → Work → Review → Disburse → E`; Work throws `thrown`, caught on Work by `catchers`. */
  async function thrownFromWork(kind: "error" | "escalation", code: string): Promise<string> {
    const tag = kind === "error" ? "errorEventDefinition" : "escalationEventDefinition";
    const ref = kind === "error" ? "errorRef" : "escalationRef";
    const def = (id: string): string => `<bpmn:${tag} ${ref}="${id}" />`;
    const codeName = kind === "error" ? "errorCode" : "escalationCode";
    return withDiagram(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        `<bpmn:definitions xmlns:bpmn="${BPMN_NS}" xmlns:btv="${BTV_NS}" id="Defs" targetNamespace="https://example.com/test">`,
        `<bpmn:${kind} id="Thrown" name="Thrown" ${codeName}="${code}" />`,
        `<bpmn:${kind} id="Skip" name="Skip" ${codeName}="SKIP_REVIEW" />`,
        processElement(
          "P",
          startEvent("S"),
          agent("A"),
          subProcess("Work", [
            startEvent("WS"),
            exclusiveGateway("Outcome"),
            endEvent("Done"),
            event("endEvent", "Throw", def("Thrown")),
            chain("WS", "Outcome", "Done"),
            flow("Outcome", "Throw"),
          ]),
          // A catcher of SKIP_REVIEW skips the review; any other code goes to it.
          boundary("OnSkip", "Work", def("Skip")),
          boundary("OnAny", "Work", `<bpmn:${tag} />`),
          gate("Review"),
          task("Disburse"),
          endEvent("E"),
          chain("S", "A", "Work", "Review", "Disburse", "E"),
          flow("OnSkip", "Disburse"),
          flow("OnAny", "Review"),
        ),
        "</bpmn:definitions>",
      ].join("\n"),
    );
  }

  it.each(["error", "escalation"] as const)(
    "a computed %s code may be the one whose catcher skips the gate",
    async (kind) => {
      expect(await outcome(await thrownFromWork(kind, "=outcome"))).toEqual(
        BLOCKED(["A", "Work", "WS", "Outcome", "Throw", "OnSkip", "Disburse", "E"]),
      );
      // The same code written out is caught by the catch-all, on the way to the review.
      expect(await outcome(await thrownFromWork(kind, "OTHER"))).toEqual(ALLOWED);
      expect(await outcome(await thrownFromWork(kind, "SKIP_REVIEW"))).toMatchObject({
        allowed: false,
      });
    },
  );
});

describe("an intermediate escalation throw event", () => {
  /**
   * `S → A → Work → next → E`; in Work, `WS → Raise`, and `Raise → Done` when the token goes on;
   * OnLate, an interrupting catcher of LATE on Work, leads to `caught` (a gate or an end).
   */
  async function raised(
    code: string,
    goesOn: boolean,
    next: "Disburse" | "Review",
    caught: "Approve" | "Stopped",
  ) {
    const node = (id: string): string =>
      id === "Disburse" ? task(id) : id === "Stopped" ? endEvent(id) : gate(id);
    return withDiagram(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        `<bpmn:definitions xmlns:bpmn="${BPMN_NS}" xmlns:btv="${BTV_NS}" id="Defs" targetNamespace="https://example.com/test">`,
        `<bpmn:escalation id="Thrown" name="Thrown" escalationCode="${code}" />`,
        '<bpmn:escalation id="Late" name="Late" escalationCode="LATE" />',
        processElement(
          "P",
          startEvent("S"),
          agent("A"),
          subProcess("Work", [
            startEvent("WS"),
            event(
              "intermediateThrowEvent",
              "Raise",
              '<bpmn:escalationEventDefinition escalationRef="Thrown" />',
            ),
            ...(goesOn ? [endEvent("Done"), flow("Raise", "Done")] : []),
            flow("WS", "Raise"),
          ]),
          boundary("OnLate", "Work", '<bpmn:escalationEventDefinition escalationRef="Late" />'),
          node(next),
          endEvent("E"),
          node(caught),
          ...(caught === "Approve" ? [endEvent("Approved"), flow("Approve", "Approved")] : []),
          chain("S", "A", "Work", next, "E"),
          flow("OnLate", caught),
        ),
        "</bpmn:definitions>",
      ].join("\n"),
    );
  }

  it("with a computed code may be caught by none of its catchers, and goes on past them", async () => {
    expect(await outcome(await raised("=code", true, "Disburse", "Approve"))).toEqual(
      BLOCKED(["A", "Work", "WS", "Raise", "Done", "Disburse", "E"]),
    );
    // The code written out is always caught, by a catcher that interrupts Work.
    expect(await outcome(await raised("LATE", true, "Disburse", "Approve"))).toEqual(ALLOWED);
  });

  it("with no flow on, caught by a catcher that interrupts, never completes its scope", async () => {
    // Work never completes, so Review after it never runs: no path from A enters a gate.
    expect(await outcome(await raised("LATE", false, "Review", "Stopped"))).toMatchObject({
      gate: "missing",
      allowed: false,
    });
  });
});

describe("a complex gateway as the join", () => {
  /** `S → Work → Disburse → E`; in Work, A → Review on one branch, Wait on the other, then stop. */
  const forked = (join: string): Promise<string> =>
    doc(
      startEvent("S"),
      subProcess("Work", [
        startEvent("WS"),
        parallelGateway("Fork"),
        agent("A"),
        gate("Review"),
        task("Wait"),
        join,
        event("endEvent", "Stop", TERMINATE),
        chain("WS", "Fork", "A", "Review", "Join", "Stop"),
        chain("Fork", "Wait", "Join"),
      ]),
      task("Disburse"),
      endEvent("E"),
      chain("S", "Work", "Disburse", "E"),
    );

  it("closes no split: it may fire once Wait is done, and the terminate cancels Review", async () => {
    expect(await outcome(await forked(element("complexGateway", "Join", {})))).toMatchObject({
      allowed: false,
      codes: ["AGENT_GATE_BYPASS"],
    });
    // A parallel join waits for Review: the terminate comes after it.
    expect(await outcome(await forked(parallelGateway("Join")))).toEqual(ALLOWED);
  });
});

describe("a join that one branch can fill by itself", () => {
  it("closes no split: Wait's own split puts a token on both of Join's flows, and the terminate cancels Review", async () => {
    const xml = await work([
      startEvent("WS"),
      parallelGateway("Fork"),
      agent("A"),
      gate("Review"),
      exclusiveGateway("Merge"),
      task("Wait"),
      parallelGateway("Both"),
      parallelGateway("Join"),
      event("endEvent", "Stop", TERMINATE),
      ...chain("WS", "Fork", "A", "Review", "Merge", "Join", "Stop"),
      ...chain("Fork", "Wait", "Both", "Merge"),
      flow("Both", "Join"),
    ]);
    expect(await outcome(xml)).toEqual(BLOCKED(["A", "Review", "Stop", "Disburse", "E"]));
  });

  it("closes the split when Wait's own split is joined first: ALLOWED", async () => {
    const xml = await work([
      startEvent("WS"),
      parallelGateway("Fork"),
      agent("A"),
      gate("Review"),
      task("Wait"),
      parallelGateway("Both"),
      task("Left"),
      task("Right"),
      parallelGateway("BothDone"),
      parallelGateway("Join"),
      event("endEvent", "Stop", TERMINATE),
      ...chain("WS", "Fork", "A", "Review", "Join", "Stop"),
      ...chain("Fork", "Wait", "Both", "Left", "BothDone", "Join"),
      ...chain("Both", "Right", "BothDone"),
    ]);
    expect(await outcome(xml)).toEqual(ALLOWED);
  });

  it("an inclusive join closes no split whose branch can turn away from it: it fires on Wait alone", async () => {
    // Choose sends A's token to Review and on to an end, never to Join: the inclusive join then
    // waits for nothing more than Wait, and the terminate after it cancels the pending Review.
    const xml = await work([
      startEvent("WS"),
      parallelGateway("Fork"),
      agent("A"),
      exclusiveGateway("Choose"),
      gate("Review"),
      endEvent("WE"),
      gate("Second"),
      element("inclusiveGateway", "Join", {}),
      task("Wait"),
      event("endEvent", "Stop", TERMINATE),
      ...chain("WS", "Fork", "A", "Choose", "Review", "WE"),
      ...chain("Choose", "Second", "Join", "Stop"),
      ...chain("Fork", "Wait", "Join"),
    ]);
    expect(await outcome(xml)).toEqual(BLOCKED(["A", "Choose", "Stop", "Disburse", "E"]));
    // As a parallel join it waits for A's branch, which then never comes: nothing is cancelled.
    expect(await outcome(xml.replace(/inclusiveGateway/g, "parallelGateway"))).toEqual(ALLOWED);
  });

  it("an inclusive join every branch must come to closes the split: ALLOWED", async () => {
    const xml = await work([
      startEvent("WS"),
      parallelGateway("Fork"),
      agent("A"),
      gate("Review"),
      element("inclusiveGateway", "Join", {}),
      task("Wait"),
      event("endEvent", "Stop", TERMINATE),
      ...chain("WS", "Fork", "A", "Review", "Join", "Stop"),
      ...chain("Fork", "Wait", "Join"),
    ]);
    expect(await outcome(xml)).toEqual(ALLOWED);
  });

  it("a join inside a branch closes no split because a loop reaches it again after the split's join", async () => {
    // Work loops: Join → Again → Loop → Fork. Check's own join, Checked, is reached by A's branch
    // only through Join and the loop, on a later round: the terminate after it may end Work while
    // Review runs.
    const xml = await work([
      startEvent("WS"),
      exclusiveGateway("Loop"),
      parallelGateway("Fork"),
      agent("A"),
      gate("Review"),
      parallelGateway("Check"),
      task("Left"),
      task("Right"),
      parallelGateway("Checked"),
      exclusiveGateway("Decide"),
      event("endEvent", "Stop", TERMINATE),
      parallelGateway("Join"),
      exclusiveGateway("Again"),
      endEvent("WE"),
      ...chain("WS", "Loop", "Fork", "A", "Review", "Join", "Again", "WE"),
      ...chain("Fork", "Check", "Left", "Checked", "Decide", "Join"),
      ...chain("Check", "Right", "Checked"),
      flow("Decide", "Stop"),
      flow("Again", "Loop"),
    ]);
    expect(await outcome(xml)).toEqual(BLOCKED(["A", "Review", "Stop", "Disburse", "E"]));
  });
});

describe("a non-interrupting boundary event that may fire again", () => {
  /** `S → Hold → Join → Stop (terminate)`; on Hold, `Tick` → A → Review → Join. */
  const ticking = (timer: string): Promise<string> =>
    doc(
      startEvent("S"),
      task("Hold"),
      boundary("Tick", "Hold", timer, false),
      agent("A"),
      gate("Review"),
      parallelGateway("Join"),
      event("endEvent", "Stop", TERMINATE),
      chain("S", "Hold", "Join", "Stop"),
      chain("Tick", "A", "Review", "Join"),
    );

  it("a cycle starts A again: Join fires on the first Review, the terminate cancels the second", async () => {
    const cycle =
      "<bpmn:timerEventDefinition><bpmn:timeCycle>R/PT1H</bpmn:timeCycle></bpmn:timerEventDefinition>";
    expect(await outcome(await ticking(cycle))).toEqual(BLOCKED(["A", "Review", "Stop"]));
  });

  it("a duration fires once: Join waits for its one Review, ALLOWED", async () => {
    const duration =
      "<bpmn:timerEventDefinition><bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition>";
    expect(await outcome(await ticking(duration))).toEqual(ALLOWED);
  });
});

describe("a compensation handler", () => {
  it("ends where its sub-process completes: a path in it past its gate is a bypass", async () => {
    const handler = element("subProcess", "Refund", {
      attrs: { isForCompensation: "true" },
      children: [
        startEvent("RS"),
        agent("A"),
        exclusiveGateway("Big"),
        gate("Review"),
        task("Pay"),
        endEvent("RE"),
        ...chain("RS", "A", "Big", "Review", "Pay", "RE"),
        flow("Big", "Pay"),
      ],
    });
    const xml = await doc(
      startEvent("S"),
      task("Charge"),
      boundary("OnUndo", "Charge", "<bpmn:compensateEventDefinition />"),
      handler,
      event("intermediateThrowEvent", "Undo", "<bpmn:compensateEventDefinition />"),
      endEvent("E"),
      chain("S", "Charge", "Undo", "E"),
      '<bpmn:association id="Handles" associationDirection="One" sourceRef="OnUndo" targetRef="Refund" />',
    );
    expect(await outcome(xml)).toEqual(BLOCKED(["A", "Big", "Pay", "RE"]));
  });
});
