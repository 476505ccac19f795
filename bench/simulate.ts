/**
 * Simulation throughput in steps per second: a 50-node chain, a 1,000-node chain and a loop bounded
 * at 100 iterations. `node --import tsx bench/simulate.ts` prints the table; `benchSimulate()`
 * returns the rows for a combined report. Ratios between rows, not absolute times, are what carry
 * from one machine to another.
 */
import { pathToFileURL } from "node:url";
import { Bench } from "tinybench";
import type { AgentEdge, AgentNode, AgentWorkflow } from "../src/model/index.js";
import type { SimulateOptions } from "../src/simulate/index.js";
import { runUsage, simulate } from "../src/simulate/index.js";

/** One measured task. */
export interface SimulateBenchRow {
  readonly task: string;
  /** Steps one run executes. */
  readonly steps: number;
  readonly meanMs: number;
  readonly stepsPerSecond: number;
  readonly samples: number;
}

function shell(nodes: AgentNode[], edges: AgentEdge[]): AgentWorkflow {
  return {
    kind: "AgentWorkflow",
    id: "agnt-bench",
    version: "1.0.0",
    name: "Bench",
    autonomyLevel: 2,
    inputSchema: { q: "text" },
    outputSchema: { "done?": "bool" },
    nodes,
    edges,
  };
}

/** `size` llm nodes in a row. */
function chain(size: number): AgentWorkflow {
  const nodes: AgentNode[] = [];
  const edges: AgentEdge[] = [];
  for (let i = 0; i < size; i++) {
    nodes.push({ id: `s${i}`, type: "llm", config: { model: "m", promptRef: "prm:p@1.0.0" } });
    if (i > 0) edges.push({ from: `s${i - 1}`, to: `s${i}`, edgeType: "data" });
  }
  return shell(nodes, edges);
}

/** An llm node and a decision looping back to it at most `iterations` times. */
function loop(iterations: number): AgentWorkflow {
  return shell(
    [
      { id: "work", type: "llm", config: { model: "m", promptRef: "prm:p@1.0.0" } },
      {
        id: "check",
        type: "decision",
        config: {
          condition: "output.done = true",
          onTrue: { next: "end" },
          onFalse: { next: "work", maxRetries: iterations },
        },
      },
    ],
    [{ from: "work", to: "check", edgeType: "data" }],
  );
}

const loopFixtures = (iterations: number): SimulateOptions => ({
  fixtures: {
    work: {
      outputs: [...Array.from({ length: iterations }, () => ({ done: false })), { done: true }],
    },
  },
});

/** Runs the benchmark and returns one row per task. */
export async function benchSimulate(): Promise<SimulateBenchRow[]> {
  const tasks: readonly [string, AgentWorkflow, SimulateOptions][] = [
    ["chain of 50", chain(50), {}],
    ["chain of 1,000", chain(1_000), {}],
    ["loop of 100 iterations", loop(100), loopFixtures(100)],
  ];
  const bench = new Bench({ time: 1_000, iterations: 5 });
  const steps = new Map<string, number>();
  for (const [name, wf, options] of tasks) {
    const state = simulate(wf, options);
    if (!state.complete) throw new Error(`${name} did not complete`);
    steps.set(name, runUsage(state).steps);
    bench.add(name, () => simulate(wf, options));
  }
  await bench.run();
  return bench.tasks.map((task) => {
    const result = task.result;
    if (result.state !== "completed") throw new Error(`${task.name} did not complete`);
    const perRun = steps.get(task.name) ?? 0;
    const meanMs = result.latency.mean;
    return {
      task: task.name,
      steps: perRun,
      meanMs,
      stepsPerSecond: Math.round(perRun / (meanMs / 1000)),
      samples: result.latency.samplesCount,
    };
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await benchSimulate();
  console.table(
    rows.map((r) => ({
      task: r.task,
      steps: r.steps,
      "mean (ms)": r.meanMs.toFixed(2),
      "steps/s": r.stepsPerSecond,
      samples: r.samples,
    })),
  );
}
