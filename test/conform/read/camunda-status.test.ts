/**
 * A history item's `commitStatus`: Camunda 8.10 defines COMMITTED, PENDING and DISCARDED
 * (`AgentInstanceHistoryCommitStatusEnum`) and always writes one. A step's item with any other
 * value, or none, is not read as a success: its run gets a record not read (EVENT_UNMAPPED), and
 * the step is read as it would be had it committed (a dispatched call it made may have run).
 */
import { describe, expect, it } from "vitest";
import { createCamundaHistoryReader } from "../../../src/conform/read/camunda-history.js";
import type { RunEvent } from "../../../src/conform/types.js";

const RUN = "2251799813690001";

/** A history item in the AgentInstanceHistoryItemResult shape; `commitStatus` as given. */
function item(key: number, role: string, fields: Record<string, unknown>): unknown {
  return {
    historyItemKey: String(key),
    historyItemId: `id-${String(key)}`,
    agentInstanceKey: RUN,
    elementInstanceKey: "7",
    loopIteration: 1,
    role,
    content: [],
    toolCalls: [],
    metrics: null,
    producedAt: new Date(1_700_000_000_000 + key * 1000).toISOString(),
    model: null,
    provider: null,
    systemPrompt: [],
    ...fields,
  };
}

const status = (value: unknown): Record<string, unknown> =>
  value === undefined ? {} : { commitStatus: value };

/** The events of a run whose ASSISTANT item (dispatching call `c1`) has `commitStatus`. */
function read(commitStatus: unknown, userStatus: unknown = "COMMITTED"): RunEvent[] {
  const reader = createCamundaHistoryReader();
  const call = { toolCallId: "c1", toolName: "lookup", elementId: "lookup", arguments: {} };
  const values = [
    item(1, "USER", status(userStatus)),
    item(2, "ASSISTANT", { ...status(commitStatus), toolCalls: [call] }),
  ];
  const events = values.flatMap((value, index) => [...reader.push({ value, index })]);
  return [...events, ...reader.end()];
}

const brief = (e: RunEvent): string =>
  e.kind === "step"
    ? `${e.nodeType}:${e.status}`
    : e.kind === "unknown"
      ? `unknown: ${e.reason}`
      : e.kind;

const defined = "(COMMITTED, PENDING, DISCARDED)";

describe("camunda-agent-history commitStatus", () => {
  const cases = [
    { value: "COMMITTED", events: ["llm:ok", "tool:error"] },
    { value: "PENDING", events: ["llm:ok"] },
    { value: "DISCARDED", events: ["llm:error"] },
    {
      value: "FAILED",
      events: [
        `unknown: commitStatus of the ASSISTANT item is "FAILED", which is no commit status Camunda 8.10 defines ${defined}.`,
        "llm:ok",
        "tool:error",
      ],
    },
    {
      value: "discarded",
      events: [
        `unknown: commitStatus of the ASSISTANT item is "discarded", which is no commit status Camunda 8.10 defines ${defined}.`,
        "llm:ok",
        "tool:error",
      ],
    },
    {
      value: undefined,
      events: [
        "unknown: commitStatus of the ASSISTANT item is absent, so whether the job that produced the item failed is not known.",
        "llm:ok",
        "tool:error",
      ],
    },
    {
      value: null,
      events: [
        "unknown: commitStatus of the ASSISTANT item is absent, so whether the job that produced the item failed is not known.",
        "llm:ok",
        "tool:error",
      ],
    },
  ];

  it("reads the commit statuses Camunda defines, and no other value as one", () => {
    // No instance arrives, so the run is read at the end of the file, with no run-end.
    const seen = cases.map(({ value }) => ({ value, events: read(value).map(brief).slice(1) }));
    expect(seen).toEqual(cases);
  });

  it("needs no commitStatus on an item that is no step, and says an undefined one", () => {
    expect(read("COMMITTED", undefined).map(brief)).toEqual(["run-start", "llm:ok", "tool:error"]);
    expect(read("COMMITTED", "DONE").map(brief)).toEqual([
      "run-start",
      `unknown: commitStatus of the USER item is "DONE", which is no commit status Camunda 8.10 defines ${defined}.`,
      "llm:ok",
      "tool:error",
    ]);
  });
});
