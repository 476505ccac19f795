/**
 * A span's own fields that decide a verdict — its start and end times (ordering, wall time) and
 * its status (a failed step) — read as OTLP writes them, and never guessed when they cannot be:
 * the span keeps its step, and its run gets a record not read (EVENT_UNMAPPED) naming the field
 * and what it holds, so it is unverified at least, never conforming.
 */
import { describe, expect, it } from "vitest";
import type { RunEvent, RunVerdict } from "../../../src/conform/index.js";
import {
  approvedOf,
  check,
  longBits,
  nanos,
  readOtlp,
  request,
  researchRun,
  span,
  TRACE,
  without,
} from "./otlp-spans.js";

const AGENT = "00000000000000a0";
const RUN = `${TRACE}/${AGENT}`;
const ms = (offset: number): number => 1_767_225_600_000 + offset;

const reasons = (events: readonly RunEvent[]): string[] =>
  events.flatMap((e) => (e.kind === "unknown" ? [e.reason] : []));

/** Verdict, deviation classes and unverified reasons of the one run of `events`. */
function verdictOf(events: readonly RunEvent[]): [RunVerdict | undefined, string[], string[]] {
  const result = check(approvedOf(), events).runs.find((r) => r.run === RUN);
  return [
    result?.verdict,
    result?.deviations.map((d) => d.class) ?? [],
    result?.unverified.map((u) => u.reason) ?? [],
  ];
}

const ISO = "2026-01-01T00:00:00.035Z";
const UNSAFE = 1767225600035000000;

describe("otlp span times: read when recorded readably, else a record not read", () => {
  // llm-1 recorded as starting at 35 ms, after tool-2 (30–40 ms): read, the run deviates. Its end
  // (36 ms) stays readable, so the span is placed at its end when its start cannot be read.
  const cases: readonly (readonly [string, unknown, number | undefined, string | undefined])[] = [
    ["a decimal string", nanos(35), ms(35), undefined],
    ["{low, high}, as the OpenTelemetry JS toLongBits writes it", longBits(35), ms(35), undefined],
    ["a protobufjs Long", { ...longBits(35), unsigned: true }, ms(35), undefined],
    ["absent", undefined, undefined, "the span's startTimeUnixNano is absent"],
    ["0", "0", undefined, "the span's startTimeUnixNano is 0 (unset)"],
    ["negative", "-5", undefined, "the span's startTimeUnixNano is negative (-5)"],
    [
      "ISO text",
      ISO,
      undefined,
      `the span's startTimeUnixNano is the text "${ISO}", not an integer`,
    ],
    [
      "a number past 2^53",
      UNSAFE,
      undefined,
      "the span's startTimeUnixNano is the number 1767225600035000000, past 2^53: its nanoseconds were rounded",
    ],
    [
      "an object with other keys",
      { low: 1, high: 2, seconds: 3 },
      undefined,
      "the span's startTimeUnixNano is an object that is not a {low, high} 64-bit integer",
    ],
    ["a list", [nanos(35)], undefined, "the span's startTimeUnixNano is a list"],
  ];

  it("reads a step's start time, or says why not and keeps the step", () => {
    const seen = cases.map(([name, start]) => {
      const run = researchRun(AGENT);
      run.llm.endTimeUnixNano = nanos(36);
      const llm = start === undefined ? without(run.llm, "startTimeUnixNano") : run.llm;
      if (start !== undefined) llm.startTimeUnixNano = start;
      const events = readOtlp([request(llm, run.tool, run.agent)]);
      const step = events.find((e) => e.kind === "step" && e.node === "llm-1");
      return [name, step?.kind === "step" ? step.start : "no step", reasons(events)[0]];
    });
    expect(seen).toEqual(cases.map(([name, , start, reason]) => [name, start, reason]));
  });

  it("never lets a run whose order rests on an unread start conform", () => {
    const seen = cases.map(([name, start]) => {
      const run = researchRun(AGENT);
      run.llm.endTimeUnixNano = nanos(36);
      const llm = start === undefined ? without(run.llm, "startTimeUnixNano") : run.llm;
      if (start !== undefined) llm.startTimeUnixNano = start;
      return [name, verdictOf(readOtlp([request(llm, run.tool, run.agent)]))];
    });
    // tool-2 first: the run starts at a tool, and dec-3 then decides on no output of llm-1;
    // llm-1, read as starting at 35 ms, began before tool-2 (30–40 ms) ended.
    const deviations = ["TRANSITION_UNKNOWN", "TRANSITION_UNKNOWN"];
    const read = ["deviating", deviations, ["STEPS_OVERLAP", "ROUTE_UNDECIDABLE"]];
    const unread = ["deviating", deviations, ["EVENT_UNMAPPED", "ROUTE_UNDECIDABLE"]];
    expect(seen).toEqual(cases.map(([name, , , reason]) => [name, reason ? unread : read]));
  });

  it.each([
    {
      name: "a run-end time past maxWallTimeMs, as {low, high}",
      end: longBits(400_000),
      verdict: ["deviating", ["BUDGET_EXCEEDED"], []],
      reason: undefined,
    },
    {
      name: "no run-end time",
      end: undefined,
      verdict: ["unverified", [], ["EVENT_UNMAPPED"]],
      reason: "the span's endTimeUnixNano is absent",
    },
    {
      name: "a run-end time in ISO text",
      end: "2026-01-01T00:06:40.000Z",
      verdict: ["unverified", [], ["EVENT_UNMAPPED"]],
      reason: 'the span\'s endTimeUnixNano is the text "2026-01-01T00:06:40.000Z", not an integer',
    },
    {
      name: "a run-end time before the run's start",
      end: nanos(-1),
      verdict: ["unverified", [], ["EVENT_UNMAPPED"]],
      reason: "the span's endTimeUnixNano is before startTimeUnixNano",
    },
  ])("judges the wall time on no guessed time: $name", ({ end, verdict, reason }) => {
    const run = researchRun(AGENT);
    const agent = end === undefined ? without(run.agent, "endTimeUnixNano") : run.agent;
    if (end !== undefined) agent.endTimeUnixNano = end;
    const events = readOtlp([request(run.llm, run.tool, agent)]);
    expect(verdictOf(events)).toEqual(verdict);
    expect(reasons(events)).toEqual(reason === undefined ? [] : [reason]);
    expect(events[0]).toMatchObject({ kind: "run-start", run: RUN, time: ms(0) });
  });
});

describe("otlp span status: OTLP's codes, and nothing else read as one", () => {
  const codes = "(0, 1, 2, STATUS_CODE_UNSET, STATUS_CODE_OK or STATUS_CODE_ERROR)";
  const cases: readonly (readonly [unknown, "ok" | "error", string | undefined])[] = [
    [{ code: 2, message: "boom" }, "error", undefined],
    [{ code: "STATUS_CODE_ERROR" }, "error", undefined],
    [{ code: "2" }, "error", undefined],
    [{ code: 1 }, "ok", undefined],
    [{ code: "STATUS_CODE_UNSET" }, "ok", undefined],
    [{}, "ok", undefined],
    [null, "ok", undefined],
    [
      { code: "ERROR" },
      "ok",
      `the span's status.code is "ERROR", which is no OTLP status code ${codes}`,
    ],
    [{ code: 3 }, "ok", `the span's status.code is 3, which is no OTLP status code ${codes}`],
    [{ code: -1 }, "ok", `the span's status.code is -1, which is no OTLP status code ${codes}`],
    [
      { code: "STATUS_CODE_FAILED" },
      "ok",
      `the span's status.code is "STATUS_CODE_FAILED", which is no OTLP status code ${codes}`,
    ],
    [
      { code: { v: 2 } },
      "ok",
      `the span's status.code is an object, which is no OTLP status code ${codes}`,
    ],
    ["ERROR", "ok", `the span's status is "ERROR", not an OTLP Status object`],
    [[2], "ok", "the span's status is a list, not an OTLP Status object"],
  ];

  it("reads a step's status, or says why not and reads the step as succeeded", () => {
    const seen = cases.map(([status]) => {
      const run = researchRun(AGENT);
      run.tool.status = status;
      const events = readOtlp([request(run.llm, run.tool, run.agent)]);
      const step = events.find((e) => e.kind === "step" && e.node === "tool-2");
      return [status, step?.kind === "step" ? step.status : "no step", reasons(events)[0]];
    });
    expect(seen).toEqual(cases);
  });

  it("leaves a run whose step status cannot be read unverified, not conforming", () => {
    const seen = cases.map(([status]) => {
      const run = researchRun(AGENT);
      run.tool.status = status;
      return [status, verdictOf(readOtlp([request(run.llm, run.tool, run.agent)]))[0]];
    });
    expect(seen).toEqual(
      cases.map(([status, read, reason]) => [
        status,
        reason !== undefined ? "unverified" : read === "error" ? "deviating" : "conforming",
      ]),
    );
  });

  it("reads a gate whose status cannot be read as not passed, and says so", () => {
    const gate = span(
      "00000000000000c0",
      undefined,
      [0, 5],
      {
        "agentflow.gate.element": "approve",
        "agentflow.process.instance": "42",
        "agentflow.bpmn.process": "claims",
      },
      { status: { code: "OK" } },
    );
    expect(readOtlp([request(gate)])).toEqual([
      expect.objectContaining({ kind: "element", element: "approve", state: "terminated" }),
      expect.objectContaining({
        kind: "unknown",
        reason: `the span's status.code is "OK", which is no OTLP status code ${codes}`,
      }),
    ]);
  });
});
