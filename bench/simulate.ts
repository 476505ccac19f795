/**
 * Simulation throughput: steps per second on chains of llm nodes of 50, 1,000, 5,000 and 100,000
 * nodes (one fixture output each, the same fixtures object every run, as explore's runs and a
 * report's share theirs) with each size's rate as a share of the 50-node rate (1.00 is flat with
 * size), a loop bounded at 100 iterations, two floors on the same chains (the result's records
 * alone; the fixtures read and recorded — work any simulator of a chain does) with their own
 * ratios and what the first leaves of a 100,000-node run's budget, the minor page faults of a run
 * of each row and what one costs on this machine (on a virtual machine they can be most of a
 * 100,000-step run), and `explore` — runs and steps per second — on the shipped templates and on
 * a 1,000-node workflow with 100 decisions.
 * `node --expose-gc --import tsx bench/simulate.ts` prints the tables; `benchSimulate()` and
 * `benchExplore()` return the rows for a combined report. Ratios between rows of one run, not
 * absolute times, are what carry from one machine to another.
 */
import { PerformanceObserver } from "node:perf_hooks";
import { setImmediate } from "node:timers";
import { pathToFileURL } from "node:url";
import { Bench } from "tinybench";
import type { AgentEdge, AgentNode, AgentWorkflow } from "../src/model/index.js";
import { getTemplate, listTemplates } from "../src/model/index.js";
import type { NodeFixture, SimulateOptions } from "../src/simulate/index.js";
import { explore, runUsage, simulate } from "../src/simulate/index.js";

/** One measured simulation task. */
export interface SimulateBenchRow {
  readonly task: string;
  /** Nodes of the workflow. */
  readonly nodes: number;
  /** Steps one run executes (moves: llm/tool attempts and decision evaluations). */
  readonly steps: number;
  readonly meanMs: number;
  readonly stepsPerSecond: number;
  /** `stepsPerSecond` over the 50-node row's of its kind (chains and floors). */
  readonly vs50?: number;
  readonly samples: number;
  /**
   * Minor page faults a run makes, counted over extra runs after the timed ones: memory the run
   * touches for the first time since the system last took it back (V8's new heap pages and large
   * arrays), which on a virtual machine can cost far more than the run's own work.
   */
  readonly faults: number;
  /** Milliseconds of garbage collector pauses a run causes, counted with `faults`. */
  readonly gcMs: number;
}

/** What one minor page fault costs on this machine, measured by {@link pageFaultCost}. */
export interface PageFaultCost {
  readonly faults: number;
  readonly microsecondsPerFault: number;
}

/** One measured `explore` task. */
export interface ExploreBenchRow {
  readonly task: string;
  readonly nodes: number;
  /** Runs one exploration makes. */
  readonly runs: number;
  /** llm/tool steps over all its runs. */
  readonly steps: number;
  readonly meanMs: number;
  readonly runsPerSecond: number;
  readonly stepsPerSecond: number;
  readonly samples: number;
}

/** Chain sizes; the first is the reference of `vs50`. */
export const CHAIN_SIZES = [50, 1_000, 5_000, 100_000] as const;

/** The share of the 50-node rate a chain of any size must keep to count as flat (issue 20). */
const FLAT_SHARE = 0.7;

/** The prefixes of the floors' task names, before the chain's name. */
const FLOOR = {
  result: "floor, the result alone: ",
  read: "floor, fixtures read too: ",
} as const;

/** The task name of the chain of `size` nodes. */
function chainName(size: number): string {
  return `chain of ${size.toLocaleString("en-US")}`;
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

const llm = (id: string): AgentNode => ({
  id,
  type: "llm",
  config: { model: "m", promptRef: "prm:p@1.0.0" },
});

/** `size` llm nodes in a row, and a fixture output for each. */
function chain(size: number): [AgentWorkflow, SimulateOptions] {
  const nodes: AgentNode[] = [];
  const edges: AgentEdge[] = [];
  const fixtures: Record<string, NodeFixture> = {};
  for (let i = 0; i < size; i++) {
    nodes.push(llm(`s${i}`));
    fixtures[`s${i}`] = { outputs: [{ done: i === size - 1 }] };
    if (i > 0) edges.push({ from: `s${i - 1}`, to: `s${i}`, edgeType: "data" });
  }
  return [shell(nodes, edges), { fixtures, maxSteps: Math.max(size, 10_000) }];
}

/** An llm node and a decision looping back to it at most `iterations` times. */
function loop(iterations: number): [AgentWorkflow, SimulateOptions] {
  const wf = shell(
    [
      llm("work"),
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
  const outputs = [...Array.from({ length: iterations }, () => ({ done: false })), { done: true }];
  return [wf, { fixtures: { work: { outputs } } }];
}

/**
 * `decisions` segments of `perSegment - 1` llm nodes and a decision that goes on to the next
 * segment or ends the run: exploring it runs every way out, `decisions + 1` runs.
 */
function segmented(decisions: number, perSegment: number): AgentWorkflow {
  const nodes: AgentNode[] = [];
  const edges: AgentEdge[] = [];
  for (let d = 0; d < decisions; d++) {
    for (let i = 0; i < perSegment - 1; i++) {
      const id = `g${d}-n${i}`;
      nodes.push(llm(id));
      if (i > 0) edges.push({ from: `g${d}-n${i - 1}`, to: id, edgeType: "data" });
    }
    const next = d + 1 < decisions ? `g${d + 1}-n0` : "end";
    nodes.push({
      id: `g${d}-check`,
      type: "decision",
      config: {
        condition: `output.stop${d} = true`,
        onTrue: { next: "end" },
        onFalse: { next },
      },
    });
    edges.push({ from: `g${d}-n${perSegment - 2}`, to: `g${d}-check`, edgeType: "data" });
  }
  return { ...shell(nodes, edges), autonomyLevel: 3 };
}

/** A record as a run writes one: the floors build the same shape. */
interface FloorRecord {
  readonly step: number;
  readonly type: "move";
  readonly message: string;
  readonly nodeId: string;
  readonly edgeId: string;
  readonly visit: number;
  readonly attempt: number;
  readonly output: Record<string, unknown>;
}

/**
 * Floor 1, the result alone: per step a move record and an output object, kept in an array, as
 * a run's trail keeps them (strings made beforehand, as a plan makes them once).
 */
function resultFloor(wf: AgentWorkflow): () => unknown {
  const ids = wf.nodes.map((n) => n.id);
  const messages = ids.map((id) => `${id} ran (visit 1)`);
  return () => {
    const trail: FloorRecord[] = [];
    for (let k = 0; k < ids.length; k++) {
      const output = { done: false };
      const [nodeId, message] = [ids[k] ?? "", messages[k] ?? ""];
      trail.push({
        step: k + 1,
        type: "move",
        message,
        nodeId,
        edgeId: message,
        visit: 1,
        attempt: 1,
        output,
      });
    }
    return trail;
  };
}

/**
 * Floor 2, the fixtures read as well: per step the node, its fixture found by id in the caller's
 * object, its output read (each field, as a run merges it), and the record kept — the least a run
 * of the chain must touch.
 */
function fixturesFloor(wf: AgentWorkflow, options: SimulateOptions): () => unknown {
  const fixtures = options.fixtures ?? {};
  const messages = wf.nodes.map((n) => `${n.id} ran (visit 1)`);
  return () => {
    const trail: FloorRecord[] = [];
    const merged: Record<string, unknown> = {};
    for (let k = 0; k < wf.nodes.length; k++) {
      const node = wf.nodes[k];
      if (node?.type !== "llm") continue;
      const output = Object.hasOwn(fixtures, node.id) ? fixtures[node.id]?.outputs?.[0] : undefined;
      for (const key in output) if (Object.hasOwn(output, key)) merged[key] = output[key];
      const message = messages[k] ?? "";
      trail.push({
        step: k + 1,
        type: "move",
        message,
        nodeId: node.id,
        edgeId: message,
        visit: 1,
        attempt: 1,
        output: output ?? {},
      });
    }
    return trail;
  };
}

function minorFaults(): number {
  return process.resourceUsage().minorPageFault;
}

/** A run's page faults and collector pauses. */
interface RunCosts {
  readonly faults: number;
  readonly gcMs: number;
}

/**
 * The minor page faults and the garbage collector's pauses (V8's `gc` performance entries) per
 * call of `run`, over extra calls after the timed ones — enough for some 200,000 steps — with a
 * turn of the event loop after each so that the entries arrive.
 */
async function costsPerRun(steps: number, run: () => unknown): Promise<RunCosts> {
  const runs = Math.max(5, Math.ceil(200_000 / Math.max(steps, 1)));
  let gcMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  });
  observer.observe({ entryTypes: ["gc"] });
  let faults = 0;
  let kept: unknown;
  for (let i = 0; i < runs; i++) {
    const before = minorFaults();
    kept = run();
    faults += minorFaults() - before;
    await new Promise(setImmediate);
  }
  await new Promise((resolve) => setTimeout(resolve, 20));
  observer.disconnect();
  if (kept === undefined) throw new Error("a run returned nothing");
  return { faults: faults / runs, gcMs: gcMs / runs };
}

/**
 * The time of a minor page fault on this machine: fresh 64 MiB buffers touched a byte per 4 KiB
 * page, nothing else done, so the time is the faults'. Bare metal takes a fraction of a
 * microsecond; a virtual machine whose host backs guest memory lazily can take tens of times that.
 */
export function pageFaultCost(): PageFaultCost {
  let faults = 0;
  let ms = 0;
  for (let r = 0; r < 8; r++) {
    const before = minorFaults();
    const start = performance.now();
    const buffer = new Uint8Array(64 << 20);
    for (let i = 0; i < buffer.length; i += 4096) buffer[i] = 1;
    ms += performance.now() - start;
    faults += minorFaults() - before;
  }
  return { faults, microsecondsPerFault: faults === 0 ? 0 : (ms * 1000) / faults };
}

/** Times `run` alone, from a collected heap, and returns its row (without `vs50`). */
async function measure(
  task: string,
  nodes: number,
  steps: number,
  run: () => unknown,
): Promise<SimulateBenchRow> {
  // Each task alone, from a collected heap: what one task left must not be traced in the next.
  (globalThis as { gc?: () => void }).gc?.();
  const bench = new Bench({
    time: nodes >= 100_000 ? 3_000 : 1_000,
    iterations: 5,
    warmupTime: 500,
  });
  bench.add(task, run);
  await bench.run();
  const result = bench.tasks[0]?.result;
  if (result?.state !== "completed") throw new Error(`${task} did not complete`);
  const meanMs = result.latency.mean;
  return {
    task,
    nodes,
    steps,
    meanMs,
    stepsPerSecond: Math.round(steps / (meanMs / 1000)),
    samples: result.latency.samplesCount,
    ...(await costsPerRun(steps, run)),
  };
}

/** Each row with its rate over the first row's. */
function against50(rows: readonly SimulateBenchRow[]): SimulateBenchRow[] {
  const reference = rows[0]?.stepsPerSecond ?? NaN;
  return rows.map((r) => ({ ...r, vs50: r.stepsPerSecond / reference }));
}

/**
 * Runs the simulation benchmark and returns one row per task: the chains, the loop, then the two
 * floors on the same chains — work any simulator of the chain does, outside agentflow's code,
 * whose own ratios show what the machine's memory takes from a long run.
 */
export async function benchSimulate(): Promise<SimulateBenchRow[]> {
  const chains = CHAIN_SIZES.map((size) => {
    const [wf, options] = chain(size);
    return { size, wf, options, name: chainName(size) };
  });
  const simulated: SimulateBenchRow[] = [];
  for (const { size, wf, options, name } of chains) {
    const state = simulate(wf, options);
    if (!state.complete) throw new Error(`${name} did not complete`);
    simulated.push(await measure(name, size, runUsage(state).moves, () => simulate(wf, options)));
  }
  const [loopWf, loopOptions] = loop(100);
  const looped = simulate(loopWf, loopOptions);
  if (!looped.complete) throw new Error("the loop did not complete");
  const loopRow = await measure("loop of 100 iterations", 2, runUsage(looped).moves, () =>
    simulate(loopWf, loopOptions),
  );
  const results: SimulateBenchRow[] = [];
  const read: SimulateBenchRow[] = [];
  for (const { size, wf, options, name } of chains) {
    results.push(await measure(FLOOR.result + name, size, size, resultFloor(wf)));
    read.push(await measure(FLOOR.read + name, size, size, fixturesFloor(wf, options)));
  }
  return [...against50(simulated), loopRow, ...against50(results), ...against50(read)];
}

/**
 * What 0.7 of the 50-node rate allows a 100,000-node run, beside the floor every run of it pays:
 * its result. `undefined` when a row is missing.
 */
export function budgetLine(rows: readonly SimulateBenchRow[]): string | undefined {
  const largest = CHAIN_SIZES[CHAIN_SIZES.length - 1] ?? 0;
  const named = (task: string) => rows.find((r) => r.task === task);
  const small = named(chainName(CHAIN_SIZES[0]));
  const chain = named(chainName(largest));
  const result = named(FLOOR.result + chainName(largest));
  if (small === undefined || chain === undefined || result === undefined) return undefined;
  const budget = (largest / (FLAT_SHARE * small.stepsPerSecond)) * 1000;
  return (
    `${largest.toLocaleString("en-US")} nodes at ${String(FLAT_SHARE)} of the 50-node rate: ${budget.toFixed(1)} ms a run; ` +
    `the run takes ${chain.meanMs.toFixed(1)} ms; the result alone ${result.meanMs.toFixed(1)} ms`
  );
}

/** Runs the `explore` benchmark and returns one row per workflow. */
export async function benchExplore(): Promise<ExploreBenchRow[]> {
  const workflows: [string, AgentWorkflow][] = listTemplates().map((t) => {
    const wf = getTemplate(t.id);
    if (wf === undefined) throw new Error(`no template ${t.id}`);
    return [`template ${t.id}`, wf];
  });
  workflows.push(["1,000 nodes, 100 decisions", segmented(100, 10)]);
  const rows: ExploreBenchRow[] = [];
  for (const [name, wf] of workflows) {
    // Sampled outputs, so that each run goes past the first node whose output schema `{}` fails.
    const options = { sampleOutputs: true };
    const report = explore(wf, options);
    const steps = report.runs.reduce((sum, run) => sum + run.steps, 0);
    (globalThis as { gc?: () => void }).gc?.();
    const bench = new Bench({ time: 1_000, iterations: 5, warmupTime: 500 });
    bench.add(name, () => explore(wf, options));
    await bench.run();
    const result = bench.tasks[0]?.result;
    if (result?.state !== "completed") throw new Error(`${name} did not complete`);
    const meanMs = result.latency.mean;
    rows.push({
      task: `explore: ${name}`,
      nodes: wf.nodes.length,
      runs: report.runs.length,
      steps,
      meanMs,
      runsPerSecond: Math.round(report.runs.length / (meanMs / 1000)),
      stepsPerSecond: Math.round(steps / (meanMs / 1000)),
      samples: result.latency.samplesCount,
    });
  }
  return rows;
}

/**
 * The simulation rows as a printable table; with the machine's page fault cost, each row's
 * faults as milliseconds of its run too.
 */
export function simulateTable(
  rows: readonly SimulateBenchRow[],
  cost?: PageFaultCost,
): Record<string, string>[] {
  return rows.map((r) => ({
    task: r.task.startsWith("floor") ? r.task : `simulate: ${r.task}`,
    steps: String(r.steps),
    "mean (ms)": r.meanMs.toFixed(3),
    "steps/s": r.stepsPerSecond.toLocaleString("en-US"),
    "vs 50 nodes": r.vs50 !== undefined ? r.vs50.toFixed(2) : "",
    "page faults/run": Math.round(r.faults).toLocaleString("en-US"),
    ...(cost === undefined
      ? {}
      : { "faults (ms/run)": ((r.faults * cost.microsecondsPerFault) / 1000).toFixed(1) }),
    "GC pauses (ms/run)": r.gcMs.toFixed(1),
  }));
}

/** The page fault cost as one printable line. */
export function pageFaultLine(cost: PageFaultCost): string {
  return `minor page fault: ${cost.microsecondsPerFault.toFixed(2)} µs (${cost.faults.toLocaleString("en-US")} faults of fresh 64 MiB buffers)`;
}

/** The explore rows as a printable table. */
export function exploreTable(rows: readonly ExploreBenchRow[]): Record<string, string>[] {
  return rows.map((r) => ({
    task: r.task,
    nodes: String(r.nodes),
    runs: String(r.runs),
    steps: String(r.steps),
    "mean (ms)": r.meanMs.toFixed(3),
    "runs/s": r.runsPerSecond.toLocaleString("en-US"),
    "steps/s": r.stepsPerSecond.toLocaleString("en-US"),
  }));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await benchSimulate();
  const cost = pageFaultCost();
  console.log(pageFaultLine(cost));
  console.table(simulateTable(rows, cost));
  const budget = budgetLine(rows);
  if (budget !== undefined) console.log(budget);
  console.table(exploreTable(await benchExplore()));
}
