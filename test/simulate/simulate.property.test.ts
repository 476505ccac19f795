/**
 * On random structurally valid workflows with random fixtures, `simulate` never throws, always
 * ends either complete or blocked (never both, never neither), and never exceeds `maxSteps`.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseWorkflow } from "../../src/model/index.js";
import { runUsage, simulate } from "../../src/simulate/index.js";
import { build, decideOf, fixturesOf, specArb } from "./random-workflow.js";

describe("simulate on random valid workflows", () => {
  it("never throws, ends exactly one way, and stays within maxSteps", () => {
    fc.assert(
      fc.property(specArb, fc.boolean(), (spec, withDecide) => {
        const wf = build(spec);
        expect(parseWorkflow(wf).workflow).toBeDefined();
        const state = simulate(wf, {
          fixtures: fixturesOf(spec),
          input: { q: "x" },
          maxSteps: spec.maxSteps,
          ...(withDecide ? { decide: decideOf(spec) } : {}),
        });
        expect(state.complete !== (state.blockedDecision !== null)).toBe(true);
        expect(runUsage(state).steps).toBeLessThanOrEqual(spec.maxSteps);
        for (const record of state.trail) expect(record.step).toBeLessThanOrEqual(spec.maxSteps);
        const last = state.trail[state.trail.length - 1];
        expect(last?.type).toBe(state.complete ? "end" : "decision-blocked");
        expect(state.tokens).toEqual(state.complete ? [] : [state.blockedDecision?.nodeId]);
      }),
      { numRuns: 400 },
    );
  });
});
