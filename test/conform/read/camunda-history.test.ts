import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ApprovedModel } from "../../../src/conform/index.js";
import {
  createConformanceChecker,
  createRecordSplitter,
  deviationMessage,
  sniffReader,
} from "../../../src/conform/index.js";
import type { AgentWorkflow, ToolContract } from "../../../src/model/index.js";
import { simulate } from "../../../src/simulate/index.js";
import { build, fixturesOf, specArb } from "../../simulate/random-workflow.js";
import { camundaAgentHistoryFromSimulation } from "../export/camunda-agent-history.js";
import {
  camundaHistoryReader,
  createCamundaHistoryReader,
} from "../../../src/conform/read/camunda-history.js";
import type { SourceRecord } from "../../../src/conform/read/types.js";
import type { RunEvent, StepEvent } from "../../../src/conform/types.js";
import { research, search } from "../research.js";

const TOOL: ToolContract = {
  kind: "ToolContract",
  id: "tool:x",
  version: "1.0.0",
  name: "X",
  inputSchema: { q: {}, r: "text" },
  outputSchema: {},
  effect: "read",
  authorization: "automatic",
};

const approvedOf = (wf: AgentWorkflow): ApprovedModel => ({
  workflows: [
    { ref: `${wf.id}@${wf.version}`, workflow: wf, tools: new Map([["tool:x@1.0.0", TOOL]]) },
  ],
  processes: [],
});

const DIR = "test/fixtures/conform/camunda-agent-history";
const LINES = `${DIR}/refund-agent.jsonl`;
const RUN = "2251799813690001";
const digest = (text: string) => createHash("sha256").update(text).digest("hex");

function linesOf(file: string): SourceRecord[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l, i) => ({ value: JSON.parse(l) as unknown, index: i, line: i + 1, file }));
}

const asRecords = (values: readonly unknown[]): SourceRecord[] =>
  values.map((value, index) => ({ value, index, line: index + 1 }));

function readAll(records: readonly SourceRecord[]) {
  const reader = createCamundaHistoryReader();
  const events: RunEvent[] = [];
  for (const r of records) events.push(...reader.push(r));
  events.push(...reader.end());
  return { events, skipped: reader.skipped };
}

/** A history item in the AgentInstanceHistoryItemResult shape. */
function item(
  run: string,
  key: number,
  role: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    historyItemKey: String(key),
    historyItemId: `id-${key}`,
    agentInstanceKey: run,
    elementInstanceKey: "7",
    jobKey: "8",
    jobLease: "l",
    loopIteration: 1,
    role,
    content: [],
    toolCalls: [],
    metrics: null,
    commitStatus: "COMMITTED",
    producedAt: new Date(1_700_000_000_000 + key * 1000).toISOString(),
    tools: [],
    model: null,
    provider: null,
    limits: { maxModelCalls: -1, maxTokens: -1, maxToolCalls: -1 },
    systemPrompt: [],
    ...extra,
  };
}

function instance(run: string, status = "COMPLETED", extra: Record<string, unknown> = {}) {
  return {
    agentInstanceKey: run,
    agentDefinitionKey: "1",
    status,
    definition: { model: "m0", provider: "p0", systemPrompt: "" },
    metrics: { inputTokens: 0, outputTokens: 0, modelCalls: 0, toolCalls: 0 },
    limits: { maxModelCalls: -1, maxTokens: -1, maxToolCalls: -1 },
    tools: [],
    elementId: "agent",
    processInstanceKey: "42",
    processDefinitionId: "proc",
    creationDate: "2024-01-01T00:00:00.000Z",
    lastUpdatedDate: "2024-01-01T00:01:00.000Z",
    completionDate: status === "COMPLETED" ? "2024-01-01T00:01:00.000Z" : null,
    elementInstanceKeys: ["7"],
    ...extra,
  };
}

const obj = (object: unknown) => ({ contentType: "OBJECT", object });
const call = (id: string, name: string, args: unknown, elementId: string | null = name) => ({
  toolCallId: id,
  toolName: name,
  elementId,
  arguments: args,
});
const brief = (e: RunEvent): string => {
  switch (e.kind) {
    case "step":
      return `${e.run}:${e.nodeType}:${e.node ?? e.tool ?? "?"}:${e.status}`;
    case "unknown":
      return `unknown(${e.class}):${e.at.index}`;
    case "run-start":
    case "run-end":
      return `${e.run}:${e.kind}`;
    default:
      return e.kind;
  }
};

describe("camunda-agent-history reader (Camunda 8.10 agent instance API)", () => {
  it("pins the schema version and recognises both record shapes and search responses", () => {
    expect(camundaHistoryReader.source).toBe("camunda-agent-history");
    expect(camundaHistoryReader.schemaVersion).toBe("8.10");
    expect(camundaHistoryReader.sniff(linesOf(LINES)[0]?.value)).toBe(true);
    expect(camundaHistoryReader.sniff(instance("1"))).toBe(true);
    expect(camundaHistoryReader.sniff({ items: [item("1", 1, "USER")], page: {} })).toBe(true);
    expect(camundaHistoryReader.sniff({ valueType: "JOB" })).toBe(false);
    expect(camundaHistoryReader.sniff({ items: [] })).toBe(false);
  });

  it("reads the published shapes: the run, its model calls and tool calls, its end", () => {
    const records = linesOf(LINES);
    const reader = createCamundaHistoryReader();
    const before = records.slice(0, -1).flatMap((r) => reader.push(r));
    expect(before).toEqual([]);
    const last = records[records.length - 1];
    if (last === undefined) throw new Error("empty fixture");
    const events = reader.push(last);
    const identity = {
      model: "claude-sonnet-4-5",
      provider: "anthropic",
      promptSha256: digest("You are a refund agent."),
    };
    const ids = (key: string, id: string) => ({
      agentInstanceKey: RUN,
      historyItemKey: key,
      historyItemId: id,
      elementInstanceKey: "2251799813685300",
    });
    expect(events).toEqual([
      {
        kind: "run-start",
        run: RUN,
        time: Date.parse("2026-01-01T00:00:00.000Z"),
        process: {
          instance: "2251799813685249",
          element: "refund_agent",
          process: "refund-process",
        },
        at: {
          index: 5,
          file: LINES,
          line: 6,
          time: "2026-01-01T00:00:00.000Z",
          ids: {
            agentInstanceKey: RUN,
            processInstanceKey: "2251799813685249",
            elementId: "refund_agent",
          },
        },
      },
      {
        kind: "step",
        run: RUN,
        nodeType: "llm",
        status: "ok",
        tokens: 150,
        start: Date.parse("2026-01-01T00:00:01.500Z") - 1200,
        end: Date.parse("2026-01-01T00:00:01.500Z"),
        identity,
        at: {
          index: 2,
          file: LINES,
          line: 3,
          time: "2026-01-01T00:00:01.500Z",
          ids: ids("2251799813690103", "hi-103"),
        },
      },
      {
        kind: "step",
        run: RUN,
        nodeType: "tool",
        tool: "lookup_order",
        status: "ok",
        output: { status: "shipped" },
        args: { orderId: 42 },
        start: Date.parse("2026-01-01T00:00:01.500Z"),
        end: Date.parse("2026-01-01T00:00:02.000Z"),
        at: {
          index: 3,
          file: LINES,
          line: 4,
          time: "2026-01-01T00:00:02.000Z",
          ids: ids("2251799813690104", "hi-104"),
        },
      },
      {
        kind: "step",
        run: RUN,
        nodeType: "llm",
        status: "ok",
        output: { decision: "refund" },
        tokens: 220,
        start: Date.parse("2026-01-01T00:00:03.000Z") - 900,
        end: Date.parse("2026-01-01T00:00:03.000Z"),
        identity,
        at: {
          index: 4,
          file: LINES,
          line: 5,
          time: "2026-01-01T00:00:03.000Z",
          ids: ids("2251799813690105", "hi-105"),
        },
      },
      {
        kind: "run-end",
        run: RUN,
        status: "completed",
        time: Date.parse("2026-01-01T00:00:03.100Z"),
        at: expect.objectContaining({ index: 5, line: 6 }) as unknown,
      },
    ]);
    // The USER prompt is not needed: skipped, not reported.
    expect(reader.skipped).toBe(1);
    expect(reader.end()).toEqual([]);
  });

  it("reads the same history given as search responses", () => {
    const file = `${DIR}/refund-agent-search.json`;
    const doc = JSON.parse(readFileSync(file, "utf8")) as unknown[];
    const { events } = readAll(doc.map((value, index) => ({ value, index, file })));
    expect(events.map(brief)).toEqual([
      `${RUN}:run-start`,
      `${RUN}:llm:?:ok`,
      `${RUN}:tool:lookup_order:ok`,
      `${RUN}:llm:?:ok`,
      `${RUN}:run-end`,
    ]);
    const tool = events[2] as StepEvent;
    expect(tool.at.ids?.historyItemKey).toBe("2251799813690104");
  });

  it("orders items by creation whatever the file order, and keeps interleaved runs apart", () => {
    const { events } = readAll(
      asRecords([
        item("2", 22, "TOOL_RESULT", { toolCalls: [call("c2", "t", { a: 2 })] }),
        item("1", 12, "TOOL_RESULT", { toolCalls: [call("c1", "t", null)] }),
        item("1", 11, "ASSISTANT", { toolCalls: [call("c1", "t", { a: 1 })] }),
        item("2", 21, "ASSISTANT", { toolCalls: [call("c2", "t", { a: 2 })] }),
        instance("1"),
        instance("2"),
      ]),
    );
    expect(events.map(brief)).toEqual([
      "1:run-start",
      "1:llm:?:ok",
      "1:tool:t:ok",
      "1:run-end",
      "2:run-start",
      "2:llm:?:ok",
      "2:tool:t:ok",
      "2:run-end",
    ]);
    // The tool result names no arguments: the model's call does.
    expect((events[2] as StepEvent).args).toEqual({ a: 1 });
  });

  it("reads no tool step from a result that names another tool than the call it answers", () => {
    const { events } = readAll(
      asRecords([
        item("1", 11, "ASSISTANT", { toolCalls: [call("t1", "WireTransfer", { to: "x" })] }),
        item("1", 12, "TOOL_RESULT", { toolCalls: [call("t1", "LookupOrder", null)] }),
        instance("1"),
      ]),
    );
    expect(events.map(brief)).toEqual([
      "1:run-start",
      "1:llm:?:ok",
      "unknown(ambiguous):1",
      "1:run-end",
    ]);
    expect(events[2]).toMatchObject({
      class: "ambiguous",
      reason:
        "The TOOL_RESULT item answers call 't1' as tool 'LookupOrder', but the call asked for tool 'WireTransfer', so which tool ran is ambiguous.",
    });
  });

  it("says a cost it cannot read (another spelling, below zero) as an unread record, never sums it", () => {
    const mark = obj({
      "agentflow.node.id": "plan",
      "agentflow.cost.usd": 5,
      "agentflow.cost.EUR": -2,
      "agentflow.cost.GBP": 1,
    });
    const { events } = readAll(asRecords([item("1", 1, "ASSISTANT", { content: [mark] })]));
    expect(events.map((e) => (e.kind === "unknown" ? e.reason : e.kind))).toEqual([
      "run-start",
      "agentflow.cost.usd names no currency: a cost is agentflow.cost.<ISO 4217 code>, such as agentflow.cost.USD, on node 'plan'.",
      "agentflow.cost.EUR is not an amount (a number, zero or more), on node 'plan'.",
      "step",
    ]);
    expect(events[3]).toMatchObject({ kind: "step", cost: { GBP: 1 } });
  });

  it("ends no run whose instance is not COMPLETED, and gives it at the end of the file", () => {
    const reader = createCamundaHistoryReader();
    const pushed = asRecords([item("9", 2, "ASSISTANT"), instance("9", "THINKING")]).flatMap((r) =>
      reader.push(r),
    );
    expect(pushed).toEqual([]);
    expect(reader.end().map(brief)).toEqual(["9:run-start", "9:llm:?:ok"]);
    // History alone: the run starts at its first item and has no process link.
    const { events } = readAll(asRecords([item("3", 5, "ASSISTANT")]));
    expect(events[0]).toEqual({
      kind: "run-start",
      run: "3",
      time: 1_700_000_005_000,
      at: expect.objectContaining({ index: 0 }) as unknown,
    });
  });

  it("reads DISCARDED items as failed attempts and a dispatched call without result as a failed tool", () => {
    const { events } = readAll(
      asRecords([
        item("1", 1, "ASSISTANT", { commitStatus: "DISCARDED" }),
        item("1", 2, "ASSISTANT", {
          toolCalls: [call("c1", "lookup", { q: 1 }), call("c2", "pay", { x: 1 })],
        }),
        item("1", 3, "TOOL_RESULT", {
          toolCalls: [call("c1", "lookup", null)],
          commitStatus: "DISCARDED",
        }),
        item("1", 4, "TOOL_RESULT", {
          toolCalls: [call("c1", "lookup", null)],
          content: [obj({ ok: true })],
        }),
        instance("1"),
      ]),
    );
    expect(events.map(brief)).toEqual([
      "1:run-start",
      "1:llm:?:error",
      "1:llm:?:ok",
      "1:tool:pay:error",
      "1:tool:lookup:error",
      "1:tool:lookup:ok",
      "1:run-end",
    ]);
    expect((events[3] as StepEvent).args).toEqual({ x: 1 });
    expect((events[5] as StepEvent).args).toEqual({ q: 1 });
  });

  it("carries the identity a CONFIGURATION item sets to the model calls after it", () => {
    const prompt = [
      { contentType: "TEXT", text: "A" },
      { contentType: "TEXT", text: "B" },
    ];
    const { events } = readAll(
      asRecords([
        item("1", 1, "ASSISTANT"),
        item("1", 2, "CONFIGURATION", { model: "m1", provider: "p1", systemPrompt: prompt }),
        item("1", 3, "ASSISTANT"),
        instance("1", "COMPLETED", {
          definition: { model: "m0", provider: "p0", systemPrompt: "S" },
        }),
      ]),
    );
    const steps = events.filter((e): e is StepEvent => e.kind === "step");
    expect(steps.map((s) => s.identity)).toEqual([
      { model: "m0", provider: "p0", promptSha256: digest("S") },
      { model: "m1", provider: "p1", promptSha256: digest("A\nB") },
    ]);
  });

  it("reads agentflow's own keys from an OBJECT block of their own", () => {
    const mark = obj({
      "agentflow.node.id": "plan",
      "agentflow.workflow": "wf@1.0.0",
      "agentflow.cost.EUR": 0.5,
      "agentflow.prompt.ref": "prm:p@1",
    });
    const { events } = readAll(
      asRecords([item("1", 1, "ASSISTANT", { content: [mark, obj({ n: 3 })] }), instance("1")]),
    );
    expect(events[0]).toMatchObject({ kind: "run-start", workflow: "wf@1.0.0" });
    expect(events[1]).toMatchObject({
      kind: "step",
      node: "plan",
      output: { n: 3 },
      cost: { EUR: 0.5 },
      identity: { model: "m0", provider: "p0", promptRef: "prm:p@1" },
    });
    const fromText = readAll(
      asRecords([
        item("1", 1, "ASSISTANT", { content: [obj({ "agentflow.node.output": '{"k":1}' })] }),
      ]),
    );
    expect(fromText.events[1]).toMatchObject({ kind: "step", output: { k: 1 } });
  });

  it.each([
    ["[1, 2]", "its JSON text is not an object"],
    ["{not json", "its text is not JSON"],
    [7, "it is neither JSON text nor an object"],
  ])(
    "says an agentflow.node.output that is no JSON object (%j) as an unread record, as the other readers do",
    (output, why) => {
      const mark = obj({ "agentflow.node.id": "plan", "agentflow.node.output": output });
      const { events } = readAll(asRecords([item("1", 1, "ASSISTANT", { content: [mark] })]));
      expect(events.map((e) => e.kind)).toEqual(["run-start", "unknown", "step"]);
      expect(events[1]).toMatchObject({
        kind: "unknown",
        run: "1",
        class: "unknown",
        reason: `agentflow.node.output of node 'plan' is unreadable: ${why}.`,
      });
      expect(events[2]).toMatchObject({ kind: "step", node: "plan" });
      expect(events[2]).not.toHaveProperty("output");
    },
  );

  it("reports records it cannot read or can read two ways, without throwing", () => {
    const { events } = readAll(
      asRecords([
        42,
        { page: {} },
        item("1", 1, "ASSISTANT", { role: undefined }),
        item("1", 2, "TOOL_RESULT"),
        item("1", 3, "ASSISTANT", { content: [obj({ a: 1 }), obj({ b: 2 })] }),
        item("1", 4, "SYSTEM"),
        item("1", 5, "TOOL_RESULT", { toolCalls: [call("x", "a", {}), call("y", "b", {})] }),
        item("1", 6, "ASSISTANT"),
        item("1", 6, "ASSISTANT"),
        { ...item("1", 7, "ASSISTANT"), toolCalls: "none" },
        item("1", 8, "ASSISTANT", { content: [obj({ "agentflow.workflow": "a@1" })] }),
        item("1", 9, "ASSISTANT", { content: [obj({ "agentflow.workflow": "b@1" })] }),
        instance("1"),
        item("1", 10, "ASSISTANT"),
      ]),
    );
    expect(events.map(brief)).toEqual([
      "unknown(unknown):0",
      "unknown(unknown):1",
      "unknown(unknown):2",
      "unknown(ambiguous):8",
      "unknown(unknown):9",
      "1:run-start",
      "unknown(ambiguous):12",
      "unknown(unknown):3",
      "unknown(ambiguous):4",
      "unknown(unknown):5",
      "unknown(ambiguous):6",
      "1:llm:?:ok",
      "1:llm:?:ok",
      "1:llm:?:ok",
      "1:run-end",
      "unknown(ambiguous):13",
    ]);
    const reasons = events.flatMap((e) => (e.kind === "unknown" ? [e.reason] : []));
    expect(reasons).toEqual([
      "The record is not a JSON object.",
      "The record has no agentInstanceKey: it is neither an agent instance nor a history item.",
      "The history item cannot be read: role is missing.",
      "History item 6 appears again (overlapping pages?); the repeat is not read as a second step.",
      "The history item cannot be read: toolCalls is not an array.",
      "The run names 2 workflows (a@1, b@1), so which one it ran is ambiguous.",
      "The TOOL_RESULT item names no tool call.",
      "The ASSISTANT item holds 2 OBJECT blocks, so which is the output is ambiguous.",
      "The history item's role SYSTEM is not one Camunda 8.10 defines.",
      "The TOOL_RESULT item names 2 tool calls, so which one it answers is ambiguous.",
      expect.stringMatching(/after the instance was read as completed/) as unknown,
    ]);
  });
});

describe("camunda-agent-history: a field recorded in a shape it cannot have is never absent", () => {
  it.each([
    {
      what: "a CONFIGURATION item's model given as an object",
      records: [
        item("1", 1, "CONFIGURATION", { model: { name: "gpt-4o-mini" } }),
        item("1", 2, "ASSISTANT"),
        instance("1"),
      ],
      reasons: ["model of the CONFIGURATION item is an object (key-value list), not text."],
      // The configuration may have changed the model: the calls after it carry none.
      identity: { provider: "p0" },
    },
    {
      what: "an instance's definition.model given as a list",
      records: [
        item("1", 1, "ASSISTANT"),
        instance("1", "COMPLETED", {
          definition: { model: ["gpt-4o"], provider: "p0", systemPrompt: "" },
        }),
      ],
      reasons: ["definition.model of the agent instance is a list, not text."],
      identity: { provider: "p0" },
    },
    {
      what: "agentflow.workflow given as a list, and a tool call's elementId as a number",
      records: [
        item("1", 1, "ASSISTANT", {
          content: [obj({ "agentflow.workflow": ["wf@1.0.0"] })],
          toolCalls: [call("c1", "lookup", {}, 7 as never)],
        }),
        item("1", 2, "TOOL_RESULT", { toolCalls: [call("c1", "lookup", {}, null)] }),
        instance("1"),
      ],
      reasons: [
        "toolCalls[0].elementId of the ASSISTANT item is a number, not text.",
        "agentflow.workflow of the ASSISTANT item is a list, not text.",
      ],
      identity: { model: "m0", provider: "p0" },
    },
  ])("reads $what as a record not read", ({ records, reasons, identity }) => {
    const { events } = readAll(asRecords(records));
    expect(events[0]).toMatchObject({ kind: "run-start" });
    expect(events[0]).not.toHaveProperty("workflow");
    expect(events.flatMap((e) => (e.kind === "unknown" ? [e.reason] : []))).toEqual(reasons);
    expect(events.flatMap((e) => (e.kind === "unknown" ? [e.run] : []))).toEqual(
      reasons.map(() => "1"),
    );
    const llm = events.find((e): e is StepEvent => e.kind === "step" && e.nodeType === "llm");
    expect(llm?.identity).toEqual(identity);
  });

  it("calls a model call with no model recorded (definition empty, no CONFIGURATION) unverified", () => {
    const wf = research;
    const approved: ApprovedModel = {
      workflows: [
        {
          ref: "agnt-rsch@2.1.0",
          workflow: wf,
          tools: new Map([["tool:browser-search@1.2.0", search("read", "automatic")]]),
        },
      ],
      processes: [],
    };
    const { events } = readAll(
      asRecords([
        item("1", 1, "ASSISTANT", {
          content: [obj({ is_complete: true })],
          toolCalls: [call("c1", "search", { query: "q" }, "tool-2")],
        }),
        item("1", 2, "TOOL_RESULT", { toolCalls: [call("c1", "search", null, "tool-2")] }),
        instance("1", "COMPLETED", {
          definition: { model: "", provider: "", systemPrompt: "" },
          creationDate: new Date(1_700_000_000_000).toISOString(),
          completionDate: new Date(1_700_000_003_000).toISOString(),
        }),
      ]),
    );
    const checker = createConformanceChecker(approved);
    for (const e of events) checker.push(e);
    const run = checker.end().runs[0];
    expect(run?.deviations).toEqual([]);
    // The item records no tokens (metrics) and no cost either, which the template's budget limits.
    expect(run?.unverified.map((u) => [u.reason, u.node, u.at?.line, u.data.quantity])).toEqual([
      ["MODEL_UNRECORDED", "llm-1", 1, undefined],
      ["USAGE_UNRECORDED", "llm-1", 1, "tokens"],
      ["USAGE_UNRECORDED", "llm-1", 1, "cost"],
    ]);
    expect(run?.verdict).toBe("unverified");
  });
});

describe("camunda-agent-history: simulated runs written by the exporter", () => {
  it("read back conforming (a blocked run is only unfinished: Camunda has no failed status)", () => {
    fc.assert(
      fc.property(specArb, (spec) => {
        const wf = build(spec);
        const state = simulate(wf, { fixtures: fixturesOf(spec), maxSteps: spec.maxSteps });
        const text = camundaAgentHistoryFromSimulation(wf, state, { id: "r", startMs: 1000 });
        const split = createRecordSplitter("run.jsonl");
        const records = [...split.push(text), ...split.end()];
        const first = records[0];
        expect(first !== undefined && "value" in first && sniffReader(first.value)).toBe(
          camundaHistoryReader,
        );
        const reader = camundaHistoryReader.create();
        const checker = createConformanceChecker(approvedOf(wf), { keepConforming: true });
        for (const record of records) {
          if (!("value" in record)) throw new Error(record.invalid);
          for (const event of reader.push(record)) checker.push(event);
        }
        for (const event of reader.end()) checker.push(event);
        const run = checker.end().runs[0];
        expect((run?.deviations ?? []).map(deviationMessage)).toEqual([]);
        const unverified = (run?.unverified ?? []).map((u) => u.reason);
        expect(unverified).toEqual(state.complete ? [] : ["RUN_UNFINISHED"]);
        if (state.complete) expect(run?.verdict).toBe("conforming");
      }),
      { numRuns: 150 },
    );
  });
});
