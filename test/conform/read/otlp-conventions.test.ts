/**
 * What OTLP runs record in ways the reader must not pass over: an output it cannot read (cut
 * short, free text, not recorded) in a loop whose earlier iteration it would otherwise decide
 * on; tools, model calls and agents recorded under a step in another convention (OpenInference,
 * OpenLLMetry); token counts under other names; a step that runs while the one it follows has
 * not ended. Literal OTLP/JSON spans of the research template (llm-1 → tool-2 → dec-3, ending
 * when `is_complete` holds, else retrying llm-1), checked by the real reader and checker.
 */
import { describe, expect, it } from "vitest";
import type { StepEvent } from "../../../src/conform/index.js";
import { approvedOf, check, readOtlp, request, span, TRACE } from "./otlp-spans.js";

const AGENT = "00000000000000a0";
const RUN = `${TRACE}/${AGENT}`;
type Attrs = Readonly<Record<string, string | number>>;

/** What a model call records besides its output: its model, tokens and cost. */
const CALL: Attrs = {
  "gen_ai.operation.name": "chat",
  "agentflow.node.id": "llm-1",
  "gen_ai.request.model": "gpt-4o",
  "gen_ai.usage.input_tokens": 80,
  "gen_ai.usage.output_tokens": 20,
  "agentflow.cost.USD": 0.01,
};

/** The output as the conventions record a reply: one assistant message with one text part. */
const reply = (content: string): string =>
  JSON.stringify([{ role: "assistant", parts: [{ type: "text", content }] }]);

const llm = (id: string, at: number, attrs: Attrs, parent = AGENT) =>
  span(id, parent, [at, at + 5], { ...CALL, ...attrs });
const tool = (id: string, at: number, attrs: Attrs = {}, parent = AGENT) =>
  span(id, parent, [at, at + 5], {
    "gen_ai.operation.name": "execute_tool",
    "agentflow.node.id": "tool-2",
    "gen_ai.tool.name": "tool:browser-search",
    "gen_ai.tool.call.arguments": '{"query":"q"}',
    "gen_ai.tool.call.result": "{}",
    ...attrs,
  });
const agent = (end: number) =>
  span(AGENT, undefined, [0, end], {
    "gen_ai.operation.name": "invoke_agent",
    "agentflow.workflow": "agnt-rsch@2.1.0",
  });

/** The one run's verdict, its findings (class or reason, node), and the reasons of its unknowns. */
function verdictOf(spans: readonly Record<string, unknown>[]) {
  const events = readOtlp([request(...spans)]);
  const run = check(approvedOf(), events).runs.find((r) => r.run === RUN);
  return {
    verdict: run?.verdict,
    found: [
      ...(run?.deviations ?? []).map((d) => [d.class, d.node]),
      ...(run?.unverified ?? []).map((u) => [u.reason, u.node]),
    ],
    unknown: events.flatMap((e) => (e.kind === "unknown" ? [e.reason] : [])),
    events,
  };
}

const TRUNCATED = reply('{"is_complete":true}').slice(0, 40);
const NOT_JSON =
  "gen_ai.output.messages is not JSON text (it may have been cut short by an attribute length limit)";
const PROSE = "the reply's text in gen_ai.output.messages is not a JSON object";

describe("otlp: an llm step's output from gen_ai.output.messages", () => {
  it.each([
    ["a JSON object", reply('{"is_complete":true}'), { is_complete: true }, undefined, []],
    ["JSON cut short", TRUNCATED, undefined, NOT_JSON, [NOT_JSON]],
    ["JSON in prose", reply('Here: {"is_complete":true}'), undefined, PROSE, []],
    [
      "a reply with no text part",
      JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", name: "x" }] }]),
      undefined,
      "the reply in gen_ai.output.messages has no text part",
      [],
    ],
  ] as const)("%s", (_, messages, output, unread, unknown) => {
    const events = readOtlp([
      request(llm("00000000000000a1", 10, { "gen_ai.output.messages": messages }), agent(100)),
    ]);
    const step = events.find((e): e is StepEvent => e.kind === "step");
    expect([step?.output, step?.outputUnread]).toEqual([output, unread]);
    expect(events.flatMap((e) => (e.kind === "unknown" ? [e.reason] : []))).toEqual(unknown);
  });
});

describe("otlp: a loop whose second assessment was not read decides nothing on the first", () => {
  // llm-1 says incomplete, then (second) complete, yet the run retries: a contradiction when the
  // second output is read; undecidable, never conforming, when it is not.
  const run = (second: Attrs) => [
    llm("00000000000000a1", 10, { "gen_ai.output.messages": reply('{"is_complete":false}') }),
    tool("00000000000000a2", 20),
    llm("00000000000000a3", 30, second),
    tool("00000000000000a4", 40),
    llm("00000000000000a5", 50, { "gen_ai.output.messages": reply('{"is_complete":true}') }),
    tool("00000000000000a6", 60),
    agent(100),
  ];
  it.each([
    [
      "read (the control)",
      { "gen_ai.output.messages": reply('{"is_complete":true}') },
      "deviating",
      [["ROUTE_CONTRADICTS", "dec-3"]],
    ],
    [
      "cut short by an attribute length limit",
      { "gen_ai.output.messages": TRUNCATED },
      "unverified",
      [
        ["EVENT_UNMAPPED", undefined],
        ["ROUTE_UNDECIDABLE", "dec-3"],
      ],
    ],
    [
      "JSON inside prose",
      { "gen_ai.output.messages": reply('Here: {"is_complete":true}') },
      "unverified",
      [["ROUTE_UNDECIDABLE", "dec-3"]],
    ],
    ["not recorded", {}, "unverified", [["ROUTE_UNDECIDABLE", "dec-3"]]],
  ] as const)("second output %s", (_, second, verdict, found) => {
    const got = verdictOf(run(second));
    expect([got.verdict, got.found]).toEqual([verdict, found]);
  });
});

/** A span `id` under `parent` at 11–13 ms with `attrs` (another convention's, or plumbing). */
const under = (id: string, parent: string, attrs: Attrs) => span(id, parent, [11, 13], attrs);
const LLM = "00000000000000a1";
const TOOL = "00000000000000a2";
const conforming = (...extra: Record<string, unknown>[]) => [
  llm(LLM, 10, { "agentflow.node.output": '{"is_complete":true}' }),
  tool(TOOL, 20),
  ...extra,
  agent(100),
];

describe("otlp: operations of other conventions are read as records not read, never as plumbing", () => {
  it.each([
    {
      name: "an HTTP request under a model call is that call's plumbing (the control)",
      spans: conforming(
        under("00000000000000b1", LLM, { "http.request.method": "POST", "url.full": "https://x" }),
      ),
      verdict: "conforming",
      unknown: [],
    },
    {
      name: "an OpenInference TOOL span under a model call",
      spans: conforming(
        under("00000000000000b1", LLM, {
          "openinference.span.kind": "TOOL",
          "tool.name": "delete_customer",
          "tool.parameters": '{"id":"all"}',
        }),
      ),
      verdict: "unverified",
      unknown: [
        "the span is of kind TOOL in OpenInference (openinference.span.kind = TOOL, tool.name = delete_customer): an operation recorded in a convention this reader does not read (it reads the OpenTelemetry GenAI conventions), so what it did is not checked",
      ],
    },
    {
      name: "an OpenLLMetry tool span under a model call",
      spans: conforming(
        under("00000000000000b1", LLM, {
          "traceloop.span.kind": "tool",
          "traceloop.entity.name": "delete_customer",
        }),
      ),
      verdict: "unverified",
      unknown: [
        "the span is of kind tool in OpenLLMetry (Traceloop) (traceloop.span.kind = tool, traceloop.entity.name = delete_customer): an operation recorded in a convention this reader does not read (it reads the OpenTelemetry GenAI conventions), so what it did is not checked",
      ],
    },
    {
      name: "an OpenInference agent, with its model call and tool, under a tool call",
      spans: conforming(
        under("00000000000000b1", TOOL, {
          "openinference.span.kind": "AGENT",
          "agent.name": "refund-agent",
        }),
        under("00000000000000b2", "00000000000000b1", {
          "openinference.span.kind": "LLM",
          "llm.model_name": "gpt-5-unapproved",
        }),
        under("00000000000000b3", "00000000000000b1", {
          "openinference.span.kind": "TOOL",
          "tool.name": "issue_refund",
        }),
      ),
      verdict: "unverified",
      unknown: [
        expect.stringContaining("of kind AGENT in OpenInference (openinference.span.kind = AGENT"),
        expect.stringContaining("of kind LLM in OpenInference (openinference.span.kind = LLM"),
        expect.stringContaining("tool.name = issue_refund"),
      ],
    },
    {
      name: "llm.* attributes with no span kind, under a model call",
      spans: conforming(under("00000000000000b1", LLM, { "llm.model_name": "gpt-5-unapproved" })),
      verdict: "unverified",
      unknown: [
        "the span records llm.* attributes of OpenInference or OpenLLMetry (llm.model_name = gpt-5-unapproved): an operation recorded in a convention this reader does not read (it reads the OpenTelemetry GenAI conventions), so what it did is not checked",
      ],
    },
    {
      name: "an OpenLLMetry model call (gen_ai.* without gen_ai.operation.name) in the run",
      spans: conforming(
        under("00000000000000b1", AGENT, {
          "gen_ai.system": "openai",
          "gen_ai.request.model": "gpt-4o",
          "llm.request.type": "chat",
        }),
      ),
      verdict: "unverified",
      unknown: [
        "the span records a model call (gen_ai.request.model = gpt-4o) without gen_ai.operation.name, so it is read as no step; it records llm.* attributes of OpenInference or OpenLLMetry (llm.request.type = chat)",
      ],
    },
  ])("$name", ({ spans, verdict, unknown }) => {
    const got = verdictOf(spans);
    expect(got.verdict).toBe(verdict);
    expect(got.unknown).toEqual(unknown);
    expect(got.found).toEqual(unknown.map(() => ["EVENT_UNMAPPED", undefined]));
  });
});

describe("otlp: a span of another convention outside any run", () => {
  it("says what it declares itself, beside why it belongs to no run", () => {
    const root = span("00000000000000c1", undefined, [0, 5], {
      "openinference.span.kind": "TOOL",
      "tool.name": "delete_customer",
    });
    expect(
      readOtlp([request(root)]).flatMap((e) => (e.kind === "unknown" ? [e.reason] : [])),
    ).toEqual([
      "the span is outside any invoke_agent span, so it belongs to no agent run; it is of kind TOOL in OpenInference (openinference.span.kind = TOOL, tool.name = delete_customer)",
    ]);
  });
});

describe("otlp: a convention's kind written as a structured value", () => {
  it("is named as such, not written out, however deep it nests (no stack overflow)", () => {
    let deep: unknown = { stringValue: "TOOL" };
    for (let i = 0; i < 200_000; i++) deep = { arrayValue: { values: [deep] } };
    const odd = span(
      "00000000000000b1",
      LLM,
      [11, 13],
      {},
      {
        attributes: [{ key: "openinference.span.kind", value: deep }],
      },
    );
    const got = verdictOf(conforming(odd));
    expect(got.verdict).toBe("unverified");
    expect(got.unknown).toEqual([
      expect.stringContaining(
        "the span is of kind (a list) in OpenInference (openinference.span.kind = (a list))",
      ),
    ]);
  });
});

describe("otlp: tokens under every name a run may record them, and a budget never passed on none", () => {
  const usage = (attrs: Attrs): Record<string, unknown>[] => [
    span(LLM, AGENT, [10, 15], {
      "gen_ai.operation.name": "chat",
      "agentflow.node.id": "llm-1",
      "gen_ai.request.model": "gpt-4o",
      "agentflow.node.output": '{"is_complete":true}',
      ...attrs,
    }),
    tool(TOOL, 20),
    agent(100),
  ];
  const cost = { "agentflow.cost.USD": 0.01 };
  // The template's budget: maxTokens 120000, maxCostUSD 4.
  it.each([
    [
      "gen_ai.usage.input_tokens + output_tokens (the control)",
      { "gen_ai.usage.input_tokens": 100000, "gen_ai.usage.output_tokens": 30000, ...cost },
      130000,
      [["BUDGET_EXCEEDED", undefined]],
    ],
    [
      "the deprecated gen_ai.usage.prompt_tokens + completion_tokens",
      { "gen_ai.usage.prompt_tokens": 100000, "gen_ai.usage.completion_tokens": 30000, ...cost },
      130000,
      [["BUDGET_EXCEEDED", undefined]],
    ],
    [
      "OpenLLMetry's gen_ai.usage.total_tokens alone",
      { "gen_ai.usage.total_tokens": 130000, ...cost },
      130000,
      [["BUDGET_EXCEEDED", undefined]],
    ],
    [
      "OpenLLMetry's llm.usage.total_tokens alone",
      { "llm.usage.total_tokens": 130000, ...cost },
      130000,
      [["BUDGET_EXCEEDED", undefined]],
    ],
    [
      "OpenInference's llm.token_count.*",
      {
        "llm.token_count.prompt": 100000,
        "llm.token_count.completion": 30000,
        "llm.token_count.total": 130000,
        ...cost,
      },
      130000,
      [["BUDGET_EXCEEDED", undefined]],
    ],
    [
      "a total larger than input + output",
      {
        "gen_ai.usage.input_tokens": 10,
        "gen_ai.usage.output_tokens": 10,
        "gen_ai.usage.total_tokens": 130000,
        ...cost,
      },
      130000,
      [["BUDGET_EXCEEDED", undefined]],
    ],
    ["no tokens", cost, undefined, [["USAGE_UNRECORDED", "llm-1"]]],
    [
      "input tokens alone",
      { "gen_ai.usage.input_tokens": 100, ...cost },
      100,
      [["USAGE_UNRECORDED", "llm-1"]],
    ],
    [
      "tokens and no cost",
      { "gen_ai.usage.input_tokens": 100, "gen_ai.usage.output_tokens": 10 },
      110,
      [["USAGE_UNRECORDED", "llm-1"]],
    ],
  ] as const)("%s", (_, attrs, tokens, found) => {
    const got = verdictOf(usage(attrs));
    const step = got.events.find((e): e is StepEvent => e.kind === "step");
    expect(step?.tokens).toBe(tokens);
    expect(got.found).toEqual(found);
  });
});

describe("otlp: a step that began before the step it follows had ended", () => {
  it.each([
    ["tool-2 begins as llm-1 ends (the control)", 15, "conforming", []],
    ["tool-2 begins while llm-1 runs", 12, "unverified", [["STEPS_OVERLAP", "tool-2"]]],
  ] as const)("%s", (_, at, verdict, found) => {
    const spans = [
      llm(LLM, 10, { "agentflow.node.output": '{"is_complete":true}' }),
      tool(TOOL, at),
      agent(100),
    ];
    const got = verdictOf(spans);
    expect([got.verdict, got.found]).toEqual([verdict, found]);
    const overlap = check(approvedOf(), got.events).runs[0]?.unverified[0];
    if (overlap !== undefined)
      expect(overlap.data).toEqual({ node: "tool-2", previous: "llm-1", overlapMs: 3 });
  });
});
