/**
 * `npm run bench`: times parsing, graph building and validation on generated workflows of 1,000,
 * 10,000 and 100,000 nodes (chains, loops, one wide decision) and reports the 100k/10k and 10k/1k
 * ratios (≈ 10 means linear). Ratios are measured within one run, never against fixed times.
 *
 * Ratios use each task's mean, the cost per call with its share of the garbage collections: a
 * 10,000-node validation that allocates half the young generation pays a collection every other
 * call, so its samples fall in two groups (11 and 16 ms) and the median lands in either from one
 * run to the next, while every 100,000-node call pays its own. The medians' ratio is printed
 * next to it. Each task runs alone, with only its own input alive, from a collected heap, and the
 * 100k tasks sample for 3 s, so that one major collection moves a mean by a few percent at most.
 *
 * Two floors run on the same inputs: `JSON.parse` of the text and a `Map` of the node ids, work
 * any parser must do, whose own ratios show what the machine's memory adds at 100k.
 * Then: simulation steps/s by chain size against 50 nodes, its floors and what they leave of the
 * 100,000-node budget, and `explore` runs/s (simulate.ts), the other tasks (extra.ts), BPMN
 * (bpmn.ts), `check` over many files (cli.ts), `check` and `gate` with `--cache` cold, warm
 * and with one workflow changed (cache.ts), `verify` beside `gate` on the example bundle and
 * on 1,000 processes, as a ratio (approval.ts), `conform` on a million OTLP events against
 * reading and `JSON.parse`-ing them, with peak memory beside the file's size (conform.ts), the
 * process report (report.ts: 5,000 flow nodes with DI, 50,000 without, the drawing's growth), CLI
 * start-up against `node -e 0` and import + first simulate of the root entry beside the seed
 * engine's (startup.ts, on the built CLI), the browser bundle sizes, with what agentflow/bpmn-js
 * adds to a bpmn-js Modeler (bundle.ts), and that Modeler on a 2,000-flow-node diagram in
 * headless Chromium against plain bpmn-js: the import's blocking and an edit's re-evaluation
 * (modeler.ts).
 * Results also go to `.bench-results/` as JSON.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { Bench } from "tinybench";
import type { AgentWorkflow } from "../src/model/index.js";
import { buildFlowGraph, parseWorkflow, parseWorkflowText } from "../src/model/index.js";
import { createValidator } from "../src/validate/index.js";
import type { GraphShape } from "./generate.js";
import { generateWorkflow } from "./generate.js";
import { benchApproval } from "./approval.js";
import { benchConform, conformTable } from "./conform.js";
import { benchBpmn, bpmnGrowth, bpmnRatios, bpmnTable } from "./bpmn.js";
import { addedTable, benchBundles, bundleTable } from "./bundle.js";
import { benchModeler, modelerTable } from "./modeler.js";
import { benchCache, cacheTable } from "./cache.js";
import { benchCli } from "./cli.js";
import { benchExtra, extraTable, peakRssMb } from "./extra.js";
import { benchReport, drawingGrowth, reportTable } from "./report.js";
import {
  benchExplore,
  benchSimulate,
  budgetLine,
  exploreTable,
  pageFaultCost,
  pageFaultLine,
  simulateTable,
} from "./simulate.js";
import { benchFirstCall, benchStartup, firstCallTable, startupTable } from "./startup.js";

const SIZES = [1_000, 10_000, 100_000] as const;
const SHAPES: readonly GraphShape[] = ["chain", "loops", "wide", "wide-findings"];

interface Row {
  readonly task: string;
  readonly size: number;
  /** The mean latency: the cost per call, collections included. */
  readonly meanMs: number;
  /** The median (p50) latency. */
  readonly p50Ms: number;
  readonly samples: number;
}

const validator = createValidator();

/** A task, built from its size: the setup makes the input, the returned function is timed. */
interface Task {
  readonly name: string;
  readonly setup: (size: number) => () => unknown;
}

function parsedFromText(text: string): AgentWorkflow {
  const parsed = parseWorkflowText(text, { format: "json" }).workflow;
  if (parsed === undefined) throw new Error("the generated workflow must parse");
  return parsed;
}

function parsedFromValue(value: AgentWorkflow): AgentWorkflow {
  const parsed = parseWorkflow(value).workflow;
  if (parsed === undefined) throw new Error("the generated workflow must parse");
  return parsed;
}

/**
 * Objects shaped like the TEMPLATE_UNRESOLVABLE findings of `wide-findings` (one per tool node,
 * every second node), built with nothing else: the least a validation that reports them does.
 */
function findingObjects(size: number): object[] {
  const out: object[] = [];
  for (let i = 1; i < size; i += 2) {
    const nodeId = `n${String(i)}`;
    out.push({
      code: "TEMPLATE_UNRESOLVABLE",
      severity: "error",
      message: `tool node "${nodeId}" reads "n0.output.q", but "n0" is a decision, which has no output`,
      target: { kind: "node", nodeId },
      path: `/nodes/${String(i)}/config/params/q`,
      data: { nodeId, template: "{{n0.output.q}}", expression: "n0.output.q", ref: "n0" },
    });
  }
  return out;
}

const loopsText = (size: number): string => JSON.stringify(generateWorkflow(size, "loops"));

const TASKS: readonly Task[] = [
  {
    name: "parse + graph: value → FlowGraph (loops)",
    setup: (size) => {
      const loops = generateWorkflow(size, "loops");
      return () => buildFlowGraph(parsedFromValue(loops));
    },
  },
  {
    name: "parse + graph: text → FlowGraph (loops)",
    setup: (size) => {
      const text = loopsText(size);
      return () => buildFlowGraph(parsedFromText(text));
    },
  },
  {
    name: "parseWorkflowText (loops)",
    setup: (size) => {
      const text = loopsText(size);
      return () => parseWorkflowText(text, { format: "json" });
    },
  },
  {
    name: "parseWorkflow (loops)",
    setup: (size) => {
      const loops = generateWorkflow(size, "loops");
      return () => parseWorkflow(loops);
    },
  },
  {
    name: "buildFlowGraph (loops)",
    setup: (size) => {
      const loops = generateWorkflow(size, "loops");
      return () => buildFlowGraph(loops);
    },
  },
  {
    name: "floor: JSON.parse (loops)",
    setup: (size) => {
      const text = loopsText(size);
      return () => JSON.parse(text) as unknown;
    },
  },
  {
    name: "floor: Map of node ids (loops)",
    setup: (size) => {
      const loops = generateWorkflow(size, "loops");
      return () => new Map(loops.nodes.map((n, i) => [n.id, i]));
    },
  },
  {
    name: "floor: the findings of wide-findings, as objects",
    setup: (size) => () => findingObjects(size),
  },
  ...SHAPES.map((shape): Task => ({
    name: `validate (${shape})`,
    setup: (size) => {
      const wf = generateWorkflow(size, shape);
      // A fresh copy per run: the graph view is memoised per workflow object.
      return () => validator.validateSync({ ...wf });
    },
  })),
];

/**
 * Each task runs on its own, with only its input alive and from a collected heap. Otherwise the
 * inputs of every task of a size (about 150 MB at 100k) stayed alive through all of them, and
 * each major collection a large validation causes marked them again: the ratio of `validate
 * (wide)` read 14.8 beside them and 11.5 alone.
 */
async function measure(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const size of SIZES) {
    for (const task of TASKS) {
      const run = task.setup(size);
      (globalThis as { gc?: () => void }).gc?.();
      const bench = new Bench({ time: size >= 100_000 ? 3_000 : 500, iterations: 5 });
      bench.add(task.name, run);
      await bench.run();
      const result = bench.tasks[0]?.result;
      if (result?.state !== "completed") throw new Error(`${task.name} did not complete`);
      rows.push({
        task: task.name,
        size,
        meanMs: result.latency.mean,
        p50Ms: result.latency.p50,
        samples: result.latency.samplesCount,
      });
    }
  }
  return rows;
}

const rows = await measure();
const at = (task: string, size: number, median = false): number => {
  const row = rows.find((r) => r.task === task && r.size === size);
  return (median ? row?.p50Ms : row?.meanMs) ?? NaN;
};
const table = [...new Set(rows.map((r) => r.task))].map((task) => {
  const cells: Record<string, string> = { task };
  for (const size of SIZES) cells[`${size / 1000}k (ms)`] = at(task, size).toFixed(2);
  cells["10k/1k"] = (at(task, 10_000) / at(task, 1_000)).toFixed(2);
  cells["100k/10k"] = (at(task, 100_000) / at(task, 10_000)).toFixed(2);
  cells["100k/10k of medians"] = (at(task, 100_000, true) / at(task, 10_000, true)).toFixed(2);
  return cells;
});
console.table(table);
const simulation = await benchSimulate();
const faultCost = pageFaultCost();
console.log(pageFaultLine(faultCost));
console.table(simulateTable(simulation, faultCost));
const budget = budgetLine(simulation);
if (budget !== undefined) console.log(budget);
const exploration = await benchExplore();
console.table(exploreTable(exploration));
const extra = await benchExtra();
console.table(extraTable(extra));
const bpmn = await benchBpmn();
console.table(bpmnTable(bpmn));
console.table(bpmnRatios(bpmn));
console.table(bpmnGrowth(bpmn));
const cli = await benchCli();
console.table(cli);
const cache = benchCache();
console.table(cacheTable(cache));
const approval = await benchApproval();
console.table(approval);
const conform = benchConform();
console.table(conformTable(conform));
const reports = await benchReport();
console.table(reportTable(reports));
const growth = drawingGrowth(reports);
if (growth !== undefined) console.table([growth]);
const startup = benchStartup();
console.table(startupTable(startup));
const firstCall = benchFirstCall();
console.table(firstCallTable(firstCall));
const bundles = await benchBundles();
console.table(bundleTable(bundles.rows));
console.table(addedTable(bundles.added));
const modeler = await benchModeler();
console.table(modelerTable(modeler));
const peak = peakRssMb();
console.log(`peak RSS of the whole run: ${peak} MB (node ${process.version})`);
mkdirSync(".bench-results", { recursive: true });
writeFileSync(
  ".bench-results/bench.json",
  JSON.stringify(
    {
      node: process.version,
      rows,
      table,
      simulation,
      exploration,
      extra,
      bpmn,
      cli,
      cache,
      approval,
      conform,
      reports,
      startup,
      firstCall,
      bundles,
      modeler,
      peakRssMb: peak,
    },
    null,
    2,
  ) + "\n",
);
