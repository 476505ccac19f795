import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ApprovedModel } from "../../../src/conform/index.js";
import {
  createConformanceChecker,
  createRecordSplitter,
  sniffReader,
} from "../../../src/conform/index.js";
import { simulate } from "../../../src/simulate/index.js";
import { build, fixturesOf, specArb } from "../../simulate/random-workflow.js";
import { zeebeFromSimulation, zeebeSimulationProcess } from "../export/zeebe.js";
import { createZeebeReader, zeebeReader } from "../../../src/conform/read/zeebe.js";
import type { SourceRecord } from "../../../src/conform/read/types.js";
import type { ElementEvent, RunEvent } from "../../../src/conform/types.js";

const FIXTURE = "test/fixtures/conform/zeebe/order-process.jsonl";

function linesOf(text: string, file: string): SourceRecord[] {
  return text
    .split("\n")
    .filter((l) => l !== "")
    .map((l, i) => ({ value: JSON.parse(l) as unknown, index: i, line: i + 1, file }));
}

function readAll(records: readonly SourceRecord[]) {
  const reader = zeebeReader.create();
  const events: RunEvent[] = [];
  for (const r of records) events.push(...reader.push(r));
  events.push(...reader.end());
  return events;
}

/** A PROCESS_INSTANCE record as Zeebe's exporters write it. */
function rec(
  instance: number,
  position: number,
  intent: string,
  elementId: string,
  type = "SERVICE_TASK",
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    partitionId: 1,
    key: instance + position,
    position,
    timestamp: 1_700_000_000_000 + position,
    valueType: "PROCESS_INSTANCE",
    recordType: "EVENT",
    intent,
    value: {
      bpmnProcessId: "p",
      version: 1,
      processInstanceKey: instance,
      elementId,
      flowScopeKey: type === "PROCESS" ? -1 : instance,
      bpmnElementType: type,
    },
    ...extra,
  };
}

const asRecords = (values: readonly unknown[]): SourceRecord[] =>
  values.map((value, index) => ({ value, index, line: index + 1 }));

const brief = (e: RunEvent) =>
  e.kind === "element"
    ? `${e.instance}:${e.element}:${e.state}`
    : e.kind === "unknown"
      ? `unknown(${e.class}):${e.at.index}`
      : e.kind;

describe("zeebe reader (Zeebe 8.10 Record JSON)", () => {
  it("pins the schema version and recognises the record envelope", () => {
    expect(zeebeReader.source).toBe("zeebe");
    expect(zeebeReader.schemaVersion).toBe("8.10");
    const first = linesOf(readFileSync(FIXTURE, "utf8"), FIXTURE)[0];
    expect(zeebeReader.sniff(first?.value)).toBe(true);
    expect(zeebeReader.sniff({ resourceSpans: [] })).toBe(false);
  });

  it("reads the published record shape: element and sequence-flow events, in log order", () => {
    const records = linesOf(readFileSync(FIXTURE, "utf8"), FIXTURE);
    const reader = createZeebeReader();
    const before = records.slice(0, -1).flatMap((r) => reader.push(r));
    // Nothing is given before the process instance ends.
    expect(before).toEqual([]);
    const last = records[records.length - 1];
    if (last === undefined) throw new Error("empty fixture");
    const events = reader.push(last) as ElementEvent[];
    expect(events.map((e) => [e.element, e.elementType, e.state])).toEqual([
      ["order-process", "PROCESS", "activated"],
      ["order-placed", "START_EVENT", "activated"],
      ["order-placed", "START_EVENT", "completed"],
      ["to-collect-money", "SEQUENCE_FLOW", "completed"],
      ["collect-money", "SERVICE_TASK", "activated"],
      ["collect-money", "SERVICE_TASK", "completed"],
      ["to-order-delivered", "SEQUENCE_FLOW", "completed"],
      ["order-delivered", "END_EVENT", "activated"],
      ["order-delivered", "END_EVENT", "completed"],
      ["order-process", "PROCESS", "completed"],
    ]);
    expect(events[0]).toEqual({
      kind: "element",
      instance: "2251799813685259",
      process: "order-process",
      element: "order-process",
      elementType: "PROCESS",
      state: "activated",
      time: 1767225600015,
      at: {
        index: 2,
        file: FIXTURE,
        line: 3,
        time: "2026-01-01T00:00:00.015Z",
        ids: {
          key: "2251799813685259",
          position: "103",
          partitionId: "1",
          processInstanceKey: "2251799813685259",
        },
      },
    });
    // The command, the transitional intents and the job record are not needed: skipped.
    expect(reader.skipped).toBe(10);
    expect(reader.end()).toEqual([]);
  });

  it("orders each instance by position whatever the file order, and keeps interleaved instances apart", () => {
    const a = 100;
    const b = 200;
    const events = readAll(
      asRecords([
        rec(b, 7, "ELEMENT_ACTIVATED", "p", "PROCESS"),
        rec(a, 12, "ELEMENT_COMPLETED", "t1"),
        rec(a, 11, "ELEMENT_ACTIVATED", "t1"),
        rec(b, 8, "ELEMENT_ACTIVATED", "t2"),
        rec(a, 10, "ELEMENT_ACTIVATED", "p", "PROCESS"),
        rec(a, 13, "ELEMENT_COMPLETED", "p", "PROCESS"),
        rec(b, 9, "ELEMENT_TERMINATED", "t2"),
        rec(b, 10, "ELEMENT_TERMINATED", "p", "PROCESS"),
      ]),
    );
    expect(events.map(brief)).toEqual([
      "100:p:activated",
      "100:t1:activated",
      "100:t1:completed",
      "100:p:completed",
      "200:p:activated",
      "200:t2:activated",
      "200:t2:terminated",
      "200:p:terminated",
    ]);
    expect(events.map((e) => e.at.index)).toEqual([4, 2, 1, 5, 0, 3, 6, 7]);
  });

  it("gives an instance that never ends at the end, without a process end", () => {
    const reader = createZeebeReader();
    const pushed = asRecords([
      rec(5, 2, "ELEMENT_ACTIVATED", "t"),
      rec(5, 1, "ELEMENT_ACTIVATED", "p", "PROCESS"),
    ]).flatMap((r) => reader.push(r));
    expect(pushed).toEqual([]);
    expect(reader.end().map(brief)).toEqual(["5:p:activated", "5:t:activated"]);
  });

  it("reports records it cannot read, and a record after its instance ended, without throwing", () => {
    const bad = { ...rec(1, 3, "ELEMENT_ACTIVATED", "t"), value: { processInstanceKey: 1 } };
    const events = readAll(
      asRecords([
        "not an object",
        { foo: 1 },
        bad,
        { ...rec(1, 4, "ELEMENT_ACTIVATED", "t"), timestamp: "yesterday" },
        rec(1, 1, "ELEMENT_COMPLETED", "p", "PROCESS"),
        rec(1, 2, "ELEMENT_COMPLETED", "t"),
      ]),
    );
    expect(events.map(brief)).toEqual([
      "unknown(unknown):0",
      "unknown(unknown):1",
      "unknown(unknown):2",
      "unknown(unknown):3",
      "1:p:completed",
      "unknown(ambiguous):5",
    ]);
    const reasons = events.flatMap((e) => (e.kind === "unknown" ? [e.reason] : []));
    expect(reasons[0]).toBe("The record is not a JSON object.");
    expect(reasons[1]).toMatch(/envelope/);
    expect(reasons[2]).toBe("The ELEMENT_ACTIVATED record has no readable value.bpmnProcessId.");
    expect(reasons[3]).toBe("The ELEMENT_ACTIVATED record has no readable timestamp.");
    expect(reasons[4]).toMatch(/after the instance's end/);
  });

  it("keeps apart instances of two processes with the same key: one's end closes not the other", () => {
    const other = (r: Record<string, unknown>) => ({
      ...r,
      value: { ...(r.value as object), bpmnProcessId: "q" },
    });
    const reader = createZeebeReader();
    const pushed = asRecords([
      rec(5, 1, "ELEMENT_ACTIVATED", "p", "PROCESS"),
      other(rec(5, 2, "ELEMENT_ACTIVATED", "q", "PROCESS")),
      other(rec(5, 3, "ELEMENT_COMPLETED", "review", "USER_TASK")),
      other(rec(5, 4, "ELEMENT_COMPLETED", "q", "PROCESS")),
      rec(5, 5, "ELEMENT_COMPLETED", "p", "PROCESS"),
    ]).map((r) =>
      reader.push(r).map((e) => (e.kind === "element" ? `${e.process}:${brief(e)}` : brief(e))),
    );
    expect(pushed).toEqual([
      [],
      [],
      [],
      ["q:5:q:activated", "q:5:review:completed", "q:5:q:completed"],
      ["p:5:p:activated", "p:5:p:completed"],
    ]);
  });

  it("skips records conform does not need, and does not report them", () => {
    const reader = createZeebeReader();
    const events = asRecords([
      rec(1, 1, "ELEMENT_ACTIVATING", "t"),
      { ...rec(1, 2, "ACTIVATE_ELEMENT", "t"), recordType: "COMMAND" },
      { ...rec(1, 3, "ELEMENT_ACTIVATED", "t"), recordType: "COMMAND_REJECTION" },
      { ...rec(1, 4, "CREATED", "t"), valueType: "JOB" },
      { ...rec(1, 5, "CREATED", "t"), valueType: "VARIABLE" },
      rec(1, 6, "ELEMENT_MIGRATED", "t"),
    ]).flatMap((r) => reader.push(r));
    expect([...events, ...reader.end()]).toEqual([]);
    expect(reader.skipped).toBe(6);
  });

  it("reads int64 keys written as strings", () => {
    const record = rec(1, 1, "ELEMENT_COMPLETED", "p", "PROCESS");
    const value = { ...(record.value as object), processInstanceKey: "9007199254740993" };
    const events = readAll(asRecords([{ ...record, value }]));
    expect(events.map(brief)).toEqual(["9007199254740993:p:completed"]);
  });

  it("reads no instance from a key past 2^53 that was a rounded number, nor merges two instances", () => {
    // 2^53 + 1 and 2^53 read as JSON numbers are one number: which instance it was is not known.
    const record = rec(1, 1, "ELEMENT_COMPLETED", "p", "PROCESS");
    const value = { ...(record.value as object), processInstanceKey: 2 ** 53 };
    const events = readAll(asRecords([{ ...record, value }]));
    expect(events.map(brief)).toEqual(["unknown(unknown):0"]);
    expect(events[0]?.kind === "unknown" ? events[0].reason : "").toContain(
      "value.processInstanceKey",
    );
  });

  it("reads the exact keys the record splitter keeps of numbers past 2^53", () => {
    const text = ["9007199254740993", "9007199254740992"]
      .map((key, i) => {
        const record = rec(1, i + 1, "ELEMENT_COMPLETED", "p", "PROCESS");
        return JSON.stringify({
          ...record,
          value: { ...(record.value as object), processInstanceKey: 0 },
        }).replace('"processInstanceKey":0', `"processInstanceKey":${key}`);
      })
      .join("\n");
    const splitter = createRecordSplitter("zeebe.jsonl");
    const records = [...splitter.push(text), ...splitter.end()].filter(
      (r): r is SourceRecord => "value" in r,
    );
    expect(readAll(records).map(brief)).toEqual([
      "9007199254740993:p:completed",
      "9007199254740992:p:completed",
    ]);
  });
});

describe("zeebe: simulated runs written by the exporter", () => {
  it("read back as the instance of an approved process, with no deviation", () => {
    fc.assert(
      fc.property(specArb, (spec) => {
        const wf = build(spec);
        const state = simulate(wf, { fixtures: fixturesOf(spec), maxSteps: spec.maxSteps });
        const text = zeebeFromSimulation(wf, state, { id: "r", startMs: 1000 });
        const split = createRecordSplitter("run.jsonl");
        const records = [...split.push(text), ...split.end()];
        const first = records[0];
        expect(first !== undefined && "value" in first && sniffReader(first.value)).toBe(
          zeebeReader,
        );
        const shape = zeebeSimulationProcess(wf);
        const approved: ApprovedModel = {
          workflows: [{ ref: `${wf.id}@${wf.version}`, workflow: wf, tools: new Map() }],
          processes: [
            {
              processIds: [shape.processId],
              elements: new Set(shape.elements),
              tasks: [
                {
                  elementId: shape.agentElement,
                  workflow: `${wf.id}@${wf.version}`,
                  gateRequired: false,
                  gates: [],
                },
              ],
            },
          ],
        };
        const reader = zeebeReader.create();
        const checker = createConformanceChecker(approved, { keepConforming: true });
        const events: RunEvent[] = [];
        for (const record of records) {
          if (!("value" in record)) throw new Error(record.invalid);
          events.push(...reader.push(record));
        }
        events.push(...reader.end());
        for (const event of events) checker.push(event);
        const report = checker.end();
        expect(events.filter((e) => e.kind === "unknown")).toEqual([]);
        expect(report.instances.map((i) => [i.instance, i.ended, i.deviations])).toEqual([
          ["2251799813685250", state.complete, []],
        ]);
        const tools = events.flatMap((e) =>
          e.kind === "element" && e.elementType === "SERVICE_TASK" && e.state === "completed"
            ? [e.element]
            : [],
        );
        const moved = state.trail.flatMap((r) =>
          r.type === "move" && wf.nodes.find((n) => n.id === r.nodeId)?.type === "tool"
            ? [r.nodeId]
            : [],
        );
        expect(tools).toEqual(moved);
      }),
      { numRuns: 100 },
    );
  });
});
