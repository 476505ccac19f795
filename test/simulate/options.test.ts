/**
 * Options: the cost model and budgets it enables, the result shape, API misuse (TypeErrors) and
 * the lint of fixtures and `decide` tables.
 */
import { describe, expect, it } from "vitest";
import type { AgentNode } from "../../src/model/index.js";
import type { CostModel, SimulateOptions } from "../../src/simulate/index.js";
import { lintSimulationOptions, runUsage, simulate } from "../../src/simulate/index.js";
import { decision, edge, llm, records, template, tool, workflow } from "./builders.js";

const costModel: CostModel = {
  perNode: (node: AgentNode) =>
    node.type === "llm"
      ? { tokens: 1000, cost: { USD: 0.25, EUR: 0.2 }, wallTimeMs: 1500 }
      : node.type === "tool"
        ? { cost: { USD: 0.5 }, wallTimeMs: 200 }
        : undefined,
};

const pipeline = workflow([llm("a"), tool("t"), llm("b")], [edge("a", "t"), edge("t", "b")]);

describe("cost model and budgets", () => {
  it("projects tokens, cost per currency and wall time per executed node", () => {
    const state = simulate(pipeline, { costModel });
    expect(runUsage(state)).toEqual({
      steps: 3,
      tokens: 2000,
      logicalTime: 0,
      wallTimeMs: 3200,
      cost: { EUR: 0.4, USD: 1 },
    });
  });

  it.each([
    [{ maxCostUSD: 0.9 }, "b", "budget.maxCostUSD 0.9 exceeded: 1 USD projected"],
    [{ maxCostEUR: 0.3 }, "b", "budget.maxCostEUR 0.3 exceeded: 0.4 EUR projected"],
    [{ maxWallTimeMs: 1600 }, "t", "budget.maxWallTimeMs 1600 exceeded: 1700 ms projected"],
    [{ maxTokens: 1999 }, "b", "budget.maxTokens 1999 exceeded: 2000 tokens projected"],
  ])("budget %j stops at %s", (budget, nodeId, reason) => {
    const state = simulate(pipeline, { costModel, budget });
    expect(state.blockedDecision).toEqual({ nodeId, cell: "budget", reason });
  });

  it("cost and wall-time limits are not enforced without a cost model", () => {
    const state = simulate(pipeline, { budget: { maxCostUSD: 0, maxWallTimeMs: 0 } });
    expect(state.complete).toBe(true);
    expect(runUsage(state)).toEqual({ steps: 3, tokens: 0, logicalTime: 0 });
  });

  it("failed attempts are charged like successful ones", () => {
    const wf = workflow(
      [{ ...llm("a"), decorators: [{ type: "errorBoundary", maxRetries: 2, backoff: "fixed" }] }],
      [],
    );
    const state = simulate(wf, { costModel, fixtures: { a: { fails: 2 } } });
    expect(runUsage(state)).toMatchObject({ steps: 3, tokens: 3000, wallTimeMs: 4500 });
  });

  it("a memory decorator adds a boundary record after its node runs", () => {
    const state = simulate(template("research"), {
      fixtures: { "tool-2": { outputs: [{ answer: "a", sources: [], is_complete: true }] } },
    });
    expect(records(state, "boundary")).toEqual([
      {
        step: 1,
        type: "boundary",
        message: "memory (short, expires 6h) keeps the output of llm-1",
        nodeId: "llm-1",
        decorator: "memory",
        memory: { scope: "short", expiry: "6h" },
      },
    ]);
  });
});

describe("result shape", () => {
  it("has exactly the seed's keys, in order", () => {
    const state = simulate(pipeline);
    expect(Object.keys(state)).toEqual([
      "tokens",
      "joinArrivals",
      "traversedEdges",
      "visitedNodes",
      "trail",
      "complete",
      "deadlocked",
      "pendingChoice",
      "boundaryOptions",
      "pendingDecisionInput",
      "blockedDecision",
    ]);
    expect(state).toMatchObject({
      tokens: [],
      joinArrivals: {},
      deadlocked: false,
      pendingChoice: null,
      boundaryOptions: null,
      pendingDecisionInput: null,
    });
  });
});

describe("API misuse throws a TypeError", () => {
  const bad: readonly [string, unknown][] = [
    ["fixtures not an object", { fixtures: 3 }],
    ["outputs not an array", { fixtures: { a: { outputs: {} } } }],
    ["an output not an object", { fixtures: { a: { outputs: [1] } } }],
    ["fails negative", { fixtures: { a: { fails: -1 } } }],
    ["fails fractional", { fixtures: { a: { fails: 1.5 } } }],
    ["decide not a list", { decide: { d: "onTrue" } }],
    ["decide with a non-string", { decide: { d: [1] } }],
    ["maxSteps negative", { maxSteps: -1 }],
    ["maxSteps infinite", { maxSteps: Infinity }],
    ["a budget limit not a number", { budget: { maxSteps: "3" } }],
    ["input not an object", { input: [] }],
    ["a cost model returning a string", { costModel: { perNode: () => "free" } }],
    ["a cost model returning a negative cost", { costModel: { perNode: () => ({ tokens: -1 }) } }],
  ];
  it.each(bad)("%s", (_name, options) => {
    expect(() => simulate(pipeline, options as SimulateOptions)).toThrow(TypeError);
  });

  it("options that are not an object", () => {
    expect(() => simulate(pipeline, null as unknown as SimulateOptions)).toThrow(TypeError);
  });
});

describe("lintSimulationOptions", () => {
  const wf = workflow(
    [
      llm("a"),
      decision("d", {
        condition: "output.x = 1",
        onTrue: { next: "end" },
        onFalse: { next: "end" },
      }),
    ],
    [edge("a", "d")],
  );
  it("reports unknown ids, fixtures on decisions, decide on non-decisions and unknown labels", () => {
    expect(
      lintSimulationOptions(wf, {
        fixtures: { a: {}, d: { outputs: [] }, "x/y": {} },
        decide: { d: ["onTrue", "maybe"], a: ["onTrue"], ghost: [] },
      }),
    ).toEqual([
      { path: "/fixtures/d", message: '"d" is a decision; decisions never execute' },
      { path: "/fixtures/x~1y", message: '"x/y" is not a node' },
      { path: "/decide/d/1", message: '"maybe" is not a route of "d" (onTrue, onFalse)' },
      { path: "/decide/a", message: '"a" is not a decision' },
      { path: "/decide/ghost", message: '"ghost" is not a node' },
    ]);
  });

  it("is empty for correct options", () => {
    expect(lintSimulationOptions(wf, { fixtures: { a: {} }, decide: { d: ["onFalse"] } })).toEqual(
      [],
    );
  });
});
