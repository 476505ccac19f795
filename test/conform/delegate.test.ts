/**
 * Delegation: a run nested in another run (a nested `invoke_agent` span) is a delegation by the
 * step it ran under, which the caller's approved workflow must permit with a `delegate` edge from
 * that step's node (from any node when it ran under no step) to the delegate's workflow. The
 * delegate's own run is checked against its own workflow; a delegate edge is a permission, never
 * a step a run must take.
 */
import { describe, expect, it } from "vitest";
import type {
  DelegateEvent,
  DeviationClass,
  RunEvent,
  UnverifiedReason,
} from "../../src/conform/index.js";
import { deviationMessage } from "../../src/conform/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import {
  approvedOf,
  check,
  readOtlp,
  request,
  researchRun,
  researchWith,
  span,
  TRACE,
} from "./read/otlp-spans.js";
import { research } from "./research.js";

const FROM_TOOL = researchWith({ from: "tool-2", to: "agnt-verify@1.0.0", edgeType: "delegate" });

let index = 0;
const at = () => ({ index: index++ });

/** A conforming research run `r`, with `delegations` after its tool step. */
function run(...delegations: Omit<DelegateEvent, "kind" | "run" | "at">[]): RunEvent[] {
  return [
    { kind: "run-start", run: "r", workflow: "agnt-rsch@2.1.0", time: 0, at: at() },
    {
      kind: "step",
      run: "r",
      nodeType: "llm",
      node: "llm-1",
      status: "ok",
      output: { is_complete: true, query: "q" },
      identity: { model: "gpt-4o" },
      // What the template's budget limits: a run that records neither is unverified.
      tokens: 100,
      cost: { USD: 0.01 },
      at: at(),
    },
    {
      kind: "step",
      run: "r",
      nodeType: "tool",
      node: "tool-2",
      status: "ok",
      args: { query: "q" },
      at: at(),
    },
    ...delegations.map((d): RunEvent => ({ kind: "delegate", run: "r", ...d, at: at() })),
    { kind: "run-end", run: "r", status: "completed", at: at() },
  ];
}

interface Case {
  readonly name: string;
  readonly workflow: AgentWorkflow;
  readonly events: () => RunEvent[];
  readonly verdict: "conforming" | "deviating" | "unverified";
  readonly deviations?: readonly (readonly [DeviationClass, string | undefined])[];
  readonly unverified?: readonly UnverifiedReason[];
}

const delegate = "t/d";
const cases: readonly Case[] = [
  {
    name: "a delegation the tool node's delegate edge permits",
    workflow: FROM_TOOL,
    events: () =>
      run({ delegate, workflow: "agnt-verify@1.0.0", step: { nodeType: "tool", node: "tool-2" } }),
    verdict: "conforming",
  },
  {
    name: "a delegation to a version the edge does not name",
    workflow: FROM_TOOL,
    events: () =>
      run({ delegate, workflow: "agnt-verify@2.0.0", step: { nodeType: "tool", node: "tool-2" } }),
    verdict: "deviating",
    deviations: [["TRANSITION_UNKNOWN", "tool-2"]],
  },
  {
    name: "a delegation from a node the edge does not start at",
    workflow: FROM_TOOL,
    events: () =>
      run({ delegate, workflow: "agnt-verify@1.0.0", step: { nodeType: "llm", node: "llm-1" } }),
    verdict: "deviating",
    deviations: [["TRANSITION_UNKNOWN", "llm-1"]],
  },
  {
    name: "a delegation by a step naming only its tool, whose node has the edge",
    workflow: FROM_TOOL,
    events: () =>
      run({
        delegate,
        workflow: "agnt-verify@1.0.0",
        step: { nodeType: "tool", tool: "tool:browser-search" },
      }),
    verdict: "conforming",
  },
  {
    name: "a delegation by an llm step naming no node, when no llm node has the edge",
    workflow: FROM_TOOL,
    events: () => run({ delegate, workflow: "agnt-verify@1.0.0", step: { nodeType: "llm" } }),
    verdict: "deviating",
    deviations: [["TRANSITION_UNKNOWN", undefined]],
  },
  {
    name: "a delegation by the run itself, which an edge from any node permits",
    workflow: FROM_TOOL,
    events: () => run({ delegate, workflow: "agnt-verify@1.0.0" }),
    verdict: "conforming",
  },
  {
    name: "a delegation by the run itself, in a workflow with no delegate edge",
    workflow: research,
    events: () => run({ delegate, workflow: "agnt-verify@1.0.0" }),
    verdict: "deviating",
    deviations: [["TRANSITION_UNKNOWN", undefined]],
  },
  {
    name: "an edge naming the delegate by an abbreviated version",
    workflow: researchWith({ from: "tool-2", to: "agnt-verify@1", edgeType: "delegate" }),
    events: () =>
      run({ delegate, workflow: "agnt-verify@1.0.0", step: { nodeType: "tool", node: "tool-2" } }),
    verdict: "conforming",
  },
  {
    name: "a delegate whose workflow cannot be told",
    workflow: FROM_TOOL,
    events: () => run({ delegate, step: { nodeType: "tool", node: "tool-2" } }),
    verdict: "unverified",
    unverified: ["EVENT_UNMAPPED"],
  },
  {
    name: "a delegate edge the run never takes",
    workflow: FROM_TOOL,
    events: () => run(),
    verdict: "conforming",
  },
];

describe("delegations against the approved workflow's delegate edges", () => {
  it("permits what a delegate edge permits, needs none taken, and checks the rest", () => {
    const seen = cases.map(({ name, workflow, events }) => {
      const result = check(approvedOf(workflow), events()).runs.find((r) => r.run === "r");
      return {
        name,
        verdict: result?.verdict,
        deviations: result?.deviations.map((d) => [d.class, d.node]),
        unverified: result?.unverified.map((u) => u.reason),
      };
    });
    expect(seen).toEqual(
      cases.map(({ name, verdict, deviations = [], unverified = [] }) => ({
        name,
        verdict,
        deviations,
        unverified,
      })),
    );
  });

  it("names the delegate, its run and the delegates the workflow permits", () => {
    const events = run({
      delegate,
      workflow: "agnt-verify@2.0.0",
      step: { nodeType: "tool", node: "tool-2" },
    });
    const deviation = check(approvedOf(FROM_TOOL), events).runs[0]?.deviations[0];
    expect(deviation && deviationMessage(deviation)).toBe(
      '"tool-2" delegated to agent agnt-verify@2.0.0 (run t/d), and no delegate edge of the workflow permits it from there (the delegates it permits there: agnt-verify@1.0.0)',
    );
  });
});

describe("delegations read from OTLP spans: a nested invoke_agent", () => {
  const outer = "00000000000000a0";
  const inner = "00000000000000b0";
  /** A conforming research run with a conforming agnt-verify run nested under `parent`. */
  function nested(parent: "agent" | "tool" | "http", innerWorkflow = "agnt-verify@1.0.0") {
    const caller = researchRun(outer);
    const http = span("00000000000000a9", String(caller.tool.spanId), [31, 39], {});
    const under =
      parent === "agent"
        ? outer
        : parent === "tool"
          ? String(caller.tool.spanId)
          : "00000000000000a9";
    const callee = researchRun(inner, innerWorkflow, under, 1000);
    // The delegate runs inside its caller's span; it ends first, as exporters write it.
    callee.agent.startTimeUnixNano = caller.tool.startTimeUnixNano;
    return request(
      callee.llm,
      callee.tool,
      callee.agent,
      http,
      caller.llm,
      caller.tool,
      caller.agent,
    );
  }

  const otlpCases = [
    {
      name: "under the caller's invoke_agent, with no delegate edge",
      workflow: research,
      parent: "agent" as const,
      caller: ["deviating", [["TRANSITION_UNKNOWN", undefined]]],
    },
    {
      name: "under the caller's tool step, with no delegate edge",
      workflow: research,
      parent: "tool" as const,
      caller: ["deviating", [["TRANSITION_UNKNOWN", "tool-2"]]],
    },
    {
      name: "under the tool step's HTTP span, which the tool node's edge permits",
      workflow: FROM_TOOL,
      parent: "http" as const,
      caller: ["conforming", []],
    },
    {
      name: "under the caller's invoke_agent, which the tool node's edge permits",
      workflow: FROM_TOOL,
      parent: "agent" as const,
      caller: ["conforming", []],
    },
  ];

  it("reads a nested run as its caller's delegation, by the step it ran under", () => {
    const seen = otlpCases.map(({ name, workflow, parent }) => {
      const report = check(approvedOf(workflow), readOtlp([nested(parent)]));
      const byRun = new Map(report.runs.map((r) => [r.run.split("/")[1], r]));
      const found = byRun.get(outer);
      return {
        name,
        delegate: byRun.get(inner)?.verdict,
        // run-start, llm-1, the delegation, tool-2, run-end
        events: found?.events,
        caller: [found?.verdict, found?.deviations.map((d) => [d.class, d.node])],
        at: found?.deviations.map((d) => d.at.ids?.spanId),
      };
    });
    expect(seen).toEqual(
      otlpCases.map(({ name, caller }) => ({
        name,
        delegate: "conforming",
        events: 5,
        caller,
        at: caller[0] === "deviating" ? [inner] : [],
      })),
    );
  });

  it("leaves the caller unverified when the delegate names no workflow it can read", () => {
    const raw = nested("tool", "");
    const report = check(approvedOf(FROM_TOOL), readOtlp([raw]));
    const caller = report.runs.find((r) => r.run === `${TRACE}/${outer}`);
    expect(caller?.verdict).toBe("unverified");
    expect(caller?.unverified.map((u) => [u.reason, u.node, u.at?.ids?.spanId])).toEqual([
      ["EVENT_UNMAPPED", "tool-2", inner],
    ]);
  });

  it("reads the delegation when the delegate's span ends after its caller's", () => {
    const caller = researchRun(outer);
    const callee = researchRun(inner, "agnt-verify@1.0.0", outer, 10);
    callee.agent.endTimeUnixNano = String(BigInt(String(caller.agent.endTimeUnixNano)) + 1n);
    const events = readOtlp([
      request(caller.llm, caller.tool, caller.agent, callee.llm, callee.tool, callee.agent),
    ]);
    const report = check(approvedOf(research), events);
    expect(report.runs.map((r) => [r.run.split("/")[1], r.verdict])).toEqual([
      [outer, "deviating"],
      [inner, "conforming"],
    ]);
  });

  it("says a delegate that arrives after its caller was read, never drops it", () => {
    const caller = researchRun(outer);
    const callee = researchRun(inner, "agnt-verify@1.0.0", outer, 10);
    const late = Array.from({ length: 70 }, () => request());
    const events = readOtlp([
      request(caller.llm, caller.tool, caller.agent),
      ...late,
      request(callee.llm, callee.tool, callee.agent),
    ]);
    const report = check(approvedOf(research), events);
    expect(report.unmapped.first.map((u) => [u.run, u.at.ids?.spanId])).toEqual([
      [`${TRACE}/${outer}`, inner],
    ]);
    expect(report.summary.conforming).toBe(2);
  });
});
