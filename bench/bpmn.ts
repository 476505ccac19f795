/**
 * The BPMN gate-check benchmark (SPEC §9): on generated processes of 1,000, 5,000, 20,000 and
 * 50,000 flow nodes, with DI as a modeller writes it, times in one run (a) bpmn-moddle's `fromXML`, (b) `evaluateGatesSync` on the parsed
 * definitions and (c) bpmnlint with `bpmnlint:recommended` on the same definitions, plus the gate
 * check with an empty registry (the graph part alone) and on cold input, and reports the gate
 * check as a share of the parse, the ratios to 1k (≈ the size ratio means linear) and the growth
 * from 20k to 50k against bpmn-moddle's own (issue 16: within 3× of it). A
 * discarded first round warms the JIT. `node --expose-gc --import tsx bench/bpmn.ts` prints the
 * tables; `benchBpmn()` returns the rows for a combined report.
 *
 * Cold input: the gate check is bound by reading moddle's elements, dictionary-mode objects of
 * about 1.5 kB each, and a read costs several times more when the tree is not in the CPU cache.
 * Timing one tree over and over keeps a 1,000-node tree (about 4 MB) cached, which a
 * 20,000-node tree (about 60 MB) never is. The cold task therefore checks, in turn, as many
 * copies of the tree as make up the largest size, so that every size reads a tree that is not
 * in the cache: its ratios are the check's own scaling, the others include the cache's.
 *
 * Every agent task refers to the same workflow (`agnt-x@1.0.0`); one check resolves, validates
 * and hashes it once (per distinct ref), the rest is per agent task.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Bench } from "tinybench";
import type { BpmnModdleInstance, GateOptions, ModdleObject } from "../src/bpmn/index.js";
import { createModdle, evaluateGatesSync } from "../src/bpmn/index.js";
import type { AgentWorkflow } from "../src/model/index.js";
import { BENCH_AGENT_REF, generateBpmnProcess } from "./bpmn-generate.js";
import { readFileSync } from "node:fs";
import type { CompiledPack } from "../src/policy/index.js";
import { readPolicyPack } from "../src/policy/index.js";

/** The example pack, read as `agentflow gate` reads it. */
function bankPack(): CompiledPack {
  const source = "examples/policies/bank.policy.yaml";
  const reading = readPolicyPack(
    readFileSync(new URL(`../${source}`, import.meta.url), "utf8"),
    source,
  );
  if (!("pack" in reading)) throw new Error(`${source} does not compile`);
  return reading.pack;
}

/** The registry's one workflow: a small valid level-2 bounded loop, the ref of every agent task. */
export function benchAgentWorkflow(): AgentWorkflow {
  return {
    kind: "AgentWorkflow",
    id: "agnt-x",
    version: "1.0.0",
    name: "Bench agent",
    autonomyLevel: 2,
    budget: { maxSteps: 10 },
    inputSchema: { q: "text" },
    outputSchema: { done: "bool" },
    nodes: [
      {
        id: "draft",
        type: "llm",
        config: { model: "m", promptRef: "prm:draft@1.0.0", structuredOutput: true },
      },
      {
        id: "check",
        type: "decision",
        config: {
          condition: "output.done = true",
          onTrue: { next: "end" },
          onFalse: { next: "draft", maxRetries: 2 },
        },
      },
    ],
    edges: [{ from: "draft", to: "check", edgeType: "data" }],
  };
}

/** The sizes measured by default, in flow nodes. */
export const BPMN_BENCH_SIZES: readonly number[] = [1_000, 5_000, 20_000, 50_000];

/** One size's measurements (mean milliseconds per run; p50 alongside). */
export interface BpmnBenchRow {
  readonly size: number;
  readonly agentTasks: number;
  readonly bypassingAgents: number;
  readonly xmlChars: number;
  readonly moddleMs: number;
  readonly gateMs: number;
  /** The gate check with an empty registry: graph, sweeps and rules without workflow work. */
  readonly gateNoRegistryMs: number;
  /** The gate check on cold input (copies of the tree in turn, see the file comment). */
  readonly gateColdMs: number;
  /** The gate check with the example policy pack. */
  readonly gatePackMs: number;
  /** Findings of the pack's rules on the process. */
  readonly packFindings: number;
  readonly bpmnlintMs: number;
  readonly p50: Readonly<Record<Measure, number>>;
  readonly samples: Readonly<Record<Measure, number>>;
  /** bpmnlint reports on the file (none: the generated files pass bpmnlint:recommended). */
  readonly bpmnlintReports: number;
}

/** The timed tasks. */
export type Measure = "moddle" | "gate" | "gateNoRegistry" | "gateCold" | "gatePack" | "bpmnlint";

const MEASURES: Readonly<Record<Measure, string>> = {
  moddle: "bpmn-moddle fromXML",
  gate: "gate check (evaluateGatesSync)",
  gateNoRegistry: "gate check, empty registry",
  gateCold: "gate check, cold input",
  gatePack: "gate check with the bank pack",
  bpmnlint: "bpmnlint:recommended",
};

/** One bpmnlint report. */
export interface LintReport {
  readonly id?: string;
  readonly message: string;
}

/** The part of bpmnlint's (untyped) `Linter` used here: reports by rule name. */
export interface BpmnLinter {
  lint(root: unknown): Promise<Readonly<Record<string, readonly LintReport[]>>>;
}

type LinterClass = new (options: {
  readonly resolver: unknown;
  readonly config: { readonly extends: string };
}) => BpmnLinter;
type StaticResolverClass = new (cache: Readonly<Record<string, unknown>>) => unknown;

/** A Linter for `bpmnlint:recommended`, its rules loaded from `node_modules/bpmnlint/rules`. */
export function recommendedLinter(): BpmnLinter {
  const requireCjs = createRequire(import.meta.url);
  const { Linter } = requireCjs("bpmnlint") as { Linter: LinterClass };
  const StaticResolver = requireCjs("bpmnlint/lib/resolver/static-resolver") as StaticResolverClass;
  const recommended = requireCjs("bpmnlint/config/recommended") as {
    readonly rules: Readonly<Record<string, unknown>>;
  };
  const cache: Record<string, unknown> = { "config:bpmnlint/recommended": recommended };
  for (const name of Object.keys(recommended.rules)) {
    cache[`rule:bpmnlint/${name}`] = requireCjs(`bpmnlint/rules/${name}`);
  }
  return new Linter({
    resolver: new StaticResolver(cache),
    config: { extends: "bpmnlint:recommended" },
  });
}

/** Parses with `moddle`; the generated XML must give a tree without warnings. */
async function parse(moddle: BpmnModdleInstance, xml: string): Promise<ModdleObject> {
  const { rootElement, warnings } = await moddle.fromXML(xml);
  const ok = typeof rootElement === "object" && rootElement !== null && "$type" in rootElement;
  if (!ok || warnings.length > 0) throw new Error("the generated XML did not parse cleanly");
  return rootElement as ModdleObject;
}

const gc = (): void => {
  (globalThis as { gc?: () => void }).gc?.();
};

interface Tools {
  readonly moddle: BpmnModdleInstance;
  readonly linter: BpmnLinter;
  readonly withRegistry: GateOptions;
  readonly emptyRegistry: GateOptions;
  /** `withRegistry` and the example policy pack. */
  readonly withPack: GateOptions;
  /** The pack's name: its findings' codes start with it. */
  readonly packName: string;
  /** The largest size measured: the cold task checks as many nodes per round. */
  readonly largest: number;
}

/** Generates a process of `size` flow nodes, checks its verdicts, and times the five tasks. */
async function measureSize(size: number, tools: Tools): Promise<BpmnBenchRow> {
  const { moddle, linter, withRegistry, emptyRegistry, withPack, packName, largest } = tools;
  gc();
  const generated = generateBpmnProcess(size);
  const { xml } = generated;
  // Separate trees: bpmnlint defines a few lazy properties on the elements it visits.
  const definitions = await parse(moddle, xml);
  const lintDefinitions = await parse(moddle, xml);
  const blocked = evaluateGatesSync(definitions, withRegistry).blocking.map((d) =>
    d.code === "AGENT_GATE_BYPASS" && d.target.kind === "bpmn-element"
      ? d.target.elementId
      : d.code,
  );
  if (blocked.join() !== generated.bypassingAgents.join()) {
    throw new Error(`size ${size}: unexpected gate verdicts (${blocked.join(", ")})`);
  }
  const lint = await linter.lint(lintDefinitions);
  const packed = evaluateGatesSync(definitions, withPack);
  const packFindings = [...packed.blocking, ...packed.warnings].filter((d) =>
    d.code.startsWith(`${packName}/`),
  ).length;
  const copies = [definitions];
  while (copies.length * size < largest) copies.push(await parse(moddle, xml));
  let turn = 0;
  const checkCold = (): void => {
    evaluateGatesSync(copies[turn] ?? definitions, withRegistry);
    turn = (turn + 1) % copies.length;
  };
  const bench = new Bench({
    time: size >= 20_000 ? 2_000 : 1_000,
    iterations: 5,
    warmupIterations: 3,
    warmupTime: 500,
  });
  const hooks = { beforeAll: gc };
  bench
    .add(MEASURES.moddle, () => moddle.fromXML(xml), hooks)
    .add(MEASURES.gate, () => evaluateGatesSync(definitions, withRegistry), hooks)
    .add(MEASURES.gateNoRegistry, () => evaluateGatesSync(definitions, emptyRegistry), hooks)
    .add(MEASURES.gateCold, checkCold, hooks)
    .add(MEASURES.gatePack, () => evaluateGatesSync(definitions, withPack), hooks)
    .add(MEASURES.bpmnlint, () => linter.lint(lintDefinitions), hooks);
  await bench.run();
  const mean = {} as Record<Measure, number>;
  const p50 = {} as Record<Measure, number>;
  const samples = {} as Record<Measure, number>;
  for (const [measure, name] of Object.entries(MEASURES) as [Measure, string][]) {
    const result = bench.getTask(name)?.result;
    if (result?.state !== "completed") throw new Error(`${name} (${size}) did not complete`);
    mean[measure] = result.latency.mean;
    p50[measure] = result.latency.p50;
    samples[measure] = result.latency.samplesCount;
  }
  return {
    size,
    agentTasks: generated.agentTasks.length,
    bypassingAgents: generated.bypassingAgents.length,
    xmlChars: xml.length,
    moddleMs: mean.moddle,
    gateMs: mean.gate,
    gateNoRegistryMs: mean.gateNoRegistry,
    gateColdMs: mean.gateCold,
    gatePackMs: mean.gatePack,
    packFindings,
    bpmnlintMs: mean.bpmnlint,
    p50,
    samples,
    bpmnlintReports: Object.values(lint).reduce((n, reports) => n + reports.length, 0),
  };
}

/**
 * Times the tasks on generated processes of each size (checking the verdicts first), after one
 * discarded round on the smallest size so that no size is billed for the JIT's warm-up.
 */
export async function benchBpmn(
  sizes: readonly number[] = BPMN_BENCH_SIZES,
): Promise<BpmnBenchRow[]> {
  const workflow = benchAgentWorkflow();
  const pack = bankPack();
  const tools: Tools = {
    moddle: createModdle(),
    linter: recommendedLinter(),
    withRegistry: { resolveWorkflow: (ref) => (ref === BENCH_AGENT_REF ? workflow : undefined) },
    withPack: {
      resolveWorkflow: (ref) => (ref === BENCH_AGENT_REF ? workflow : undefined),
      policies: [pack],
    },
    packName: pack.name,
    emptyRegistry: { resolveWorkflow: () => undefined },
    largest: Math.max(...sizes),
  };
  await measureSize(Math.min(...sizes), tools);
  const rows: BpmnBenchRow[] = [];
  for (const size of sizes) rows.push(await measureSize(size, tools));
  return rows;
}

const fixed = (value: number, digits = 2): string => value.toFixed(digits);
const perNode = (ms: number, size: number): string => fixed((ms * 1000) / size);

/** The rows as a printable table: times, the gate's share of the parse, µs per flow node. */
export function bpmnTable(rows: readonly BpmnBenchRow[]): Record<string, string | number>[] {
  return rows.map((r) => ({
    size: r.size,
    "agent tasks": r.agentTasks,
    "moddle ms": fixed(r.moddleMs),
    "gate ms": fixed(r.gateMs),
    "gate/moddle %": fixed((100 * r.gateMs) / r.moddleMs, 1),
    "p50 gate/moddle %": fixed((100 * r.p50.gate) / r.p50.moddle, 1),
    "gate w/o registry ms": fixed(r.gateNoRegistryMs),
    "gate cold ms": fixed(r.gateColdMs),
    "gate + pack ms": fixed(r.gatePackMs),
    "pack cost (gate+pack / gate)": fixed(r.gatePackMs / r.gateMs),
    "pack findings": r.packFindings,
    "bpmnlint ms": fixed(r.bpmnlintMs),
    "bpmnlint/moddle %": fixed((100 * r.bpmnlintMs) / r.moddleMs, 1),
    "moddle µs/node": perNode(r.moddleMs, r.size),
    "gate µs/node": perNode(r.gateMs, r.size),
    "bpmnlint µs/node": perNode(r.bpmnlintMs, r.size),
  }));
}

/** Each size's time over the smallest size's, per task, by mean and by p50 (linear ≈ sizes). */
export function bpmnRatios(rows: readonly BpmnBenchRow[]): Record<string, string>[] {
  const base = rows[0];
  if (base === undefined) return [];
  const columns: [string, Measure, (r: BpmnBenchRow) => number][] = [
    [MEASURES.moddle, "moddle", (r) => r.moddleMs],
    [MEASURES.gate, "gate", (r) => r.gateMs],
    [MEASURES.gateNoRegistry, "gateNoRegistry", (r) => r.gateNoRegistryMs],
    [MEASURES.gateCold, "gateCold", (r) => r.gateColdMs],
    [MEASURES.gatePack, "gatePack", (r) => r.gatePackMs],
    [MEASURES.bpmnlint, "bpmnlint", (r) => r.bpmnlintMs],
  ];
  return columns.map(([task, measure, mean]) => {
    const cells: Record<string, string> = { task };
    for (const r of rows.slice(1)) {
      const label = `${r.size / 1000}k/${base.size / 1000}k (≈ ${r.size / base.size})`;
      cells[label] = fixed(mean(r) / mean(base));
      cells[`${label} p50`] = fixed(r.p50[measure] / base.p50[measure]);
    }
    return cells;
  });
}

/**
 * Growth from the second-largest size to the largest, per task, and as a multiple of
 * bpmn-moddle's own growth over the same step (1 means the task grows as the parse does).
 */
export function bpmnGrowth(rows: readonly BpmnBenchRow[]): Record<string, string>[] {
  const large = rows[rows.length - 1];
  const small = rows[rows.length - 2];
  if (large === undefined || small === undefined) return [];
  const step = `${small.size / 1000}k → ${large.size / 1000}k (≈ ${large.size / small.size})`;
  const moddle = large.moddleMs / small.moddleMs;
  const columns: [string, (r: BpmnBenchRow) => number][] = [
    [MEASURES.moddle, (r) => r.moddleMs],
    [MEASURES.gate, (r) => r.gateMs],
    [MEASURES.gateNoRegistry, (r) => r.gateNoRegistryMs],
    [MEASURES.gateCold, (r) => r.gateColdMs],
    [MEASURES.gatePack, (r) => r.gatePackMs],
    [MEASURES.bpmnlint, (r) => r.bpmnlintMs],
  ];
  return columns.map(([task, mean]) => {
    const growth = mean(large) / mean(small);
    return { task, [step]: fixed(growth), "÷ moddle's growth": fixed(growth / moddle) };
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await benchBpmn();
  console.log(`node ${process.version}; every agent task refers to ${BENCH_AGENT_REF}; with DI`);
  console.table(bpmnTable(rows));
  console.table(bpmnRatios(rows));
  console.table(bpmnGrowth(rows));
}
