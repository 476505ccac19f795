/**
 * Options: the cost model and budgets it enables, the result shape, API misuse (TypeErrors) and
 * the lint of fixtures and `decide` tables.
 */
import { describe, expect, it } from "vitest";
import type { AgentNode } from "../../src/model/index.js";
import type { CostModel, SimulateOptions } from "../../src/simulate/index.js";
import {
  explore,
  finalOutput,
  lintSimulationOptions,
  OptionTypeError,
  runUsage,
  simulate,
} from "../../src/simulate/index.js";
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
      moves: 3,
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
    expect(runUsage(state)).toEqual({ steps: 3, moves: 3, tokens: 0, logicalTime: 0 });
  });

  it("failed attempts are moves, not charged to the budget (as the seed engine charges)", () => {
    const wf = workflow(
      [{ ...llm("a"), decorators: [{ type: "errorBoundary", maxRetries: 2, backoff: "fixed" }] }],
      [],
    );
    const state = simulate(wf, { costModel, fixtures: { a: { fails: 2 } } });
    expect(runUsage(state)).toMatchObject({ steps: 1, moves: 3, tokens: 1000, wallTimeMs: 1500 });
  });

  it("a budget one output too small stops before the node, however often it would fail", () => {
    const wf = workflow(
      [{ ...llm("a"), decorators: [{ type: "errorBoundary", maxRetries: 2, backoff: "fixed" }] }],
      [],
    );
    const state = simulate(wf, {
      costModel,
      budget: { maxTokens: 999 },
      fixtures: { a: { fails: 1 } },
    });
    expect(state.blockedDecision).toEqual({
      nodeId: "a",
      cell: "budget",
      reason: "budget.maxTokens 999 exceeded: 1000 tokens projected",
    });
    expect(runUsage(state)).toMatchObject({ steps: 0, moves: 0, tokens: 0 });
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

  it.each([
    [{ input: [] }, "input must be a JSON object"],
    [{ maxSteps: -1 }, "maxSteps must be a non-negative integer"],
    [{ maxSteps: 100_001 }, "maxSteps must be at most 100000 (a run holds a record per step)"],
    [{ decide: 5 }, "decide must be an object keyed by decision id"],
    [{ budget: { maxTokens: -1 } }, "budget.maxTokens must be a non-negative finite number"],
  ])("names the bad option: %j", (options, message) => {
    // A TypeError (an OptionTypeError for the checked options), with the exact message.
    expect(() => simulate(pipeline, options as SimulateOptions)).toThrow(TypeError);
    expect(() => simulate(pipeline, options as SimulateOptions)).toThrow(message);
    // explore supplies `decide` itself.
    if (!("decide" in options)) {
      expect(() => explore(pipeline, options as SimulateOptions)).toThrow(TypeError);
      expect(() => explore(pipeline, options as SimulateOptions)).toThrow(message);
    }
  });

  it.each([
    [{ maxSteps: -1 }, "/maxSteps"],
    [{ decide: 5 }, "/decide"],
    [{ decide: { "a/b": [1] } }, "/decide/a~1b"],
    [{ fixtures: { n: { fails: -1 } } }, "/fixtures/n/fails"],
    [{ fixtures: { n: { outputs: [1] } } }, "/fixtures/n/outputs/0"],
  ])("says where the bad option is, as a JSON Pointer: %j", (options, path) => {
    let thrown: unknown;
    try {
      simulate(pipeline, options as SimulateOptions);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(OptionTypeError);
    expect((thrown as OptionTypeError).path).toBe(path);
  });

  it("checks the outputs a run uses; lintSimulationOptions reads every output", () => {
    // The run stops at "a": "late"'s output is never used, "ghost" is no node. Their shapes are
    // right, so the run goes on; what JSON cannot hold inside them only lint reads.
    const options = {
      fixtures: {
        a: { fails: 1 },
        late: { outputs: [{ n: 1n }] },
        ghost: { outputs: [{ n: 1n }] },
      },
    } as unknown as SimulateOptions;
    const stopping = workflow([llm("a"), llm("late")], [edge("a", "late")]);
    expect(simulate(stopping, options).blockedDecision).toEqual({
      nodeId: "a",
      cell: "execution",
      reason: "execution failed: fixture failure 1 of 1",
    });
    expect(explore(stopping, options).blocks.map((b) => b.nodeId)).toEqual(["a"]);
    let thrown: unknown;
    try {
      lintSimulationOptions(stopping, options);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(OptionTypeError);
    expect((thrown as OptionTypeError).path).toBe("/fixtures/late/outputs/0");
    expect((thrown as OptionTypeError).message).toMatch(
      /^fixtures\["late"\]\.outputs\[0\] must be a JSON object: /,
    );
    // A fixture of the wrong shape is refused before the run, reached or not.
    const wrong = { fixtures: { a: {}, late: { fails: -1 } } };
    expect(() => simulate(stopping, wrong)).toThrow(OptionTypeError);
    expect(() => explore(stopping, wrong)).toThrow(
      'fixtures["late"].fails must be a non-negative integer',
    );
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

  it("reports a fixture field that is none: a run would ignore it", () => {
    expect(
      lintSimulationOptions(wf, {
        fixtures: { a: { ouputs: [{ x: 1 }], fail: 3, "o/k": 1, outputs: [], fails: 0 } },
      }),
    ).toEqual([
      { path: "/fixtures/a/ouputs", message: '"ouputs" is not a fixture field (outputs, fails)' },
      { path: "/fixtures/a/fail", message: '"fail" is not a fixture field (outputs, fails)' },
      { path: "/fixtures/a/o~1k", message: '"o/k" is not a fixture field (outputs, fails)' },
    ]);
  });

  it("is empty for correct options", () => {
    expect(lintSimulationOptions(wf, { fixtures: { a: {} }, decide: { d: ["onFalse"] } })).toEqual(
      [],
    );
  });
});

describe("options nested deeper than JSON.stringify can go", () => {
  /** `{ is_complete: { is_complete: ... true } }`, `depth` levels, built without recursion. */
  function deepOutput(depth: number): Record<string, unknown> {
    let value: unknown = true;
    for (let i = 0; i < depth; i++) value = { is_complete: value };
    return value as Record<string, unknown>;
  }
  function depthOf(value: unknown): number {
    let depth = 0;
    for (let v = value; typeof v === "object" && v !== null; depth++) {
      v = (v as { is_complete: unknown }).is_complete;
    }
    return depth;
  }

  it("accepts a fixture output nested 10,000 deep and records it whole", () => {
    const output = { query: "q", ...deepOutput(10_000) };
    const state = simulate(template("research"), { fixtures: { "llm-1": { outputs: [output] } } });
    const move = records(state, "move")[0];
    expect(move?.nodeId).toBe("llm-1");
    expect(depthOf(move?.output)).toBe(10_000);
    // The run reads the copy: the decision finds an object where it compares booleans.
    expect(state.blockedDecision).toEqual({
      nodeId: "dec-3",
      cell: "condition",
      reason: "output.is_complete is an object; a condition compares numbers, strings and booleans",
    });
  });

  it("explore reports a completion whose output is nested 10,000 deep", () => {
    const fixtures = {
      "llm-1": { outputs: [{ query: "q" }] },
      "tool-2": {
        outputs: [{ answer: "a", sources: [], is_complete: true, deep: deepOutput(10_000) }],
      },
    };
    const report = explore(template("research"), { fixtures, input: { query: "q" } });
    expect(report.ends).toHaveLength(1);
    expect(report.ends[0]?.runs).toEqual([0, 1, 2, 3]);
    expect(depthOf((report.ends[0]?.output as { deep?: unknown }).deep)).toBe(10_000);
  });

  it("records a plain output as the caller gave it, and the JSON form of any other", () => {
    const plain = { n: 1, list: ["x", { y: null }] };
    const dated = { when: new Date(0), gone: undefined, nan: Number.NaN };
    const state = simulate(pipeline, {
      fixtures: { a: { outputs: [plain] }, t: { outputs: [dated] } },
    });
    const [a, t] = records(state, "move");
    // Nothing writes an output: the plain one is not copied.
    expect(a?.output).toBe(plain);
    expect(t?.output).not.toBe(dated);
    expect(t?.output).toStrictEqual({ when: "1970-01-01T00:00:00.000Z", nan: null });
    expect(plain).toStrictEqual({ n: 1, list: ["x", { y: null }] });
    expect(finalOutput(state)).toStrictEqual({
      n: 1,
      list: ["x", { y: null }],
      when: "1970-01-01T00:00:00.000Z",
      nan: null,
    });
  });

  it("names the option when a fixture holds what JSON cannot (a BigInt, a cycle)", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const output of [{ n: 1n }, cyclic]) {
      expect(() => simulate(pipeline, { fixtures: { a: { outputs: [output] } } })).toThrow(
        /^fixtures\["a"\]\.outputs\[0\] must be a JSON object: /,
      );
    }
  });
});
