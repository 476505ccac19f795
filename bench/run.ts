/**
 * `npm run bench`: times parse + graph build on generated workflows of 1,000, 10,000 and 100,000
 * nodes and reports the 100k/10k ratio (≈ 10 means linear). Results also go to
 * `.bench-results/` as JSON. Ratios are measured within one run, never against fixed times.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { Bench } from "tinybench";
import { buildFlowGraph, parseWorkflow, parseWorkflowText } from "../src/model/index.js";
import { generateWorkflow } from "./generate.js";

const SIZES = [1_000, 10_000, 100_000] as const;

interface Row {
  readonly task: string;
  readonly size: number;
  readonly meanMs: number;
  readonly samples: number;
}

async function measure(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const size of SIZES) {
    // Start each size from a collected heap, so that one size's garbage is not billed to the next.
    (globalThis as { gc?: () => void }).gc?.();
    const workflow = generateWorkflow(size, "loops");
    const text = JSON.stringify(workflow);
    const bench = new Bench({ time: size >= 100_000 ? 2_000 : 500, iterations: 5 });
    bench
      .add(`parseWorkflowText + graph (${size})`, () => {
        const parsed = parseWorkflowText(text, { format: "json" });
        if (parsed.workflow === undefined) throw new Error("generated workflow did not parse");
        buildFlowGraph(parsed.workflow);
      })
      .add(`parseWorkflow (${size})`, () => parseWorkflow(workflow))
      .add(`buildFlowGraph (${size})`, () => buildFlowGraph(workflow));
    await bench.run();
    for (const task of bench.tasks) {
      const result = task.result;
      if (result.state !== "completed") throw new Error(`${task.name} did not complete`);
      rows.push({
        task: task.name.replace(/ \(\d+\)$/, ""),
        size,
        meanMs: result.latency.mean,
        samples: result.latency.samplesCount,
      });
    }
  }
  return rows;
}

function ratio(rows: readonly Row[], task: string, big: number, small: number): number {
  const at = (size: number): number =>
    rows.find((r) => r.task === task && r.size === size)?.meanMs ?? NaN;
  return at(big) / at(small);
}

const rows = await measure();
const tasks = [...new Set(rows.map((r) => r.task))];
const table = tasks.map((task) => {
  const cells: Record<string, string> = { task };
  for (const size of SIZES) {
    cells[`${size / 1000}k (ms)`] = (
      rows.find((r) => r.task === task && r.size === size)?.meanMs ?? NaN
    ).toFixed(2);
  }
  cells["100k/10k"] = ratio(rows, task, 100_000, 10_000).toFixed(2);
  cells["10k/1k"] = ratio(rows, task, 10_000, 1_000).toFixed(2);
  return cells;
});
console.table(table);
mkdirSync(".bench-results", { recursive: true });
writeFileSync(
  ".bench-results/model.json",
  JSON.stringify({ node: process.version, rows, table }, null, 2) + "\n",
);
