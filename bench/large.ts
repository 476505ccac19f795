/**
 * `npm run bench:large`: text → FlowGraph at 10,000, 100,000 and 1,000,000 nodes, next to V8's
 * `JSON.parse` of the same text. Not part of `npm run bench` (it needs about 2 GB and a minute).
 *
 * It answers one question: is the 100k/10k ratio above 10 of the text path agentflow's work or
 * the platform's? `JSON.parse` alone scales above 10 at every step, because at 100,000 nodes the
 * parsed tree no longer fits the young generation and is copied and promoted while it is built.
 * The rows `agentflow's share` subtract the `JSON.parse` median from the text path's: the work
 * agentflow adds to the decoding. A value → FlowGraph row is not here: at 1,000,000 nodes the
 * generated object holds more than the 10,000,000 values a document may have (`NOT_JSON_DATA`).
 */
import { buildFlowGraph, parseWorkflowText } from "../src/model/index.js";
import { generateWorkflow } from "./generate.js";

const SIZES = [10_000, 100_000, 1_000_000] as const;

function median(run: () => unknown, samples: number): number {
  const times: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[samples >> 1] ?? NaN;
}

const gc = (globalThis as { gc?: () => void }).gc;
const rows = { "JSON.parse": [] as number[], "text → FlowGraph": [] as number[] };
for (const size of SIZES) {
  const text = JSON.stringify(generateWorkflow(size, "loops"));
  const samples = size >= 1_000_000 ? 5 : size >= 100_000 ? 15 : 61;
  gc?.();
  rows["JSON.parse"].push(median(() => JSON.parse(text) as unknown, samples));
  gc?.();
  rows["text → FlowGraph"].push(
    median(() => {
      const { workflow } = parseWorkflowText(text, { format: "json" });
      if (workflow === undefined) throw new Error("the generated workflow must parse");
      return buildFlowGraph(workflow);
    }, samples),
  );
}
const share = rows["text → FlowGraph"].map((t, i) => t - (rows["JSON.parse"][i] ?? NaN));
const table = Object.entries({ ...rows, "agentflow's share": share }).map(([task, times]) => {
  const [small, middle, large] = times;
  return {
    task,
    "10k (ms)": small?.toFixed(1),
    "100k (ms)": middle?.toFixed(1),
    "1M (ms)": large?.toFixed(1),
    "100k/10k": ((middle ?? NaN) / (small ?? NaN)).toFixed(2),
    "1M/100k": ((large ?? NaN) / (middle ?? NaN)).toFixed(2),
  };
});
console.table(table);
console.log(`node ${process.version}`);
