/**
 * `npm run bench`: times parsing, graph building and validation on generated workflows of 1,000,
 * 10,000 and 100,000 nodes (chains, loops, one wide decision) and reports the 100k/10k and 10k/1k
 * ratios (≈ 10 means linear). Ratios are measured within one run, never against fixed times, and
 * use each task's median: one major garbage collection landing in a 100k sample moves a mean by
 * tens of percent. Two floors run on the same inputs: `JSON.parse` of the text and a `Map` of the
 * node ids, work any parser must do, whose own ratios show what the machine's memory adds at 100k.
 * Results also go to `.bench-results/` as JSON.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { Bench } from "tinybench";
import { buildFlowGraph, parseWorkflow, parseWorkflowText } from "../src/model/index.js";
import { createValidator } from "../src/validate/index.js";
import type { GraphShape } from "./generate.js";
import { generateWorkflow } from "./generate.js";
import { benchBpmn, bpmnRatios, bpmnTable } from "./bpmn.js";
import { benchCli } from "./cli.js";
import { benchExtra, extraTable, peakRssMb } from "./extra.js";
import { benchSimulate } from "./simulate.js";

const SIZES = [1_000, 10_000, 100_000] as const;
const SHAPES: readonly GraphShape[] = ["chain", "loops", "wide"];

interface Row {
  readonly task: string;
  readonly size: number;
  /** The median (p50) latency; the name is kept for the JSON consumers. */
  readonly meanMs: number;
  readonly samples: number;
}

const validator = createValidator();

async function measure(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const size of SIZES) {
    // Start each size from a collected heap, so that one size's garbage is not billed to the next.
    (globalThis as { gc?: () => void }).gc?.();
    const bench = new Bench({ time: size >= 100_000 ? 2_000 : 500, iterations: 5 });
    const loops = generateWorkflow(size, "loops");
    const text = JSON.stringify(loops);
    bench
      .add("parse + graph: text → FlowGraph (loops)", () => {
        const parsed = parseWorkflowText(text, { format: "json" }).workflow;
        if (parsed === undefined) throw new Error("the generated workflow must parse");
        return buildFlowGraph(parsed);
      })
      .add("parseWorkflowText (loops)", () => parseWorkflowText(text, { format: "json" }))
      .add("parseWorkflow (loops)", () => parseWorkflow(loops))
      .add("buildFlowGraph (loops)", () => buildFlowGraph(loops))
      .add("floor: JSON.parse (loops)", () => JSON.parse(text) as unknown)
      .add("floor: Map of node ids (loops)", () => new Map(loops.nodes.map((n, i) => [n.id, i])));
    for (const shape of SHAPES) {
      const wf = generateWorkflow(size, shape);
      // A fresh copy per run: the graph view is memoised per workflow object.
      bench.add(`validate (${shape})`, () => validator.validateSync({ ...wf }));
    }
    await bench.run();
    for (const task of bench.tasks) {
      const result = task.result;
      if (result.state !== "completed") throw new Error(`${task.name} did not complete`);
      rows.push({
        task: task.name,
        size,
        meanMs: result.latency.p50,
        samples: result.latency.samplesCount,
      });
    }
  }
  return rows;
}

const rows = await measure();
const at = (task: string, size: number): number =>
  rows.find((r) => r.task === task && r.size === size)?.meanMs ?? NaN;
const table = [...new Set(rows.map((r) => r.task))].map((task) => {
  const cells: Record<string, string> = { task };
  for (const size of SIZES) cells[`${size / 1000}k (ms)`] = at(task, size).toFixed(2);
  cells["10k/1k"] = (at(task, 10_000) / at(task, 1_000)).toFixed(2);
  cells["100k/10k"] = (at(task, 100_000) / at(task, 10_000)).toFixed(2);
  return cells;
});
console.table(table);
const simulation = await benchSimulate();
console.table(
  simulation.map((r) => ({
    task: `simulate: ${r.task}`,
    steps: r.steps,
    "mean (ms)": r.meanMs.toFixed(2),
    "steps/s": r.stepsPerSecond,
  })),
);
const extra = await benchExtra();
console.table(extraTable(extra));
const bpmn = await benchBpmn();
console.table(bpmnTable(bpmn));
console.table(bpmnRatios(bpmn));
const cli = await benchCli();
console.table(cli);
const peak = peakRssMb();
console.log(`peak RSS of the whole run: ${peak} MB (node ${process.version})`);
mkdirSync(".bench-results", { recursive: true });
writeFileSync(
  ".bench-results/bench.json",
  JSON.stringify(
    { node: process.version, rows, table, simulation, extra, bpmn, cli, peakRssMb: peak },
    null,
    2,
  ) + "\n",
);
