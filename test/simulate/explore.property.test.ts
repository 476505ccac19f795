/**
 * `explore` ends a run at the decision it branches on and tallies each run as it ends. This holds
 * it to the plain statement of what it reports: every run simulated to its end with `simulate`,
 * the branch point read from the run's trail (the first decision visit not forced and not a
 * budget stop), and the coverage, stops and completions counted over the kept runs — over random
 * workflows (decisions, loops, retries, error boundaries), fixtures, budgets and revisit bounds.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AgentWorkflow } from "../../src/model/index.js";
import { flowGraph, isForwardRouteAt } from "../../src/model/index.js";
import type {
  DecideTable,
  ExploreOptions,
  ExploreReport,
  SimulationState,
} from "../../src/simulate/index.js";
import { explore, runUsage, simulate } from "../../src/simulate/index.js";
import { exploreWith } from "../../src/simulate/explore.js";
import { build, fixturesOf, specArb } from "./random-workflow.js";

interface Reference {
  readonly decides: readonly DecideTable[];
  readonly states: readonly SimulationState[];
  readonly bounded: boolean;
  readonly truncated: boolean;
}

/** explore as first written: each run to its end, its branch point found in its trail. */
function reference(wf: AgentWorkflow, options: ExploreOptions): Reference {
  const maxRevisits = options.maxRevisits ?? 3;
  const maxRuns = options.maxRuns ?? 1000;
  const decides: DecideTable[] = [];
  const states: SimulationState[] = [];
  let bounded = false;
  const stack: DecideTable[] = [{}];
  while (stack.length > 0 && states.length < maxRuns) {
    const decide = stack.pop() ?? {};
    const state = simulate(wf, { ...options, decide });
    const record = state.trail.find(
      (r) =>
        r.forced === false &&
        (r.type === "decision" || r.type === "decision-blocked") &&
        wf.nodes.find((n) => n.id === r.nodeId)?.type === "decision",
    );
    // The routes of the decision the trail names, with the model's own reading of which loop back.
    const graph = flowGraph(wf);
    const k = record?.nodeId === undefined ? undefined : graph.index.get(record.nodeId);
    const start = k === undefined ? 0 : (graph.routeStart[k] ?? 0);
    const routes = (k === undefined ? [] : (graph.routes[k] ?? [])).map((route, r) => ({
      label: route.label,
      loopsBack: k !== undefined && !isForwardRouteAt(graph, k, start + r),
    }));
    const visit = record?.visit ?? 0;
    const tried = visit > maxRevisits + 1 ? routes.filter((r) => !r.loopsBack) : routes;
    if (tried.length < routes.length) bounded = true;
    if (record?.nodeId !== undefined && tried.length > 0) {
      const prefix = decide[record.nodeId] ?? [];
      for (let i = tried.length - 1; i >= 0; i--) {
        stack.push({ ...decide, [record.nodeId]: [...prefix, tried[i]?.label ?? ""] });
      }
      continue;
    }
    decides.push(decide);
    states.push(state);
  }
  return { decides, states, bounded, truncated: stack.length > 0 };
}

/** What the report says of its runs, from the kept states alone. */
function summary(report: ExploreReport) {
  return {
    runs: report.runs.map((r) => ({
      decide: r.decide,
      complete: r.complete,
      blockedDecision: r.blockedDecision,
      steps: r.steps,
    })),
    bounded: report.bounded,
    truncated: report.truncated,
  };
}

describe("explore against every run simulated to its end", () => {
  it("makes the same runs, bounds and stops, and counts the same coverage", () => {
    let branched = 0;
    fc.assert(
      fc.property(
        specArb,
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 1, max: 40 }),
        (spec, maxRevisits, maxRuns) => {
          const wf = build(spec);
          const options: ExploreOptions = {
            fixtures: fixturesOf(spec),
            maxSteps: spec.maxSteps,
            maxRevisits,
            maxRuns,
          };
          const report = explore(wf, { ...options, keepStates: true });
          const expected = reference(wf, options);
          // Routes go on from a copy of the run that reached their branch; with no room for
          // copies (0) every run starts again, and with room for a few (64 slots) both mix.
          for (const slots of [0, 64]) {
            const other = exploreWith(wf, { ...options, keepStates: true }, slots);
            expect(JSON.stringify(other)).toBe(JSON.stringify(report));
          }
          if (expected.states.length > 1) branched++;
          expect(summary(report)).toEqual({
            runs: expected.states.map((state, i) => ({
              decide: expected.decides[i],
              complete: state.complete,
              blockedDecision: state.blockedDecision,
              steps: runUsage(state).steps,
            })),
            bounded: expected.bounded,
            truncated: expected.truncated,
          });
          expect(JSON.stringify(report.states)).toBe(JSON.stringify(expected.states));
          // Coverage: a route is taken by the runs whose trail has a decision record on it.
          for (const c of report.coverage) {
            const runs = expected.states.filter((s) =>
              s.trail.some(
                (r) => r.type === "decision" && r.nodeId === c.nodeId && r.route === c.route,
              ),
            ).length;
            expect({ route: `${c.nodeId}/${c.route}`, runs: c.runs }).toEqual({
              route: `${c.nodeId}/${c.route}`,
              runs,
            });
          }
          // Stops and completions: distinct, in order of first run, with every run listed.
          const stops = expected.states.flatMap((s, i) =>
            s.blockedDecision === null ? [] : [[i, JSON.stringify(s.blockedDecision)] as const],
          );
          expect(
            report.blocks
              .flatMap((b) =>
                b.runs.map(
                  (i) =>
                    [
                      i,
                      JSON.stringify({ nodeId: b.nodeId, cell: b.cell, reason: b.reason }),
                    ] as const,
                ),
              )
              .sort((a, b) => a[0] - b[0]),
          ).toEqual(stops);
          expect(report.ends.flatMap((e) => e.runs).sort((a, b) => a - b)).toEqual(
            expected.states.flatMap((s, i) => (s.complete ? [i] : [])),
          );
        },
      ),
      { numRuns: 200, seed: 20_261_204 },
    );
    // The property is about branching: most cases must have made more than one run.
    expect(branched).toBeGreaterThan(50);
  });
});
