/**
 * A budget is never passed on spending the run did not record: a model call that succeeded and
 * recorded no tokens (or only part of them), or no cost, while the budget limits that quantity,
 * leaves the run unverified (USAGE_UNRECORDED), once per quantity. And a step that began before
 * the step it follows on the path had ended cannot have used its output (STEPS_OVERLAP). The
 * research template (llm-1 → tool-2 → dec-3), whose budget limits maxTokens 120000 and
 * maxCostUSD 4; events as any source's reader gives them.
 */
import { describe, expect, it } from "vitest";
import type { ApprovedModel, RunEvent, StepEvent } from "../../src/conform/index.js";
import { createConformanceChecker, unverifiedMessage } from "../../src/conform/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { research, search } from "./research.js";

const modelOf = (workflow: AgentWorkflow): ApprovedModel => ({
  workflows: [
    {
      ref: "agnt-rsch@2.1.0",
      workflow,
      tools: new Map([["tool:browser-search@1.2.0", search("read", "automatic")]]),
    },
  ],
  processes: [],
});

type Step = Partial<StepEvent>;
const SPENT: Step = { tokens: 100, cost: { USD: 0.01 } };
const llm = (extra: Step = SPENT): Step => ({
  nodeType: "llm",
  node: "llm-1",
  identity: { model: "gpt-4o" },
  output: { is_complete: true },
  ...extra,
});
const tool = (extra: Step = {}): Step => ({
  nodeType: "tool",
  node: "tool-2",
  args: { query: "q" },
  output: {},
  ...extra,
});

function runOf(steps: readonly Step[]): RunEvent[] {
  let index = 0;
  const at = () => ({ index: index++ });
  return [
    { kind: "run-start", run: "r", workflow: "agnt-rsch@2.1.0", at: at() },
    ...steps.map((s) => ({ kind: "step", run: "r", status: "ok", ...s, at: at() }) as StepEvent),
    { kind: "run-end", run: "r", status: "completed", at: at() },
  ];
}

function checked(steps: readonly Step[], workflow = research) {
  const checker = createConformanceChecker(modelOf(workflow), { keepConforming: true });
  for (const event of runOf(steps)) checker.push(event);
  const run = checker.end().runs[0];
  return {
    verdict: run?.verdict,
    found: [
      ...(run?.deviations ?? []).map((d) => [d.class, d.at.index]),
      ...(run?.unverified ?? []).map((u) => [u.reason, u.at?.index]),
    ],
    messages: (run?.unverified ?? []).map(unverifiedMessage),
  };
}

const NO_TOKENS =
  '"llm-1" called a model and the run did not record the tokens it used, so whether the run is within budget.maxTokens cannot be told';
const NO_COST =
  '"llm-1" called a model and the run did not record what it cost, so whether the run is within budget.maxCostUSD cannot be told';
const PART =
  '"llm-1" recorded only part of the tokens it used (input or output, and no total), so whether the run is within budget.maxTokens cannot be told';

describe("a budget limit the run's records do not show", () => {
  it.each([
    { name: "tokens and cost recorded", steps: [llm(), tool()], found: [], messages: [] },
    {
      name: "no tokens",
      steps: [llm({ cost: { USD: 0.01 } }), tool()],
      found: [["USAGE_UNRECORDED", 1]],
      messages: [NO_TOKENS],
    },
    {
      name: "only part of the tokens",
      steps: [llm({ ...SPENT, tokensPartial: true }), tool()],
      found: [["USAGE_UNRECORDED", 1]],
      messages: [PART],
    },
    {
      name: "no cost",
      steps: [llm({ tokens: 100 }), tool()],
      found: [["USAGE_UNRECORDED", 1]],
      messages: [NO_COST],
    },
    {
      name: "a cost in another currency only: that is COST_UNLIMITED, not unrecorded",
      steps: [llm({ tokens: 100, cost: { EUR: 1 } }), tool()],
      found: [["COST_UNLIMITED", 1]],
      messages: [expect.stringContaining("the run spent 1 EUR")],
    },
    {
      name: "nothing recorded on two model calls: each quantity said once",
      steps: [llm({ ...SPENT, output: { is_complete: false } }), tool(), llm({}), tool()],
      found: [
        ["USAGE_UNRECORDED", 3],
        ["USAGE_UNRECORDED", 3],
      ],
      messages: [NO_TOKENS, NO_COST],
    },
    {
      name: "a failed model call may have recorded nothing; its retry recorded both",
      steps: [llm({ status: "error", output: {} }), llm(), tool()],
      found: [],
      messages: [],
    },
  ])("$name", ({ steps, found, messages }) => {
    const got = checked(steps);
    expect(got.found).toEqual(found);
    expect(got.messages).toEqual(messages);
    expect(got.verdict).toBe(found.length === 0 ? "conforming" : "unverified");
  });

  it("asks nothing of a workflow whose budget does not limit the quantity", () => {
    const steps = [llm({}), tool()];
    const budget = { maxSteps: 12, maxWallTimeMs: 300000 };
    expect(checked(steps, { ...research, budget }).found).toEqual([]);
    const none = Object.fromEntries(Object.entries(research).filter(([k]) => k !== "budget"));
    expect(checked(steps, none as unknown as AgentWorkflow).found).toEqual([]);
  });
});

describe("a step that began before the step it follows on the path had ended", () => {
  it.each([
    {
      name: "one after the other",
      times: [
        [10, 20],
        [20, 30],
      ],
      found: [],
    },
    { name: "no times recorded", times: [[], []], found: [] },
    {
      name: "tool-2 begins during llm-1",
      times: [
        [10, 20],
        [15, 18],
      ],
      found: [["STEPS_OVERLAP", 2]],
    },
  ] as const)("$name", ({ times, found }) => {
    const at = (t: readonly number[]): Step =>
      t.length === 0 ? {} : { start: t[0] ?? 0, end: t[1] ?? 0 };
    const got = checked([llm({ ...SPENT, ...at(times[0]) }), tool(at(times[1]))]);
    expect(got.found).toEqual(found);
    if (found.length > 0)
      expect(got.messages).toEqual([
        '"tool-2" began 5 ms before "llm-1", the step it follows on the path, had ended, so it cannot have used that step\'s output: whether the run followed the graph cannot be told',
      ]);
  });
});
