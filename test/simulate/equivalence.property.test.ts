/**
 * `simulate` takes the machine's transitions without XState (src/simulate/interpret.ts); this
 * proves it ends where the machine `toMachine` returns ends, run by an XState actor with the same
 * fixtures: the same `SimulationState`, byte for byte, over random workflows, fixtures, forced
 * routes, budgets, cost models, step bounds and strict params.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AgentNode, AgentWorkflow, Budget } from "../../src/model/index.js";
import type { CostModel, NodeCost, SimulateOptions } from "../../src/simulate/index.js";
import { simulate } from "../../src/simulate/index.js";
import { machineRun } from "./machine-run.js";
import { llm } from "./builders.js";
import { build, decideOf, fixturesOf, specArb, type Spec } from "./random-workflow.js";

/** What the options add to a random spec. */
interface Extra {
  readonly withDecide: boolean;
  readonly strictParams: boolean | undefined;
  readonly budget: Budget | undefined;
  readonly ownBudget: Budget | undefined;
  readonly costs: readonly (NodeCost | undefined)[] | undefined;
  readonly input: boolean;
}

const budgetArb: fc.Arbitrary<Budget> = fc.record(
  {
    maxSteps: fc.integer({ min: 0, max: 40 }),
    maxTokens: fc.integer({ min: 0, max: 2_000 }),
    maxWallTimeMs: fc.integer({ min: 0, max: 5_000 }),
    maxCostEUR: fc.double({ min: 0, max: 2, noNaN: true }),
  },
  { requiredKeys: [] },
);

const costArb: fc.Arbitrary<NodeCost | undefined> = fc.option(
  fc.record(
    {
      tokens: fc.integer({ min: 0, max: 500 }),
      cost: fc.record({ EUR: fc.double({ min: 0, max: 0.5, noNaN: true }) }),
      wallTimeMs: fc.integer({ min: 0, max: 1_500 }),
    },
    { requiredKeys: [] },
  ),
  { nil: undefined },
);

const extraArb: fc.Arbitrary<Extra> = fc.record({
  withDecide: fc.boolean(),
  strictParams: fc.constantFrom(undefined, false, true),
  budget: fc.option(budgetArb, { nil: undefined }),
  ownBudget: fc.option(budgetArb, { nil: undefined }),
  costs: fc.option(fc.array(costArb, { minLength: 1, maxLength: 6 }), { nil: undefined }),
  input: fc.boolean(),
});

/** A cost model that gives node `k` the cost at `k` of the list (wrapping around). */
function costModelOf(wf: AgentWorkflow, costs: readonly (NodeCost | undefined)[]): CostModel {
  const index = new Map(wf.nodes.map((node, k) => [node.id, k]));
  return {
    perNode: (node: AgentNode) => costs[(index.get(node.id) ?? 0) % costs.length],
  };
}

function caseOf(spec: Spec, extra: Extra): { wf: AgentWorkflow; options: SimulateOptions } {
  const built = build(spec);
  const wf: AgentWorkflow =
    extra.ownBudget !== undefined ? { ...built, budget: extra.ownBudget } : built;
  const options: SimulateOptions = {
    fixtures: fixturesOf(spec),
    maxSteps: spec.maxSteps,
    ...(extra.input ? { input: { q: "x" } } : {}),
    ...(extra.withDecide ? { decide: decideOf(spec) } : {}),
    ...(extra.strictParams !== undefined ? { strictParams: extra.strictParams } : {}),
    ...(extra.budget !== undefined ? { budget: extra.budget } : {}),
    ...(extra.costs !== undefined ? { costModel: costModelOf(wf, extra.costs) } : {}),
  };
  return { wf, options };
}

describe("simulate and the XState machine", () => {
  it("end in the same SimulationState, byte for byte", async () => {
    await fc.assert(
      fc.asyncProperty(specArb, extraArb, async (spec, extra) => {
        const { wf, options } = caseOf(spec, extra);
        const expected = JSON.stringify(await machineRun(wf, options));
        expect(JSON.stringify(simulate(wf, options))).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it("end the same way on workflows whose runs stop early, loop or complete", async () => {
    // The blocked cells the property reached, so that it is known to cover every way to stop.
    const cells = new Set<string>();
    let complete = 0;
    await fc.assert(
      fc.asyncProperty(specArb, extraArb, async (spec, extra) => {
        const { wf, options } = caseOf(spec, extra);
        const state = simulate(wf, options);
        expect(JSON.stringify(state)).toBe(JSON.stringify(await machineRun(wf, options)));
        if (state.complete) complete++;
        else if (state.blockedDecision !== null) cells.add(state.blockedDecision.cell);
      }),
      { numRuns: 300, seed: 20_261_203 },
    );
    expect(complete).toBeGreaterThan(0);
    expect([...cells].sort()).toEqual(
      expect.arrayContaining([
        "budget",
        "condition",
        "errorBoundary",
        "execution",
        "output-schema",
      ]),
    );
  });

  it("end the same way whatever the order of the fixtures' keys", async () => {
    // Fixtures are paired with nodes by position first, by id when the position does not match.
    await fc.assert(
      fc.asyncProperty(
        specArb,
        extraArb,
        fc.func(fc.integer()),
        async (spec, extra, rank: (id: string) => number) => {
          const { wf, options } = caseOf(spec, extra);
          const entries = Object.entries(options.fixtures ?? {});
          entries.sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : 1));
          const shuffled = { ...options, fixtures: Object.fromEntries(entries) };
          const expected = JSON.stringify(await machineRun(wf, shuffled));
          expect(JSON.stringify(simulate(wf, shuffled))).toBe(expected);
          expect(JSON.stringify(simulate(wf, options))).toBe(expected);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("end the same way where fixtures are found by node index: duplicated ids, odd keys", async () => {
    const wf: AgentWorkflow = {
      kind: "AgentWorkflow",
      id: "agnt-dup",
      version: "1.0.0",
      name: "Duplicated ids",
      autonomyLevel: 1,
      inputSchema: { q: "text" },
      outputSchema: { "n?": "number" },
      nodes: [llm("a"), llm("__proto__"), llm("a"), llm("b")],
      edges: [
        { from: "a", to: "__proto__", edgeType: "data" },
        { from: "__proto__", to: "b", edgeType: "data" },
      ],
    };
    const options: SimulateOptions = {
      fixtures: {
        a: { outputs: [{ n: 1 }] },
        ["__proto__"]: { fails: 0, outputs: [{ n: 2 }] },
        ghost: { outputs: [{ n: 9 }] },
      },
    };
    const expected = JSON.stringify(await machineRun(wf, options));
    const state = simulate(wf, options);
    expect(state.visitedNodes).toEqual(["a", "__proto__", "b"]);
    expect(JSON.stringify(state)).toBe(expected);
    // A second run of the same workflow reuses its plan and edge ids; it must not see the first.
    expect(JSON.stringify(simulate(wf, options))).toBe(expected);
    expect(JSON.stringify(simulate(wf, { fixtures: { b: { fails: 1 } } }))).toBe(
      JSON.stringify(await machineRun(wf, { fixtures: { b: { fails: 1 } } })),
    );
    // Merged in place in simulate, spread by the machine: the same keys, values and order,
    // with an own `__proto__` key, integer-like keys and a key written twice.
    const merging = {
      fixtures: JSON.parse(
        '{"a": {"outputs": [{"z": 1, "2": "two", "__proto__": {"p": 1}}]},' +
          '"__proto__": {"outputs": [{"z": 2, "1": "one", "y": null}]},' +
          '"b": {"outputs": [{"__proto__": 3, "a": []}]}}',
      ) as NonNullable<SimulateOptions["fixtures"]>,
    };
    const merged = simulate(wf, merging);
    expect(JSON.stringify(merged)).toBe(JSON.stringify(await machineRun(wf, merging)));
    expect(JSON.stringify(merged.trail.at(-1)?.output)).toBe(
      '{"1":"one","2":"two","z":2,"__proto__":3,"y":null,"a":[]}',
    );
  });

  it("end the same way through a decision of more cases than its edge ids are cached for", async () => {
    // A decision of ten cases, whose route edges are built anew each time it routes: each must
    // appear once in traversedEdges, in the order first taken, however often it is taken.
    const cases = Array.from({ length: 10 }, (_, i) => ({
      condition: `output.pick = ${String(i)}`,
      next: i === 9 ? "x" : `t${String(i)}`,
      maxRetries: 3,
    }));
    const wf: AgentWorkflow = {
      kind: "AgentWorkflow",
      id: "agnt-wide",
      version: "1.0.0",
      name: "Wide decision",
      autonomyLevel: 1,
      inputSchema: { q: "text" },
      outputSchema: { "pick?": "number" },
      nodes: [
        llm("start"),
        { id: "d", type: "decision", config: { cases, otherwise: { next: "end" } } },
        ...Array.from({ length: 9 }, (_, i) => llm(`t${String(i)}`)),
        llm("x"),
      ],
      edges: [
        { from: "start", to: "d", edgeType: "data" },
        ...Array.from({ length: 9 }, (_, i) => ({
          from: `t${String(i)}`,
          to: "d",
          edgeType: "data" as const,
        })),
        { from: "x", to: "d", edgeType: "data" },
      ],
    };
    const options: SimulateOptions = {
      fixtures: {
        start: { outputs: [{ pick: 9 }] },
        x: { outputs: [{ pick: 3 }, { pick: 42 }] },
        t3: { outputs: [{ pick: 9 }] },
      },
      maxSteps: 40,
    };
    const state = simulate(wf, options);
    expect(state.traversedEdges).toEqual(["start->d", "d->x", "x->d", "d->t3", "t3->d", "d->end"]);
    expect(JSON.stringify(state)).toBe(JSON.stringify(await machineRun(wf, options)));
    expect(JSON.stringify(simulate(wf, options))).toBe(JSON.stringify(state));
  });
});
