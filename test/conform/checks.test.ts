/**
 * The checks of one step that do not depend on the path: the budget on cost in a currency the
 * budget has no limit for, and the model of every model call.
 */
import { describe, expect, it } from "vitest";
import { budgetFindings } from "../../src/conform/budget.js";
import type { Spent } from "../../src/conform/budget.js";
import { identityFindings } from "../../src/conform/checks.js";
import type { StepEvent } from "../../src/conform/index.js";
import { unverifiedMessage } from "../../src/conform/index.js";
import { research } from "./research.js";

const spent = (cost: Record<string, number>): Spent => ({
  steps: 1,
  tokens: 0,
  cost: new Map(Object.entries(cost)),
  firstTime: undefined,
  lastTime: undefined,
});

describe("budgetFindings on cost", () => {
  it("calls cost in a currency the budget does not limit unverified, naming the currency", () => {
    const reported = new Set<string>();
    const found = budgetFindings({ maxCostUSD: 2 }, spent({ EUR: 500 }), reported);
    expect(found).toEqual([
      { reason: "COST_UNLIMITED", data: { currency: "EUR", used: 500, limited: "USD" } },
    ]);
    const [first] = found;
    if (first === undefined || !("reason" in first)) throw new Error("no unverified finding");
    expect(unverifiedMessage(first)).toBe(
      "the run spent 500 EUR, and the budget limits cost in USD but has no budget.maxCostEUR, so whether it is within budget cannot be told",
    );
    // Said once per run, not again at every later step.
    expect(budgetFindings({ maxCostUSD: 2 }, spent({ EUR: 600 }), reported)).toEqual([]);
  });

  it("still checks a limited currency, and leaves cost alone when the budget limits none", () => {
    expect(budgetFindings({ maxCostUSD: 2 }, spent({ USD: 1 }), new Set())).toEqual([]);
    expect(budgetFindings({ maxCostUSD: 2 }, spent({ USD: 3 }), new Set())).toEqual([
      { class: "BUDGET_EXCEEDED", data: { limit: "budget.maxCostUSD", used: 3, max: 2 } },
    ]);
    expect(budgetFindings({ maxSteps: 9 }, spent({ EUR: 500 }), new Set())).toEqual([]);
  });
});

describe("identityFindings: every model call shows its model", () => {
  const llm = research.nodes.find((n) => n.type === "llm");
  if (llm === undefined) throw new Error("no llm node");
  const approved = { ref: "agnt-rsch@2.1.0", workflow: research, tools: new Map() };
  const step = (extra: Partial<StepEvent>): StepEvent => ({
    kind: "step",
    run: "r",
    nodeType: "llm",
    node: "llm-1",
    status: "ok",
    at: { index: 0 },
    ...extra,
  });
  const unrecorded = { reason: "MODEL_UNRECORDED", data: { node: "llm-1", approved: "gpt-4o" } };
  const mismatch = (recorded: string) => ({
    class: "IDENTITY_MISMATCH",
    data: { node: "llm-1", field: "model", recorded, approved: "gpt-4o" },
  });
  it.each([
    { name: "the approved model", extra: { identity: { model: "gpt-4o" } }, found: [] },
    { name: "no identity at all", extra: {}, found: [unrecorded] },
    {
      name: "a provider but no model",
      extra: { identity: { provider: "openai" } },
      found: [unrecorded],
    },
    { name: "a failed call with no model", extra: { status: "error" as const }, found: [] },
    {
      name: "two model calls, the first unapproved",
      extra: { modelCalls: [{ model: "gpt-5" }, { model: "gpt-4o" }] },
      found: [mismatch("gpt-5")],
    },
    {
      name: "two model calls, one recording no model",
      extra: { modelCalls: [{ model: "gpt-4o" }, { provider: "openai" }] },
      found: [unrecorded],
    },
    {
      name: "the same unapproved model twice, said once",
      extra: { modelCalls: [{ model: "gpt-5" }, { model: "gpt-5", provider: "openai" }] },
      found: [mismatch("gpt-5")],
    },
  ])("$name", ({ extra, found }) => {
    expect(identityFindings(approved, llm, step(extra))).toEqual(found);
  });

  it("says an unrecorded model in one sentence", () => {
    expect(unverifiedMessage({ reason: "MODEL_UNRECORDED", data: unrecorded.data })).toBe(
      '"llm-1" called a model the run did not record, so whether it is the approved gpt-4o cannot be checked',
    );
  });
});

describe("identityFindings: a step whose content the approval does not show", () => {
  const approved = { ref: "agnt-rsch@2.1.0", workflow: research, tools: new Map() };
  const tool = (usesTool: string) => ({ id: "agent", type: "tool" as const, config: { usesTool } });
  const step = (extra: Partial<StepEvent>): StepEvent => ({
    kind: "step",
    run: "r",
    nodeType: "llm",
    nodeTypeInferred: true,
    node: "agent",
    status: "ok",
    at: { index: 0 },
    ...extra,
  });

  it.each([
    ["tool:langgraph.node.agent@0.0.0"],
    ["tool:langgraph.subgraph@0.0.0"],
    ["tool:agentos.subgraph@1.0.0"],
  ])("on %s: each model its step recorded is unverified, never approved", (usesTool) => {
    const found = identityFindings(
      approved,
      tool(usesTool),
      step({
        identity: { model: "gpt-4o" },
        modelCalls: [{ model: "gpt-4o" }, { model: "o3" }],
      }),
    );
    expect(found).toEqual([
      { reason: "MODEL_UNSTATED", data: { node: "agent", recorded: "gpt-4o", tool: usesTool } },
      { reason: "MODEL_UNSTATED", data: { node: "agent", recorded: "o3", tool: usesTool } },
    ]);
    const [first] = found;
    if (first === undefined || !("reason" in first)) throw new Error("no unverified finding");
    expect(unverifiedMessage(first)).toBe(
      `"agent" called gpt-4o, and the approved workflow does not say which models it may call (it stands for a step whose content the imported document does not show, on ${usesTool}), so whether that model was approved cannot be checked`,
    );
  });

  it("a tool of a stated contract, or a step that recorded no model, says nothing", () => {
    expect(
      identityFindings(approved, tool("tool:search@1.0.0"), step({ identity: { model: "o3" } })),
    ).toEqual([]);
    expect(identityFindings(approved, tool("tool:langgraph.node.agent@0.0.0"), step({}))).toEqual(
      [],
    );
  });
});
