/**
 * Large workflows: a run costs what it touches, so a 100,000-node workflow is simulated in what
 * its run reaches, and long runs that go back and forth or follow a forced route far from the
 * entry give exactly what the XState machine gives, paused at each attempt for its executor; a
 * decision with thousands of routes is explored route by route.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createActor, fromPromise, toPromise } from "xstate";
import { generateWorkflow } from "../../bench/generate.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import type {
  ExecutorInput,
  ExploreReport,
  Fixtures,
  JsonObject,
  SimulateOptions,
  SimulationState,
} from "../../src/simulate/index.js";
import { explore, runUsage, simulate, toMachine } from "../../src/simulate/index.js";

/** The first `count` llm/tool nodes output `{ q, done }`, visit by visit. */
function fixturesFor(wf: AgentWorkflow, done: (k: number) => boolean, count = Infinity): Fixtures {
  const out: Record<string, { outputs: JsonObject[] }> = {};
  wf.nodes.forEach((node, k) => {
    if (node.type === "decision" || k >= count) return;
    out[node.id] = {
      outputs: [
        { q: `q${k}`, done: done(k) },
        { q: "again", done: true },
      ],
    };
  });
  return out;
}

/** The run the machine gives, driven by an actor whose executor replays the fixtures. */
async function machineRun(wf: AgentWorkflow, options: SimulateOptions): Promise<SimulationState> {
  const fixtures = options.fixtures ?? {};
  const execute = fromPromise<JsonObject, ExecutorInput>(({ input }) => {
    const outputs = fixtures[input.nodeId]?.outputs ?? [];
    return Promise.resolve(outputs[Math.min(input.visit, outputs.length) - 1] ?? {});
  });
  const machine = toMachine(wf).provide({ actors: { execute } });
  const input = { ...options };
  delete input.fixtures;
  return toPromise(createActor(machine, { input }).start());
}

describe("runs of large workflows", () => {
  const chain = generateWorkflow(100_000, "chain");

  it("with strictParams, stops a 100,000-node chain at its first unresolvable template after one step", () => {
    const state = simulate(chain, { strictParams: true });
    expect(state.blockedDecision).toEqual({
      nodeId: "n1",
      cell: "execution",
      reason: '{{n0.output.q}}: the last output of "n0" has no field "q"',
    });
    expect(runUsage(state).steps).toBe(1);
  });

  it("runs a 100,000-node chain with fixtures up to maxSteps", () => {
    const state = simulate(chain, {
      fixtures: fixturesFor(chain, () => false, 601),
      maxSteps: 600,
    });
    expect(state.blockedDecision).toEqual({
      nodeId: "n600",
      cell: "budget",
      reason: "maxSteps 600 reached: the simulation's step bound stops the run",
    });
    expect(state.visitedNodes).toHaveLength(601);
    expect(state.trail.at(-2)?.output).toEqual({ q: "q599", done: false });
  });

  it("gives what the machine gives on a run that goes back and forth over 600 nodes", async () => {
    // Loops of ten nodes, each retried while `done` is false: the run goes back and forth.
    const wf = generateWorkflow(600, "loops");
    const options = { fixtures: fixturesFor(wf, (k) => k % 3 !== 0) };
    const state = simulate(wf, options);
    expect(state.complete).toBe(true);
    expect(runUsage(state).steps).toBeGreaterThan(600);
    expect(JSON.stringify(state)).toBe(JSON.stringify(await machineRun(wf, options)));
  });

  it("gives what the machine gives on runs bounded by maxSteps, with and without forced routes", async () => {
    const wf = generateWorkflow(3_000, "loops");
    const options = { fixtures: fixturesFor(wf, (k) => k % 3 !== 0), maxSteps: 700 };
    const state = simulate(wf, options);
    expect(state.blockedDecision?.cell).toBe("budget");
    expect(runUsage(state).moves).toBe(700);
    expect(JSON.stringify(state)).toBe(JSON.stringify(await machineRun(wf, options)));
    const forced = { ...options, decide: { n9: ["onFalse", "onFalse", "onTrue"] }, maxSteps: 40 };
    expect(JSON.stringify(simulate(wf, forced))).toBe(JSON.stringify(await machineRun(wf, forced)));
  });

  it("follows a forced route 2,000 nodes from the entry, as the machine does", async () => {
    const wf = generateWorkflow(2_100, "wide");
    const options = { fixtures: fixturesFor(wf, () => true), decide: { n0: ["cases/2000"] } };
    const state = simulate(wf, options);
    expect(state.visitedNodes).toEqual(["n0", "n2001"]);
    expect(JSON.stringify(state)).toBe(JSON.stringify(await machineRun(wf, options)));
  });
});

describe("explore on a decision with 20,000 routes", () => {
  let report: ExploreReport;
  beforeAll(() => {
    report = explore(generateWorkflow(20_001, "wide"));
  });

  it("runs the first 1,000 routes and says the bound cut the search", () => {
    expect(report.runs).toHaveLength(1_000);
    expect(report.truncated).toBe(true);
    expect(report.runs[999]?.choices).toEqual([
      { nodeId: "n0", visit: 1, route: "cases/999", forced: true },
    ]);
  });

  it("reports the coverage of every route", () => {
    expect(report.coverage).toHaveLength(20_001);
    expect(report.coverage[999]).toEqual({
      nodeId: "n0",
      route: "cases/999",
      next: "n1000",
      status: "taken",
      runs: 1,
    });
    expect(report.coverage[20_000]).toEqual({
      nodeId: "n0",
      route: "otherwise",
      next: "end",
      status: "not-reached",
      runs: 0,
      reason: "no explored run took otherwise",
    });
  });
});
