/**
 * How a run finds its fixtures: by node index, whatever the order of the caller's keys, with
 * duplicated ids, `__proto__` keys and a decision of more routes than its edge ids are cached
 * for; and a fixtures object read once, for every run given it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AgentWorkflow } from "../../src/model/index.js";
import type { SimulateOptions } from "../../src/simulate/index.js";
import { explore, simulate } from "../../src/simulate/index.js";
import { edge, llm, workflow } from "./builders.js";
import { build, fixturesOf, specArb } from "./random-workflow.js";

const duplicated: AgentWorkflow = {
  ...workflow([llm("a"), llm("__proto__"), llm("a"), llm("b")], []),
  outputSchema: { "n?": "number" },
  edges: [edge("a", "__proto__"), edge("__proto__", "b")],
};

describe("fixtures by node index", () => {
  it("ends the same way whatever the order of the fixtures' keys", () => {
    fc.assert(
      fc.property(specArb, fc.func(fc.integer()), (spec, rank: (id: string) => number) => {
        const wf = build(spec);
        const fixtures = fixturesOf(spec);
        const entries = Object.entries(fixtures);
        entries.sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : 1));
        const options = { maxSteps: spec.maxSteps };
        const expected = JSON.stringify(simulate(wf, { ...options, fixtures }));
        const shuffled = { ...options, fixtures: Object.fromEntries(entries) };
        expect(JSON.stringify(simulate(wf, shuffled))).toBe(expected);
      }),
      { numRuns: 150 },
    );
  });

  it("pairs a duplicated id with its first node, and a `__proto__` id as any other", () => {
    const options: SimulateOptions = {
      fixtures: {
        a: { outputs: [{ n: 1 }] },
        ["__proto__"]: { fails: 0, outputs: [{ n: 2 }] },
        ghost: { outputs: [{ n: 9 }] },
      },
    };
    const state = simulate(duplicated, options);
    expect(state.visitedNodes).toEqual(["a", "__proto__", "b"]);
    expect(state.traversedEdges).toEqual(["a->__proto__", "__proto__->b"]);
    expect(state.trail.map((r) => r.output)).toEqual([{ n: 1 }, { n: 2 }, {}, { n: 2 }]);
    // A second run of the same workflow reuses its plan and edge ids; it must not see the first.
    expect(JSON.stringify(simulate(duplicated, options))).toBe(JSON.stringify(state));
    const failing = simulate(duplicated, { fixtures: { b: { fails: 1 } } });
    expect(failing.blockedDecision).toEqual({
      nodeId: "b",
      cell: "execution",
      reason: "execution failed: fixture failure 1 of 1",
    });
    expect(failing.visitedNodes).toEqual(["a", "__proto__", "b"]);
  });

  it("merges outputs as a spread does: own `__proto__` keys, integer-like keys, a key twice", () => {
    const fixtures = JSON.parse(
      '{"a": {"outputs": [{"z": 1, "2": "two", "__proto__": {"p": 1}}]},' +
        '"__proto__": {"outputs": [{"z": 2, "1": "one", "y": null}]},' +
        '"b": {"outputs": [{"__proto__": 3, "a": []}]}}',
    ) as NonNullable<SimulateOptions["fixtures"]>;
    const merged = simulate(duplicated, { fixtures });
    expect(JSON.stringify(merged.trail.at(-1)?.output)).toBe(
      '{"1":"one","2":"two","z":2,"__proto__":3,"y":null,"a":[]}',
    );
  });

  it("lists each edge of a decision of many cases once, in the order first taken", () => {
    // A decision of ten cases, whose route edges are built anew each time it routes.
    const cases = Array.from({ length: 10 }, (_, i) => ({
      condition: `output.pick = ${String(i)}`,
      next: i === 9 ? "x" : `t${String(i)}`,
      maxRetries: 3,
    }));
    const targets = [...Array.from({ length: 9 }, (_, i) => `t${String(i)}`), "x"];
    const wf: AgentWorkflow = {
      ...workflow(
        [
          llm("start"),
          { id: "d", type: "decision", config: { cases, otherwise: { next: "end" } } },
          ...targets.map((id) => llm(id)),
        ],
        [edge("start", "d"), ...targets.map((id) => edge(id, "d"))],
      ),
      outputSchema: { "pick?": "number" },
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
    expect(state.visitedNodes).toEqual(["start", "d", "x", "t3"]);
    expect(JSON.stringify(simulate(wf, options))).toBe(JSON.stringify(state));
  });
});

describe("a fixtures object read once", () => {
  const chain = workflow([llm("a"), llm("b")], [edge("a", "b")]);

  it("gives every run with the same object, on any workflow, what a fresh copy gives", () => {
    const fixtures = { a: { outputs: [{ n: 1 }] }, b: { fails: 1 } };
    const fresh = () => JSON.parse(JSON.stringify(fixtures)) as typeof fixtures;
    const first = JSON.stringify(simulate(chain, { fixtures }));
    expect(JSON.stringify(simulate(chain, { fixtures }))).toBe(first);
    expect(JSON.stringify(simulate(chain, { fixtures: fresh() }))).toBe(first);
    // Another workflow pairs the same object with its own nodes.
    const other = workflow([llm("b"), llm("a")], [edge("b", "a")]);
    expect(JSON.stringify(simulate(other, { fixtures }))).toBe(
      JSON.stringify(simulate(other, { fixtures: fresh() })),
    );
    expect(explore(chain, { fixtures }).blocks.map((b) => b.nodeId)).toEqual(["b"]);
  });

  it("reads each run's outputs and failures as the run uses them", () => {
    const fixtures = { a: { outputs: [{ n: 1 }] as Record<string, unknown>[], fails: 0 } };
    expect(simulate(chain, { fixtures }).trail[0]?.output).toEqual({ n: 1 });
    fixtures.a.outputs[0] = { n: 2 };
    expect(simulate(chain, { fixtures }).trail[0]?.output).toEqual({ n: 2 });
    fixtures.a.fails = 1;
    expect(simulate(chain, { fixtures }).blockedDecision?.cell).toBe("execution");
    fixtures.a.fails = 0;
    fixtures.a.outputs[0] = 5 as unknown as Record<string, unknown>;
    expect(() => simulate(chain, { fixtures })).toThrow(
      'fixtures["a"].outputs[0] must be a JSON object',
    );
  });

  it("refuses an object with a wrong fixture on every run, not only the first", () => {
    const fixtures = { a: {}, b: { fails: -1 } };
    for (let i = 0; i < 2; i++) {
      expect(() => simulate(chain, { fixtures })).toThrow(
        'fixtures["b"].fails must be a non-negative integer',
      );
    }
  });
});
