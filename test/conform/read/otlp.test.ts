import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { otlpReader, RUN_GRACE } from "../../../src/conform/read/otlp.js";
import type { SourceRecord } from "../../../src/conform/read/types.js";
import type { RunEvent } from "../../../src/conform/types.js";
import { getTemplate, sha256 } from "../../../src/model/index.js";
import { simulate } from "../../../src/simulate/index.js";
import { makeSdkFixture } from "../../fixtures/conform/otlp/make-fixture.js";
import { otlpFromSimulation } from "../export/otlp.js";

const FIXTURES = new URL("../../fixtures/conform/otlp/", import.meta.url);
const T = "0af7651916cd43dd8448eb211c80319c";
const U = "4bf92f3577b34da6a3ce929d0e0e4736";
const NS = 1_767_225_600_000n * 1_000_000n;

type Attr = string | number | boolean | Record<string, unknown>;

/** An OTLP/JSON span as the collector writes it (ints as strings), `ms` after T0. */
function span(
  traceId: string,
  spanId: string,
  parent: string | undefined,
  ms: [number, number],
  attrs: Record<string, Attr>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const value = (v: Attr): Record<string, unknown> =>
    typeof v === "string"
      ? { stringValue: v }
      : typeof v === "boolean"
        ? { boolValue: v }
        : typeof v === "number"
          ? Number.isInteger(v)
            ? { intValue: String(v) }
            : { doubleValue: v }
          : v;
  return {
    traceId,
    spanId,
    ...(parent !== undefined ? { parentSpanId: parent } : {}),
    name: "s",
    kind: 1,
    startTimeUnixNano: String(NS + BigInt(ms[0]) * 1_000_000n),
    endTimeUnixNano: String(NS + BigInt(ms[1]) * 1_000_000n),
    attributes: Object.entries(attrs).map(([key, v]) => ({ key, value: value(v) })),
    status: {},
    ...extra,
  };
}

function request(...spans: Record<string, unknown>[]): unknown {
  return { resourceSpans: [{ resource: {}, scopeSpans: [{ scope: { name: "t" }, spans }] }] };
}

/** Reads values as JSON lines (line = index + 1); returns events per push and at end. */
function read(values: readonly unknown[]): { pushes: RunEvent[][]; end: RunEvent[] } {
  const reader = otlpReader.create();
  const pushes = values.map((value, index) => [
    ...reader.push({ value, index, line: index + 1, file: "runs.jsonl" } satisfies SourceRecord),
  ]);
  return { pushes, end: [...reader.end()] };
}

function all(values: readonly unknown[]): RunEvent[] {
  const { pushes, end } = read(values);
  return [...pushes.flat(), ...end];
}

const ms = (offset: number): number => 1_767_225_600_000 + offset;
const agentAttrs = { "gen_ai.operation.name": "invoke_agent", "agentflow.workflow": "wf@1.0.0" };

describe("otlp reader: the SDK fixture (semconv v1.41.0)", () => {
  const text = readFileSync(new URL("sdk-genai-v1.41.jsonl", FIXTURES), "utf8");
  const lines = text
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as unknown);

  it("is what the OpenTelemetry JS SDK writes today", () => {
    expect(makeSdkFixture()).toBe(text);
  });

  it("reads each run once its invoke_agent span has arrived, steps in start order", () => {
    const { pushes, end } = read(lines);
    // A run is read RUN_GRACE records after its invoke_agent span: in this short file, at the end.
    expect(pushes.flat()).toEqual([]);
    const byRun = (run: string): RunEvent[] => end.filter((e) => "run" in e && e.run === run);
    const runB = `${"2".padStart(32, "a")}/${"2".padStart(16, "b")}`;
    const runA = `${"1".padStart(32, "a")}/${"1".padStart(16, "b")}`;
    expect(byRun(runB)).toEqual([
      {
        kind: "run-start",
        run: runB,
        workflow: "agnt-verify@2.0.0",
        time: ms(5),
        at: {
          index: 1,
          file: "runs.jsonl",
          line: 2,
          ids: { traceId: "2".padStart(32, "a"), spanId: "2".padStart(16, "b") },
          time: "2026-01-01T00:00:00.005Z",
        },
      },
      {
        kind: "step",
        run: runB,
        nodeType: "tool",
        tool: "credit-check",
        status: "ok",
        output: { score: 640 },
        args: { applicant: "A-17" },
        start: ms(12),
        end: ms(14),
        at: {
          index: 0,
          file: "runs.jsonl",
          line: 1,
          ids: {
            traceId: "2".padStart(32, "a"),
            spanId: "5".padStart(16, "b"),
            parentSpanId: "2".padStart(16, "b"),
            toolCallId: "call_1",
          },
          time: "2026-01-01T00:00:00.012Z",
        },
      },
      expect.objectContaining({ kind: "run-end", run: runB, status: "completed", time: ms(28) }),
    ]);
    const a = byRun(runA);
    expect(a.map((e) => e.kind)).toEqual(["run-start", "step", "step", "route", "run-end"]);
    expect(a[0]).toMatchObject({
      workflow: "agnt-triage@1.2.0",
      process: { instance: "2251799813685249", element: "Task_Triage", process: "loan" },
    });
    expect(a[1]).toEqual({
      kind: "step",
      run: runA,
      nodeType: "llm",
      node: "classify",
      status: "ok",
      output: { risk: "high" },
      identity: { model: "gpt-4o", provider: "openai", promptSha256: sha256("Triage loans.") },
      tokens: 150,
      cost: { USD: 0.0125 },
      start: ms(10),
      end: ms(19),
      at: expect.objectContaining({ index: 0, line: 1 }) as unknown,
    });
    expect(a[2]).toMatchObject({ nodeType: "tool", tool: "notify", status: "error" });
    expect(a[3]).toMatchObject({ kind: "route", node: "route", route: "onTrue", next: "end" });
    expect(a[4]).toMatchObject({ kind: "run-end", status: "completed", at: { line: 3 } });
  });
});

describe("otlp reader: the OTLP/JSON example of opentelemetry-proto v1.11.0", () => {
  it("reads upper-case hex ids and reports a span whose parent never arrives", () => {
    const value = JSON.parse(
      readFileSync(new URL("proto-example-trace.json", FIXTURES), "utf8"),
    ) as unknown;
    expect(otlpReader.sniff(value)).toBe(true);
    const { pushes, end } = read([value]);
    expect(pushes[0]).toEqual([]);
    expect(end).toEqual([
      {
        kind: "unknown",
        class: "unknown",
        reason:
          "the span's parent eee19b7ec3c1b173 never arrived, so it belongs to no agent run read",
        at: {
          index: 0,
          file: "runs.jsonl",
          line: 1,
          ids: {
            traceId: "5b8efff798038103d269b633813fc60c",
            spanId: "eee19b7ec3c1b174",
            parentSpanId: "eee19b7ec3c1b173",
          },
          time: "2018-12-13T14:51:00.000Z",
        },
      },
    ]);
  });
});

describe("otlp reader: literal records", () => {
  it("orders a run's spans by start time whatever the file order, ints as strings", () => {
    const events = all([
      request(
        span(T, "0000000000000003", "0000000000000001", [30, 31], {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.name": "tool-b",
          "gen_ai.tool.call.arguments": {
            kvlistValue: { values: [{ key: "n", value: { intValue: "7" } }] },
          },
        }),
        span(T, "0000000000000002", "0000000000000001", [10, 20], {
          "gen_ai.operation.name": "text_completion",
          "gen_ai.system": "anthropic",
          "gen_ai.response.model": "claude",
          "gen_ai.output.messages": {
            arrayValue: {
              values: [
                {
                  kvlistValue: {
                    values: [
                      { key: "role", value: { stringValue: "assistant" } },
                      {
                        key: "parts",
                        value: {
                          arrayValue: {
                            values: [
                              {
                                kvlistValue: {
                                  values: [
                                    { key: "type", value: { stringValue: "text" } },
                                    { key: "content", value: { stringValue: '{"ok":true}' } },
                                  ],
                                },
                              },
                            ],
                          },
                        },
                      },
                    ],
                  },
                },
              ],
            },
          },
        }),
      ),
      request(span(T, "0000000000000001", undefined, [0, 40], agentAttrs)),
    ]);
    expect(events.map((e) => e.kind)).toEqual(["run-start", "step", "step", "run-end"]);
    expect(events[1]).toMatchObject({
      nodeType: "llm",
      output: { ok: true },
      identity: { model: "claude", provider: "anthropic" },
      at: { index: 0, line: 1, ids: { spanId: "0000000000000002" } },
    });
    expect(events[2]).toMatchObject({ nodeType: "tool", tool: "tool-b", args: { n: 7 } });
    expect(events[3]).toMatchObject({ run: `${T}/0000000000000001`, at: { index: 1, line: 2 } });
  });

  it("keeps interleaved runs apart by their ids", () => {
    const events = all([
      request(
        span(T, "00000000000000a2", "00000000000000a1", [1, 2], {
          "gen_ai.operation.name": "chat",
          "agentflow.node.id": "a",
        }),
        span(U, "00000000000000b2", "00000000000000b1", [1, 2], {
          "gen_ai.operation.name": "chat",
          "agentflow.node.id": "b",
        }),
      ),
      request(span(U, "00000000000000b1", undefined, [0, 3], agentAttrs)),
      request(span(T, "00000000000000a1", undefined, [0, 3], agentAttrs)),
    ]);
    const runOf = (e: RunEvent): string => ("run" in e ? (e.run ?? "") : "");
    expect(events.map((e) => [e.kind, runOf(e), "node" in e ? e.node : undefined])).toEqual([
      ["run-start", `${U}/00000000000000b1`, undefined],
      ["step", `${U}/00000000000000b1`, "b"],
      ["run-end", `${U}/00000000000000b1`, undefined],
      ["run-start", `${T}/00000000000000a1`, undefined],
      ["step", `${T}/00000000000000a1`, "a"],
      ["run-end", `${T}/00000000000000a1`, undefined],
    ]);
  });

  it("reads a nested invoke_agent as a run of its own, and as a delegation of its caller", () => {
    const events = all([
      request(
        span(T, "0000000000000003", "0000000000000002", [2, 3], {
          "gen_ai.operation.name": "chat",
        }),
        span(T, "0000000000000002", "0000000000000001", [1, 4], agentAttrs),
        span(T, "0000000000000004", "0000000000000001", [5, 6], {
          "gen_ai.operation.name": "chat",
        }),
        span(T, "0000000000000001", undefined, [0, 9], agentAttrs),
      ),
    ]);
    const inner = `${T}/0000000000000002`;
    const outer = `${T}/0000000000000001`;
    expect(events.map((e) => ["run" in e ? e.run : "", e.kind])).toEqual([
      [inner, "run-start"],
      [inner, "step"],
      [inner, "run-end"],
      [outer, "run-start"],
      [outer, "delegate"],
      [outer, "step"],
      [outer, "run-end"],
    ]);
    expect(events[4]).toEqual({
      kind: "delegate",
      run: outer,
      delegate: inner,
      workflow: "wf@1.0.0",
      at: {
        index: 0,
        file: "runs.jsonl",
        line: 1,
        time: "2026-01-01T00:00:00.001Z",
        ids: { traceId: T, spanId: "0000000000000002", parentSpanId: "0000000000000001" },
      },
    });
    expect(events[5]).toMatchObject({ at: { ids: { spanId: "0000000000000004" } } });
  });

  it("reports spans outside any invoke_agent, and unmapped spans inside a run", () => {
    const events = all([
      request(
        span(U, "0000000000000002", "0000000000000001", [1, 2], {
          "gen_ai.operation.name": "chat",
        }),
        span(U, "0000000000000001", undefined, [0, 3], { "http.request.method": "GET" }),
        span(T, "0000000000000002", "0000000000000001", [1, 2], {
          "gen_ai.operation.name": "embeddings",
        }),
        span(T, "0000000000000003", "0000000000000001", [3, 4], { "db.system.name": "redis" }),
        span(T, "0000000000000001", undefined, [0, 5], agentAttrs),
      ),
    ]);
    const outside = "the span is outside any invoke_agent span, so it belongs to no agent run";
    expect(events.slice(0, 2)).toEqual([
      expect.objectContaining({ kind: "unknown", class: "unknown", reason: outside }),
      expect.objectContaining({
        kind: "unknown",
        reason: outside,
        at: expect.objectContaining({
          ids: expect.objectContaining({ spanId: "0000000000000002" }) as unknown,
        }) as unknown,
      }),
    ]);
    expect(events[0]).not.toHaveProperty("run");
    expect(events.slice(2).map((e) => [e.kind, e.kind === "unknown" ? e.reason : ""])).toEqual([
      ["run-start", ""],
      [
        "unknown",
        "gen_ai.operation.name embeddings is not an llm or tool step of an agent workflow",
      ],
      [
        "unknown",
        "the span is neither a GenAI operation nor a decision recorded with agentflow.route.*",
      ],
      ["run-end", ""],
    ]);
    expect(events[3]).toMatchObject({ run: `${T}/0000000000000001` });
  });

  it("marks ambiguous records: several choices, a repeated attribute or span, an unversioned agent", () => {
    const twoChoices = JSON.stringify([
      { role: "assistant", parts: [{ type: "text", content: '{"a":1}' }] },
      { role: "assistant", parts: [{ type: "text", content: '{"a":2}' }] },
    ]);
    const events = all([
      request(
        span(T, "0000000000000002", "0000000000000001", [1, 2], {
          "gen_ai.operation.name": "chat",
          "gen_ai.output.messages": twoChoices,
        }),
        span(T, "0000000000000003", "0000000000000001", [3, 4], {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.name": "x",
        }),
      ),
      request(
        {
          ...span(T, "0000000000000004", "0000000000000001", [5, 6], {}),
          attributes: [
            { key: "gen_ai.operation.name", value: { stringValue: "chat" } },
            { key: "agentflow.node.id", value: { stringValue: "a" } },
            { key: "agentflow.node.id", value: { stringValue: "b" } },
          ],
        },
        span(T, "0000000000000003", "0000000000000001", [3, 4], {
          "gen_ai.operation.name": "execute_tool",
        }),
        span(T, "0000000000000001", undefined, [0, 9], {
          "gen_ai.operation.name": "invoke_agent",
          "gen_ai.agent.id": "agnt-x",
        }),
      ),
    ]);
    const ambiguous = events.filter((e) => e.kind === "unknown" && e.class === "ambiguous");
    expect(ambiguous.map((e) => (e.kind === "unknown" ? e.reason : ""))).toEqual([
      "span 0000000000000003 of trace 0af7651916cd43dd8448eb211c80319c was already read",
      "the run names agent agnt-x without gen_ai.agent.version, so its workflow version is not known",
      "gen_ai.output.messages holds several choices: which one is the output is not known",
      "attribute agentflow.node.id is recorded more than once",
    ]);
    const start = events.find((e) => e.kind === "run-start");
    expect(start).not.toHaveProperty("workflow");
    expect(events.find((e) => e.kind === "step" && e.nodeType === "llm")).not.toHaveProperty(
      "output",
    );
  });

  it("reads a run whose invoke_agent span never arrives: steps and no run-end", () => {
    const { pushes, end } = read([
      request(
        span(T, "0000000000000003", "0000000000000001", [3, 4], {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.name": "t",
        }),
        span(T, "0000000000000002", "0000000000000001", [1, 2], {
          "gen_ai.operation.name": "chat",
          "agentflow.node.id": "n",
        }),
      ),
    ]);
    expect(pushes[0]).toEqual([]);
    const run = `${T}/0000000000000001`;
    expect(end.map((e) => [e.kind, "run" in e ? e.run : ""])).toEqual([
      ["run-start", run],
      ["step", run],
      ["step", run],
    ]);
    expect(end[0]).toMatchObject({ time: ms(1), at: { ids: { spanId: "0000000000000002" } } });
    expect(end[0]).not.toHaveProperty("workflow");
  });

  it("keeps a run open for RUN_GRACE records: a span on a later line still belongs to it", () => {
    const { pushes, end } = read([
      request(span(T, "0000000000000001", undefined, [0, 9], agentAttrs)),
      request(
        span(T, "0000000000000002", "0000000000000001", [1, 4], {
          "gen_ai.operation.name": "chat",
        }),
      ),
    ]);
    expect(pushes.flat()).toEqual([]);
    expect(end.map((e) => e.kind)).toEqual(["run-start", "step", "run-end"]);
  });

  it("reports a span that arrives after its run was read", () => {
    const filler = Array.from({ length: RUN_GRACE }, () => ({ resourceSpans: [] }));
    const { pushes } = read([
      request(span(T, "0000000000000001", undefined, [0, 9], agentAttrs)),
      ...filler,
      request(
        span(T, "0000000000000003", "0000000000000002", [2, 3], {
          "gen_ai.operation.name": "chat",
        }),
        span(T, "0000000000000002", "0000000000000001", [1, 4], {
          "gen_ai.operation.name": "chat",
        }),
      ),
    ]);
    expect(pushes[RUN_GRACE]?.map((e) => e.kind)).toEqual(["run-start", "run-end"]);
    expect(pushes[RUN_GRACE + 1]).toEqual([
      expect.objectContaining({
        kind: "unknown",
        run: `${T}/0000000000000001`,
        reason:
          "the span arrived after its run's invoke_agent span, so the run was read without it",
        at: expect.objectContaining({
          line: RUN_GRACE + 2,
          ids: expect.objectContaining({ spanId: "0000000000000002" }) as unknown,
        }) as unknown,
      }),
      expect.objectContaining({ kind: "unknown", run: `${T}/0000000000000001` }),
    ]);
  });

  it("turns truncated and invalid records into unknown events without throwing", () => {
    const events = all([
      42,
      { resourceSpans: "x" },
      { resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: T }] }] }] },
      request(
        span(T, "0000000000000002", "xyz", [0, 1], {}),
        span(T, "0000000000000004", "0000000000000001", [0, 1], {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.name": "t",
          "gen_ai.tool.call.arguments": "{not json",
        }),
        span(T, "0000000000000001", undefined, [0, 2], {
          ...agentAttrs,
          "gen_ai.usage.input_tokens": { intValue: "many" },
        }),
      ),
    ]);
    expect(events.map((e) => (e.kind === "unknown" ? [e.reason, e.at.line] : e.kind))).toEqual([
      ["the record is not an OTLP/JSON ExportTraceServiceRequest (no resourceSpans array)", 1],
      ["the record is not an OTLP/JSON ExportTraceServiceRequest (no resourceSpans array)", 2],
      ["the span has no valid traceId (32 hex digits) and spanId (16 hex digits)", 3],
      ["the span's parentSpanId is not 16 hex digits", 4],
      "run-start",
      ["attribute gen_ai.usage.input_tokens does not hold an OTLP AnyValue", 4],
      "step",
      ["gen_ai.tool.call.arguments is not a JSON object", 4],
      "run-end",
    ]);
  });

  it("decodes deep and hostile attribute values without recursion or prototype changes", () => {
    let deep: Record<string, unknown> = { stringValue: "leaf" };
    for (let i = 0; i < 20_000; i += 1) deep = { arrayValue: { values: [deep] } };
    const events = all([
      request(
        span(T, "0000000000000002", "0000000000000001", [1, 2], {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.name": "t",
          "gen_ai.tool.call.arguments": {
            kvlistValue: {
              values: [
                { key: "__proto__", value: { kvlistValue: { values: [] } } },
                { key: "deep", value: deep },
              ],
            },
          },
        }),
        span(T, "0000000000000001", undefined, [0, 3], agentAttrs),
      ),
    ]);
    const step = events[1];
    expect(step?.kind).toBe("step");
    const args = step?.kind === "step" ? step.args : undefined;
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(Object.keys(args ?? {})).toEqual(["__proto__", "deep"]);
  });

  it("says a cost it cannot read (another spelling, below zero, no currency) and sums none of it", () => {
    const events = all([
      request(
        span(T, "0000000000000002", "0000000000000001", [1, 2], {
          "gen_ai.operation.name": "chat",
          "agentflow.cost.usd": 5,
          "agentflow.cost.EUR": -2,
          "agentflow.cost": 3,
          "agentflow.cost.GBP": 1,
        }),
        span(T, "0000000000000001", undefined, [0, 9], agentAttrs),
      ),
    ]);
    const reasons = events.flatMap((e) => (e.kind === "unknown" ? [e.reason] : []));
    expect(reasons.map((r) => r.slice(r.indexOf("agentflow.cost")))).toEqual([
      "agentflow.cost.usd names no currency: a cost is agentflow.cost.<ISO 4217 code>, such as agentflow.cost.USD",
      "agentflow.cost.EUR is not an amount (a number, zero or more)",
      "agentflow.cost names no currency: a cost is agentflow.cost.<ISO 4217 code>, such as agentflow.cost.USD",
    ]);
    expect(events.find((e) => e.kind === "step")).toMatchObject({ cost: { GBP: 1 } });
  });

  it("reads agentflow's own attributes where the conventions have none", () => {
    const events = all([
      request(
        span(T, "0000000000000002", "0000000000000001", [1, 2], {
          "gen_ai.operation.name": "generate_content",
          "gen_ai.prompt.name": "summary",
          "agentflow.prompt.ref": "prm:summary@1.0.0",
          "agentflow.prompt.sha256": "AB".repeat(32),
          "agentflow.node.output": '{"from":"agentflow"}',
          "gen_ai.output.messages": JSON.stringify([
            { role: "assistant", parts: [{ type: "text", content: '{"from":"model"}' }] },
          ]),
          "agentflow.cost.EUR": 2,
        }),
        span(T, "0000000000000003", "0000000000000001", [3, 4], {
          "gen_ai.operation.name": "chat",
          "gen_ai.system_instructions": "Be brief.",
          "agentflow.prompt.sha256": "0".repeat(64),
        }),
        span(T, "0000000000000004", "0000000000000001", [5, 6], {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.name": "t",
          "agentflow.tool.args": '{"a":1}',
        }),
        span(T, "0000000000000001", undefined, [0, 9], agentAttrs),
      ),
    ]);
    expect(events[1]).toMatchObject({
      output: { from: "agentflow" },
      identity: { promptRef: "prm:summary@1.0.0", promptSha256: "ab".repeat(32) },
      cost: { EUR: 2 },
    });
    expect(events[2]).toMatchObject({ identity: { promptSha256: sha256("Be brief.") } });
    expect(events[3]).toMatchObject({
      kind: "unknown",
      class: "ambiguous",
      reason: "agentflow.prompt.sha256 differs from the digest of gen_ai.system_instructions",
    });
    expect(events[4]).toMatchObject({ kind: "step", args: { a: 1 } });
  });

  const kvlist = { kvlistValue: { values: [{ key: "name", value: { stringValue: "refund" } }] } };
  const list = (...items: string[]) => ({
    arrayValue: { values: items.map((v) => ({ stringValue: v })) },
  });
  it.each([
    {
      what: "a tool name that is a kvlist",
      attrs: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": kvlist },
      reason: "attribute gen_ai.tool.name is an object (key-value list), not text",
      step: undefined,
    },
    {
      what: "an empty tool name",
      attrs: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "" },
      reason: "attribute gen_ai.tool.name is empty",
      step: undefined,
    },
    {
      what: "a tool name that is a list, on a span naming its node",
      attrs: {
        "gen_ai.operation.name": "execute_tool",
        "agentflow.node.id": "pull",
        "gen_ai.tool.name": list("tool:payments-refund"),
      },
      reason: "attribute gen_ai.tool.name is a list, not text",
      step: { nodeType: "tool", node: "pull" },
    },
    {
      what: "a requested model that is a list",
      attrs: { "gen_ai.operation.name": "chat", "gen_ai.request.model": list("gpt-5") },
      reason: "attribute gen_ai.request.model is a list, not text",
      step: { nodeType: "llm" },
    },
    {
      what: "a prompt name that is a list",
      attrs: {
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": "gpt-4o",
        "gen_ai.prompt.name": list("prm:other@1.0.0"),
      },
      reason: "attribute gen_ai.prompt.name is a list, not text",
      step: { nodeType: "llm", identity: { model: "gpt-4o" } },
    },
  ])("reads $what as a record not read, never as an absent name", ({ attrs, reason, step }) => {
    const events = all([
      request(
        span(T, "0000000000000002", "0000000000000001", [1, 2], attrs),
        span(T, "0000000000000001", undefined, [0, 3], agentAttrs),
      ),
    ]);
    const run = `${T}/0000000000000001`;
    const found = { kind: "unknown", run, class: "unknown", reason };
    expect(events.slice(1, -1)).toEqual(
      step === undefined
        ? [expect.objectContaining(found)]
        : [expect.objectContaining({ kind: "step", ...step }), expect.objectContaining(found)],
    );
    if (step !== undefined && !("identity" in step))
      expect(events[1]).not.toHaveProperty("identity");
    if (step !== undefined) expect(events[1]).not.toHaveProperty("tool");
  });

  it("reads a workflow that is a list as a record not read, and names no workflow", () => {
    const events = all([
      request(
        span(T, "0000000000000001", undefined, [0, 3], {
          "gen_ai.operation.name": "invoke_agent",
          "agentflow.workflow": list("agnt-credit-risk@1.0.0"),
          "gen_ai.agent.id": "agnt-credit-risk",
          "gen_ai.agent.version": 1,
        }),
      ),
    ]);
    expect(events[0]).toMatchObject({ kind: "run-start" });
    expect(events[0]).not.toHaveProperty("workflow");
    expect(events.flatMap((e) => (e.kind === "unknown" ? [e.reason] : []))).toEqual([
      "attribute agentflow.workflow is a list, not text",
      "attribute gen_ai.agent.version is a number, not text",
    ]);
  });

  it("recognises its records", () => {
    expect(otlpReader.source).toBe("otlp");
    expect(otlpReader.schemaVersion).toBe("1.41.0");
    expect(otlpReader.sniff(request())).toBe(true);
    expect(otlpReader.sniff({ resourceLogs: [] })).toBe(false);
    expect(otlpReader.sniff([])).toBe(false);
  });
});

describe("otlp exporter of simulated runs", () => {
  it("writes a run the reader gives back node by node", () => {
    const wf = getTemplate("research");
    if (wf === undefined) throw new Error("no template");
    const output = { query: "q", answer: "a", sources: [], is_complete: true };
    const state = simulate(wf, {
      fixtures: { "llm-1": { outputs: [output] } },
      input: { query: "q" },
    });
    const text = otlpFromSimulation(wf, state, { id: "run-1", startMs: 1000 });
    expect(otlpFromSimulation(wf, state, { id: "run-1", startMs: 1000 })).toBe(text);
    const events = all(
      text
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as unknown),
    );
    const expected = state.trail.flatMap((r) =>
      r.type === "move" ? [["step", r.nodeId]] : r.type === "decision" ? [["route", r.nodeId]] : [],
    );
    expect(events.map((e) => [e.kind, "node" in e ? e.node : undefined])).toEqual([
      ["run-start", undefined],
      ...expected,
      ["run-end", undefined],
    ]);
    expect(events[0]).toMatchObject({ workflow: `${wf.id}@${wf.version}`, time: 1000 });
    expect(events[1]).toMatchObject({ output, identity: { model: "gpt-4o" } });
    expect(events.at(-1)).toMatchObject({ status: "completed" });
  });

  it("writes failed attempts as error steps and a blocked run as failed", () => {
    const wf = getTemplate("research");
    if (wf === undefined) throw new Error("no template");
    const output = { query: "q", answer: "a", sources: [], is_complete: true };
    const read1 = (fails: number): RunEvent[] => {
      const fixtures = { "llm-1": { outputs: [output], fails } };
      const state = simulate(wf, { fixtures, input: { query: "q" } });
      const text = otlpFromSimulation(wf, state, { id: `run-${String(fails)}`, startMs: 5000 });
      return all([JSON.parse(text) as unknown]);
    };
    const steps = (events: RunEvent[]): string[] =>
      events.flatMap((e) => (e.kind === "step" ? [`${e.node ?? ""}:${e.status}`] : []));
    const retried = read1(2);
    expect(steps(retried)).toEqual(["llm-1:error", "llm-1:error", "llm-1:ok", "tool-2:ok"]);
    expect(retried.at(-1)).toMatchObject({ kind: "run-end", status: "completed" });
    const blocked = read1(10);
    expect(steps(blocked)).toEqual(["llm-1:error", "llm-1:error", "llm-1:error", "llm-1:error"]);
    expect(blocked.at(-1)).toMatchObject({ kind: "run-end", status: "failed" });
  });
});
