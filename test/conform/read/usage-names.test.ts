/**
 * Tokens as the LangGraph and Camunda readers find them: under every name the source records
 * them (LangChain's `usage_metadata`, else the provider's `response_metadata`; Camunda's
 * `metrics`), with a count recorded in part marked as a lower bound (`tokensPartial`), and a
 * count that is no number said as a record not read — never read as no tokens.
 */
import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../../src/conform/index.js";
import { createCamundaHistoryReader } from "../../../src/conform/read/camunda-history.js";
import { langGraphReader } from "../../../src/conform/read/langgraph.js";

const reasons = (events: readonly RunEvent[]) =>
  events.flatMap((e) => (e.kind === "unknown" ? [e.reason] : []));
const usageOf = (events: readonly RunEvent[]) =>
  events.flatMap((e) =>
    e.kind === "step" && e.nodeType === "llm" ? [[e.tokens, e.tokensPartial]] : [],
  );

/** An AIMessage as LangGraph Python writes it, with `fields` added. */
const ai = (fields: object) => ({
  type: "ai",
  content: "",
  response_metadata: { model_name: "gpt-4o" },
  ...fields,
});

function readLangGraph(...messages: object[]): RunEvent[] {
  const reader = langGraphReader.create();
  const record = { a: { n: 1, messages } };
  return [...reader.push({ value: record, index: 0, line: 1, file: "run.jsonl" }), ...reader.end()];
}

describe("langgraph: an AIMessage's tokens", () => {
  const meta = (usage: object) => ({ response_metadata: { model_name: "gpt-4o", ...usage } });
  it.each([
    [
      "usage_metadata (the control)",
      [ai({ usage_metadata: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } })],
      [[15, undefined]],
      [],
    ],
    [
      "LangChain JS's response_metadata.tokenUsage",
      [ai(meta({ tokenUsage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 } }))],
      [[15, undefined]],
      [],
    ],
    [
      "LangChain Python's response_metadata.token_usage",
      [ai(meta({ token_usage: { prompt_tokens: 10, completion_tokens: 5 } }))],
      [[15, undefined]],
      [],
    ],
    [
      "the provider's response_metadata.usage",
      [ai(meta({ usage: { input_tokens: 10, output_tokens: 5 } }))],
      [[15, undefined]],
      [],
    ],
    [
      "input tokens alone: a lower bound",
      [ai({ usage_metadata: { input_tokens: 10 } })],
      [[10, true]],
      [],
    ],
    [
      "two model calls, one recording no tokens: a lower bound",
      [ai({ usage_metadata: { input_tokens: 10, output_tokens: 5 } }), ai({})],
      [[15, true]],
      [],
    ],
    [
      "a count that is text: a record not read",
      [ai({ usage_metadata: { input_tokens: "10", output_tokens: 5 } })],
      [[5, true]],
      [
        "The usage_metadata.input_tokens of an AIMessage is not a count, in the update of node 'a'.",
      ],
    ],
  ])("%s", (_, messages, usage, unread) => {
    const events = readLangGraph(...messages);
    expect(usageOf(events)).toEqual(usage);
    expect(reasons(events)).toEqual(unread);
  });
});

describe("camunda-agent-history: an ASSISTANT item's tokens", () => {
  const assistant = (metrics: object) => ({
    historyItemKey: "11",
    historyItemId: "id-11",
    agentInstanceKey: "1",
    loopIteration: 1,
    role: "ASSISTANT",
    content: [{ contentType: "OBJECT", object: { is_complete: true } }],
    toolCalls: [],
    metrics,
    commitStatus: "COMMITTED",
    producedAt: "2026-01-01T00:00:01.000Z",
    model: "gpt-4o",
  });
  it.each([
    ["input and output (the control)", { inputTokens: 10, outputTokens: 5 }, [[15, undefined]], []],
    ["input alone: a lower bound", { inputTokens: 10 }, [[10, true]], []],
    [
      "a count that is text: a record not read",
      { inputTokens: "10", outputTokens: 5 },
      [[5, true]],
      [expect.stringContaining("metrics.inputTokens of")],
    ],
  ])("%s", (_, metrics, usage, unread) => {
    const reader = createCamundaHistoryReader();
    const events = [
      ...reader.push({ value: assistant(metrics), index: 0, line: 1 }),
      ...reader.end(),
    ];
    expect(usageOf(events)).toEqual(usage);
    expect(reasons(events)).toEqual(unread);
  });
});
