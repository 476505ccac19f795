/**
 * What a process instance's records can and cannot show. A record whose element type is not
 * the approved element's is of another version of the process: it deviates and passes no gate.
 * Records that do not show when an agent task began (its activation missing, or the records
 * beginning after the instance did) leave its gate check unverified (`START_UNRECORDED`), the
 * mirror of `RUN_UNFINISHED` for records that end early.
 */
import { describe, expect, it } from "vitest";
import type { ApprovedModel, ElementEvent, RunEvent } from "../../src/conform/index.js";
import { createConformanceChecker, unverifiedMessage } from "../../src/conform/index.js";
import { research, search } from "./research.js";

const model: ApprovedModel = {
  workflows: [
    {
      ref: "agnt-rsch@2.1.0",
      workflow: research,
      tools: new Map([["tool:browser-search@1.2.0", search("write-irreversible", "gate")]]),
    },
  ],
  processes: [
    {
      processIds: ["claims"],
      elements: new Set(["start", "agent", "approve", "pay", "end"]),
      elementTypes: new Map([
        ["start", ["START_EVENT"]],
        ["agent", ["SERVICE_TASK", "MULTI_INSTANCE_BODY"]],
        ["approve", ["USER_TASK", "MULTI_INSTANCE_BODY"]],
        ["pay", ["SERVICE_TASK"]],
        ["end", ["END_EVENT"]],
      ]),
      tasks: [
        { elementId: "agent", workflow: "agnt-rsch@2.1.0", gateRequired: true, gates: ["approve"] },
      ],
    },
  ],
};

/** `element:state:TYPE` records of instance 7 of claims, in order (`claims` is the process). */
function records(...specs: string[]): ElementEvent[] {
  return specs.map((spec, index) => {
    const [element = "", state = "", type] = spec.split(":");
    return {
      kind: "element",
      instance: "7",
      process: "claims",
      element,
      elementType: type ?? (element === "claims" ? "PROCESS" : "SERVICE_TASK"),
      state: state as ElementEvent["state"],
      at: { index },
    };
  });
}

function check(events: readonly RunEvent[]) {
  const checker = createConformanceChecker(model);
  for (const event of events) checker.push(event);
  return checker.end();
}

const cases: {
  name: string;
  events: ElementEvent[];
  /** Each finding of the instance: class or reason, element, record index. */
  findings: [string, string | undefined, number | undefined][];
}[] = [
  {
    name: "a gate completed as another element type is another version and passes nothing",
    events: records(
      "claims:activated",
      "agent:activated",
      "agent:completed",
      "approve:activated:SERVICE_TASK",
      "approve:completed:SERVICE_TASK",
      "claims:completed",
    ),
    findings: [
      ["VERSION_UNAPPROVED", "approve", 3],
      ["GATE_MISSING", "agent", 5],
    ],
  },
  {
    name: "a record of the process type for another element neither ends the instance nor passes",
    events: records(
      "claims:activated",
      "agent:activated",
      "approve:completed:PROCESS",
      "agent:completed",
      "approve:completed:USER_TASK",
      "claims:completed",
    ),
    findings: [["VERSION_UNAPPROVED", "approve", 2]],
  },
  {
    name: "an agent task whose activation is missing, with no gate after it, is unverified",
    events: records(
      "claims:activated",
      "agent:completed",
      "pay:activated",
      "pay:completed",
      "claims:completed",
    ),
    findings: [["START_UNRECORDED", "agent", 1]],
  },
  {
    name: "records beginning at the task's completion, with no gate after it, are unverified",
    events: records("agent:completed", "pay:completed", "claims:completed"),
    findings: [["START_UNRECORDED", "agent", 0]],
  },
  {
    name: "a gate before the first record of a task whose activation is missing is not placed",
    events: records(
      "claims:activated",
      "approve:completed:USER_TASK",
      "agent:completed",
      "claims:completed",
    ),
    findings: [["START_UNRECORDED", "agent", 2]],
  },
  {
    name: "records beginning after the instance did, showing neither the task nor a gate, are unverified",
    events: records(
      "pay:activated",
      "pay:completed",
      "end:completed:END_EVENT",
      "claims:completed",
    ),
    findings: [["START_UNRECORDED", "agent", 0]],
  },
  {
    name: "a gate decided on a span of its own is no record of another type, nor where the records begin",
    events: records(
      "approve:terminated:GATE",
      "pay:activated",
      "pay:completed",
      "claims:completed",
    ),
    findings: [["START_UNRECORDED", "agent", 1]],
  },
  {
    name: "gate spans alone are no records of the instance: a task they do not show is not asked for",
    events: records("approve:completed:GATE"),
    findings: [],
  },
  {
    name: "a task shown only by its completion passes with a multi-instance gate after it; another type deviates alone",
    events: records(
      "agent:completed",
      "approve:activated:MULTI_INSTANCE_BODY",
      "approve:activated:USER_TASK",
      "approve:completed:USER_TASK",
      "approve:completed:MULTI_INSTANCE_BODY",
      "pay:completed:USER_TASK",
      "claims:completed",
    ),
    findings: [["VERSION_UNAPPROVED", "pay", 5]],
  },
  {
    name: "a multi-instance agent task began with its body, and a gate of another type passes nothing",
    events: records(
      "claims:activated",
      "agent:activated:MULTI_INSTANCE_BODY",
      "agent:activated",
      "agent:completed",
      "agent:completed:MULTI_INSTANCE_BODY",
      "approve:completed:SERVICE_TASK",
      "claims:completed",
    ),
    findings: [
      ["VERSION_UNAPPROVED", "approve", 5],
      ["GATE_MISSING", "agent", 6],
    ],
  },
];

describe("process instance records", () => {
  it.each(cases)("$name", ({ events, findings }) => {
    const instance = check(events).instances[0];
    const found = [...(instance?.deviations ?? []), ...(instance?.unverified ?? [])];
    expect(found.map((f) => ["class" in f ? f.class : f.reason, f.node, f.at?.index])).toEqual(
      findings,
    );
  });

  it("says which beginning the records lack", () => {
    const [seen, unseen] = [
      records("claims:activated", "agent:completed", "claims:completed"),
      records("pay:completed", "claims:completed"),
    ].map((events) => check(events).instances[0]?.unverified[0]);
    expect(unverifiedMessage(seen ?? { reason: "START_UNRECORDED", data: {} })).toBe(
      'the records of process instance 7 show agent task "agent" ran but not when it began (no activation record before its completion), and no gate the task requires (approve) completed after that, so whether one was passed after it began cannot be seen',
    );
    expect(unverifiedMessage(unseen ?? { reason: "START_UNRECORDED", data: {} })).toBe(
      'the records of process instance 7 begin after it did (no activation of the process itself) and show neither agent task "agent" nor a gate it requires (approve), so whether the task ran before them and passed a gate cannot be seen',
    );
  });

  it("does not count a gate completed as another type for a gated tool's run", () => {
    const run: RunEvent[] = [
      {
        kind: "run-start",
        run: "r",
        workflow: "agnt-rsch@2.1.0",
        process: { instance: "7", element: "agent", process: "claims" },
        at: { index: 100 },
      },
      {
        kind: "step",
        run: "r",
        nodeType: "llm",
        node: "llm-1",
        status: "ok",
        output: { is_complete: true },
        identity: { model: "gpt-4o" },
        at: { index: 101 },
      },
      {
        kind: "step",
        run: "r",
        nodeType: "tool",
        tool: "tool:browser-search",
        status: "ok",
        output: {},
        args: { query: "q" },
        at: { index: 102 },
      },
      { kind: "run-end", run: "r", status: "completed", at: { index: 103 } },
    ];
    const report = check([
      ...records("claims:activated", "agent:activated"),
      ...run,
      ...records("agent:completed", "approve:completed:SCRIPT_TASK", "claims:completed"),
    ]);
    expect(report.runs[0]?.deviations.map((d) => [d.class, d.node])).toEqual([
      ["GATE_NOT_PASSED", "tool-2"],
    ]);
    expect(report.summary.ok).toBe(false);
  });
});
