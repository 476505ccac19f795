/**
 * The gate checks of process instances: a gate counts only when the records show it completed
 * after the agent task began, and an instance that has not ended before a required gate is
 * unverified, never conforming.
 */
import { describe, expect, it } from "vitest";
import type { ApprovedModel, ElementEvent, RunEvent } from "../../src/conform/index.js";
import { createConformanceChecker, unverifiedMessage } from "../../src/conform/index.js";
import { research, search } from "./research.js";

const gated = search("write-irreversible", "gate");
const model: ApprovedModel = {
  workflows: [
    {
      ref: "agnt-rsch@2.1.0",
      workflow: research,
      tools: new Map([["tool:browser-search@1.2.0", gated]]),
    },
  ],
  processes: [
    {
      processIds: ["claims"],
      elements: new Set(["start", "agent", "approve", "pay", "end"]),
      tasks: [
        { elementId: "agent", workflow: "agnt-rsch@2.1.0", gateRequired: true, gates: ["approve"] },
      ],
    },
  ],
};

let index = 0;
const element = (
  element: string,
  state: ElementEvent["state"],
  elementType = "SERVICE_TASK",
): ElementEvent => ({
  kind: "element",
  instance: "7",
  process: "claims",
  element,
  elementType,
  state,
  at: { index: index++ },
});
/** A run of the research workflow in instance 7's agent task, calling the gated tool. */
const agentRun = (): RunEvent[] => [
  {
    kind: "run-start",
    run: "r",
    workflow: "agnt-rsch@2.1.0",
    time: 0,
    process: { instance: "7", element: "agent" },
    at: { index: index++ },
  },
  {
    kind: "step",
    run: "r",
    nodeType: "llm",
    node: "llm-1",
    status: "ok",
    output: { is_complete: true },
    identity: { model: "gpt-4o" },
    // What the template's budget limits: a run that records neither is unverified.
    tokens: 100,
    cost: { USD: 0.01 },
    at: { index: index++ },
  },
  {
    kind: "step",
    run: "r",
    nodeType: "tool",
    tool: "tool:browser-search",
    status: "ok",
    output: {},
    args: { query: "q" },
    at: { index: index++ },
  },
  { kind: "run-end", run: "r", status: "completed", at: { index: index++ } },
];

function check(events: readonly RunEvent[]) {
  const checker = createConformanceChecker(model);
  for (const event of events) checker.push(event);
  return checker.end();
}

describe("gate checks of process instances", () => {
  it("does not count a gate as passed when the records do not show the task beginning", () => {
    index = 0;
    const report = check([
      element("claims", "activated", "PROCESS"),
      element("approve", "completed"),
      ...agentRun(),
      element("pay", "completed"),
      element("claims", "completed", "PROCESS"),
    ]);
    const run = report.runs[0];
    expect(run?.verdict).toBe("unverified");
    expect(run?.unverified.map((u) => [u.reason, u.node])).toEqual([["GATE_UNOBSERVED", "tool-2"]]);
    expect(unverifiedMessage(run?.unverified[0] ?? { reason: "GATE_UNOBSERVED", data: {} })).toBe(
      'tool "tool-2" needs a gate, and the records of process instance 7 do not show when task agent began, so whether a gate of it (approve) was passed after it cannot be seen',
    );
    expect(report.summary.ok).toBe(false);
  });

  it.each([
    [5_000, "conforming"],
    [500, "unverified"],
  ])(
    "without the task's activation, places a gate by its time against the run's start (gate at %d ms)",
    (time, verdict) => {
      index = 0;
      const report = check([
        element("claims", "activated", "PROCESS"),
        ...agentRun().map((e) => (e.kind === "run-start" ? { ...e, time: 1_000 } : e)),
        { ...element("approve", "completed"), time },
        element("claims", "completed", "PROCESS"),
      ]);
      expect(report.runs[0]?.verdict).toBe(verdict);
      expect(report.summary.ok).toBe(verdict === "conforming");
    },
  );

  it("still counts a gate completed after the task began as passed", () => {
    index = 0;
    const report = check([
      element("claims", "activated", "PROCESS"),
      element("agent", "activated"),
      ...agentRun(),
      element("approve", "completed"),
      element("pay", "completed"),
      element("claims", "completed", "PROCESS"),
    ]);
    expect(report.runs[0]?.verdict).toBe("conforming");
    expect(report.summary.ok).toBe(true);
  });

  it("calls an instance unverified when it has not ended and a task needing a gate has passed none", () => {
    index = 0;
    const report = check([
      element("claims", "activated", "PROCESS"),
      element("agent", "activated"),
    ]);
    const instance = report.instances[0];
    expect(instance?.deviations).toEqual([]);
    expect(instance?.unverified.map((u) => [u.reason, u.run, u.node, u.at?.index])).toEqual([
      ["RUN_UNFINISHED", "7", "agent", 1],
    ]);
    expect(
      unverifiedMessage(instance?.unverified[0] ?? { reason: "RUN_UNFINISHED", data: {} }),
    ).toBe(
      'the records of process instance 7 end before it does, after agent task "agent" began and before it passed a gate the task requires (approve)',
    );
    expect(report.summary.ok).toBe(false);
  });

  it("leaves an unfinished instance that has passed the gate open to nothing", () => {
    index = 0;
    const report = check([
      element("claims", "activated", "PROCESS"),
      element("agent", "activated"),
      element("approve", "completed"),
    ]);
    expect(report.instances[0]?.unverified).toEqual([]);
    expect(report.summary.ok).toBe(true);
  });

  // Zeebe keys repeat across clusters: an instance is its key and its process.
  const elsewhere = (e: ElementEvent): ElementEvent => ({ ...e, process: "other" });
  const linked = (process?: string): RunEvent[] =>
    agentRun().map((e) =>
      e.kind === "run-start"
        ? {
            ...e,
            process: {
              instance: "7",
              element: "agent",
              ...(process === undefined ? {} : { process }),
            },
          }
        : e,
    );
  it.each([
    {
      name: "a gate of another process's instance with the same key does not count",
      link: "claims",
      run: [["GATE_NOT_PASSED", "tool-2"]],
      instances: [
        ["claims", "GATE_MISSING"],
        ["other", "VERSION_UNAPPROVED"],
      ],
    },
    {
      name: "a run naming no process, where two processes hold its key, is unverified",
      link: undefined,
      run: [["GATE_UNOBSERVED", "tool-2"]],
      instances: [
        ["claims", "GATE_MISSING"],
        ["other", "VERSION_UNAPPROVED"],
      ],
    },
  ])("$name", ({ link, run, instances }) => {
    index = 0;
    const report = check([
      element("claims", "activated", "PROCESS"),
      element("agent", "activated"),
      ...linked(link),
      elsewhere(element("approve", "completed")),
      element("claims", "completed", "PROCESS"),
    ]);
    const result = report.runs[0];
    expect(
      [...(result?.deviations ?? []), ...(result?.unverified ?? [])].map((f) => [
        "class" in f ? f.class : f.reason,
        f.node,
      ]),
    ).toEqual(run);
    expect(report.instances.flatMap((i) => i.deviations.map((d) => [i.process, d.class]))).toEqual(
      instances,
    );
    expect(report.instances.map((i) => i.instance)).toEqual(["7", "7"]);
    if (link === undefined)
      expect(
        unverifiedMessage(result?.unverified[0] ?? { reason: "GATE_UNOBSERVED", data: {} }),
      ).toBe(
        'tool "tool-2" needs a gate, and records of process instance 7 are of several processes (claims, other), and the run names none (agentflow.bpmn.process), so which instance it ran in cannot be told',
      );
  });
});
