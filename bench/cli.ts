/**
 * `agentflow check` on generated folders of 1,000 and 10,000 files, run in process: files per
 * second, the 10k/1k time ratio (≈ 10 means linear), the heap the run holds when it prints its
 * report and what it leaves behind (both after a collection), and peak RSS.
 * `node --expose-gc --import tsx bench/cli.ts` prints the table; `benchCli()` returns the rows.
 * The corpus and the measured run are shared with `test/cli/scale.test.ts`.
 *
 * Each row also times the built CLI (`node bin/agentflow.js check`, as users run it; needs
 * `npm run build`) with `--concurrency off`, `1` and `2`: files per second, process start
 * included, and the speed-up of two workers over one thread. `benchGate()` does the same for
 * `agentflow gate` on 300 copies of a real process (a first table).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { main } from "../src/cli/main.js";
import { peakRssMb } from "./extra.js";

/** What a corpus holds, by construction. */
export interface CheckCorpus {
  readonly dir: string;
  readonly files: number;
  /** Files written as YAML. */
  readonly yaml: number;
  /** `RETRY_WITHOUT_MAX` errors: one per broken workflow. */
  readonly errors: number;
  /** `BUDGET_MISSING` warnings: one per workflow without a budget. */
  readonly warnings: number;
}

/** About 1.5 kB of prose per file, so that keeping texts or documents would show in the heap. */
function description(i: number): string {
  return `Generated workflow ${i} for the check scale run. `.repeat(30).trimEnd();
}

function workflowJson(i: number, broken: boolean, budget: boolean): string {
  const retry = broken ? {} : { maxRetries: 2 };
  return JSON.stringify(
    {
      kind: "AgentWorkflow",
      id: `agnt-scale-${i}`,
      version: "1.0.0",
      name: `Scale ${i}`,
      description: description(i),
      autonomyLevel: 2,
      ...(budget ? { budget: { maxSteps: 10 } } : {}),
      inputSchema: { q: "text" },
      outputSchema: { done: "bool" },
      nodes: [
        {
          id: "draft",
          type: "llm",
          config: { model: "m", promptRef: "prm:p@1.0.0", structuredOutput: true },
        },
        {
          id: "check",
          type: "decision",
          config: {
            condition: "output.done = true",
            onTrue: { next: "end" },
            onFalse: { next: "draft", ...retry },
          },
        },
      ],
      edges: [{ from: "draft", to: "check", edgeType: "data" }],
    },
    null,
    2,
  );
}

function workflowYaml(i: number, broken: boolean, budget: boolean): string {
  return [
    "kind: AgentWorkflow",
    `id: agnt-scale-${i}`,
    "version: 1.0.0",
    `name: Scale ${i}`,
    `description: "${description(i)}"`,
    "autonomyLevel: 2",
    ...(budget ? ["budget:", "  maxSteps: 10"] : []),
    "inputSchema:",
    "  q: text",
    "outputSchema:",
    "  done: bool",
    "nodes:",
    "  - id: draft",
    "    type: llm",
    "    config: { model: m, promptRef: prm:p@1.0.0, structuredOutput: true }",
    "  - id: check",
    "    type: decision",
    "    config:",
    "      condition: output.done = true",
    "      onTrue: { next: end }",
    `      onFalse: { next: draft${broken ? "" : ", maxRetries: 2"} }`,
    "edges:",
    "  - { from: draft, to: check, edgeType: data }",
    "",
  ].join("\n");
}

function toolJson(i: number): string {
  return JSON.stringify({
    kind: "ToolContract",
    id: `tool:scale-${i}`,
    version: "1.0.0",
    name: `Scale tool ${i}`,
    inputSchema: { q: "text" },
    outputSchema: { hits: "text[]" },
    effect: "read",
    authorization: "automatic",
  });
}

/**
 * Writes `count` small documents into a new folder below the system's temp folder, flat, named
 * in index order: every 50th a tool contract, every 4th workflow YAML, every 7th broken (one
 * error), every 11th without a budget (one warning). The same count gives the same folder.
 */
export function writeCheckCorpus(count: number): CheckCorpus {
  const dir = mkdtempSync(join(tmpdir(), "agentflow-scale-"));
  let yaml = 0;
  let errors = 0;
  let warnings = 0;
  for (let i = 0; i < count; i += 1) {
    const name = `w${String(i).padStart(6, "0")}`;
    if (i % 50 === 25) {
      writeFileSync(join(dir, `${name}.tool.json`), toolJson(i));
      continue;
    }
    const broken = i % 7 === 0;
    const budget = i % 11 !== 0;
    errors += broken ? 1 : 0;
    warnings += budget ? 0 : 1;
    if (i % 4 === 1) {
      yaml += 1;
      writeFileSync(join(dir, `${name}.agent.yaml`), workflowYaml(i, broken, budget));
    } else {
      writeFileSync(join(dir, `${name}.agent.json`), workflowJson(i, broken, budget));
    }
  }
  return { dir, files: count, yaml, errors, warnings };
}

/** Removes a corpus folder. */
export function removeCheckCorpus(corpus: CheckCorpus): void {
  rmSync(corpus.dir, { recursive: true, force: true });
}

/**
 * A full collection, or undefined when it cannot be had. `--expose-gc` is set at run time and
 * `gc` read from a fresh context, which works in test workers started without the flag.
 */
export function exposeGc(): (() => void) | undefined {
  const own = (globalThis as { gc?: () => void }).gc;
  if (own !== undefined) return own;
  try {
    setFlagsFromString("--expose-gc");
    const gc: unknown = runInNewContext("gc");
    return typeof gc === "function" ? () => void (gc as () => unknown)() : undefined;
  } catch {
    return undefined;
  }
}

/** One measured run of `agentflow check`. */
export interface MeasuredCheck {
  readonly code: number;
  /** The report's last line. */
  readonly summary: string;
  readonly stdoutChars: number;
  readonly stderr: string;
  readonly ms: number;
  /**
   * What the run holds when it prints its report, its peak: every file's result and the report
   * text. The heap then less the heap after the run, both collected, so that caches filling or
   * emptying during the run do not count.
   */
  readonly heldBytes?: number;
  /** The heap after the run less the heap before it, both collected: caches and leaks. */
  readonly leftBytes?: number;
}

/** Runs `main(["check", ...args])` with a capturing io, measuring the heap when `gc` is given. */
export async function measureCheck(
  args: readonly string[],
  gc?: () => void,
): Promise<MeasuredCheck> {
  const heap = (): number => {
    gc?.();
    return process.memoryUsage().heapUsed;
  };
  const before = heap();
  let atReport: number | undefined;
  let summary = "";
  let stdoutChars = 0;
  let stderr = "";
  const start = performance.now();
  const code = await main(["check", ...args], {
    stdout: (text) => {
      if (gc !== undefined) atReport = heap();
      stdoutChars += text.length;
      // The summary line: the last before the config and rule-set lines that close the report.
      const lines = text.trimEnd().split("\n");
      summary = [...lines].reverse().find((line) => /^[✔✖]/.test(line)) ?? lines.at(-1) ?? "";
    },
    stderr: (text) => (stderr += text),
    isTTY: false,
  });
  const ms = performance.now() - start;
  const after = gc === undefined ? undefined : heap();
  const held = atReport === undefined || after === undefined ? undefined : atReport - after;
  const left = after === undefined ? undefined : after - before;
  return {
    code,
    summary,
    stdoutChars,
    stderr,
    ms,
    ...(held === undefined ? {} : { heldBytes: held }),
    ...(left === undefined ? {} : { leftBytes: left }),
  };
}

/** One row of the benchmark. */
export interface CliBenchRow {
  readonly files: number;
  readonly ms: number;
  readonly filesPerSecond: number;
  /** {@link MeasuredCheck.heldBytes} in MB. */
  readonly heldMb: number;
  /** {@link MeasuredCheck.leftBytes} in MB. */
  readonly leftMb: number;
  /** Peak RSS of the process so far, in MB. */
  readonly peakRssMb: number;
  /** The built CLI, `--concurrency off`: files per second, process start included. */
  readonly builtOffFps: number;
  /** The built CLI, `--concurrency 1` (one worker thread). */
  readonly built1WorkerFps: number;
  /** The built CLI, `--concurrency 2`. */
  readonly built2WorkersFps: number;
  /** `built2WorkersFps / builtOffFps`: what a second core buys. */
  readonly speedup2: number;
}

const BIN = new URL("../bin/agentflow.js", import.meta.url).pathname;
const BUILT = new URL("../dist/cli/worker.js", import.meta.url).pathname;

/**
 * Median wall time of `node bin/agentflow.js check --concurrency <c> <dir>` over `runs` runs, in
 * ms; NaN when `dist/` is not built.
 */
function timeBuiltCli(dir: string, concurrency: string, runs: number): number {
  if (!existsSync(BUILT)) return NaN;
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const start = performance.now();
    const result = spawnSync(process.execPath, [BIN, "check", "--concurrency", concurrency, dir], {
      stdio: ["ignore", "ignore", "pipe"],
      encoding: "utf8",
    });
    times.push(performance.now() - start);
    if (result.status !== 1) throw new Error(`agentflow check exited ${String(result.status)}`);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? NaN;
}

const SIZES = [1_000, 10_000] as const;
/** Timed runs per size, of which the median counts. */
const RUNS: Readonly<Record<(typeof SIZES)[number], number>> = { 1_000: 5, 10_000: 3 };

const mb = (bytes: number | undefined): number =>
  bytes === undefined ? NaN : Math.round((bytes / 1e6) * 10) / 10;

/**
 * Times `agentflow check` on 1,000 and 10,000 generated files: a warm-up run, the median of
 * timed runs, then a run with collections around it for the heap (so that they are not timed).
 */
export async function benchCli(): Promise<CliBenchRow[]> {
  const gc = exposeGc();
  const rows: CliBenchRow[] = [];
  for (const size of SIZES) {
    const corpus = writeCheckCorpus(size);
    try {
      if (size === SIZES[0]) await measureCheck([corpus.dir]);
      const times: number[] = [];
      for (let run = 0; run < RUNS[size]; run += 1)
        times.push((await measureCheck([corpus.dir])).ms);
      const ms = times.sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? NaN;
      const memory = await measureCheck([corpus.dir], gc);
      const fps = (c: string): number =>
        Math.round(size / (timeBuiltCli(corpus.dir, c, RUNS[size]) / 1000));
      const [off, one, two] = [fps("off"), fps("1"), fps("2")];
      rows.push({
        files: size,
        ms: Math.round(ms),
        filesPerSecond: Math.round(size / (ms / 1000)),
        heldMb: mb(memory.heldBytes),
        leftMb: mb(memory.leftBytes),
        peakRssMb: peakRssMb(),
        builtOffFps: off,
        built1WorkerFps: one,
        built2WorkersFps: two,
        speedup2: Math.round((two / off) * 100) / 100,
      });
    } finally {
      removeCheckCorpus(corpus);
    }
  }
  return rows;
}

/** One row of the gate benchmark: the built CLI over a folder of processes. */
export interface GateBenchRow {
  readonly processes: number;
  readonly builtOffFps: number;
  readonly built1WorkerFps: number;
  readonly built2WorkersFps: number;
  /** `built2WorkersFps / builtOffFps`. */
  readonly speedup2: number;
}

const LOAN = new URL("../examples/processes/loan-origination.bpmn", import.meta.url).pathname;
const REGISTRY = new URL("../examples/registry", import.meta.url).pathname;
/**
 * Processes in the gate corpus: each is a full BPMN document with DI and two agent tasks
 * resolved from the registry, so a few hundred already take seconds per run on one thread.
 */
const GATE_SIZE = 300;
const GATE_RUNS = 3;

/**
 * Median wall time of `node bin/agentflow.js gate --registry examples/registry --concurrency <c>
 * <dir>` over `runs` runs, in ms; NaN when `dist/` is not built.
 */
function timeBuiltGate(dir: string, concurrency: string, runs: number): number {
  if (!existsSync(BUILT)) return NaN;
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const start = performance.now();
    const result = spawnSync(
      process.execPath,
      [BIN, "gate", "--registry", REGISTRY, "--concurrency", concurrency, dir],
      { stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" },
    );
    times.push(performance.now() - start);
    // Every copy of loan-origination is blocked (an agent task without its gate).
    if (result.status !== 1) throw new Error(`agentflow gate exited ${String(result.status)}`);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? NaN;
}

/** Times `agentflow gate` (the built CLI) on copies of a real process, off / 1 / 2 workers. */
export function benchGate(count: number = GATE_SIZE): GateBenchRow {
  const dir = mkdtempSync(join(tmpdir(), "agentflow-gate-bench-"));
  try {
    const text = readFileSync(LOAN, "utf8");
    for (let i = 0; i < count; i += 1) {
      writeFileSync(join(dir, `p${String(i).padStart(5, "0")}.bpmn`), text);
    }
    const fps = (c: string): number =>
      Math.round(count / (timeBuiltGate(dir, c, GATE_RUNS) / 1000));
    const [off, one, two] = [fps("off"), fps("1"), fps("2")];
    return {
      processes: count,
      builtOffFps: off,
      built1WorkerFps: one,
      built2WorkersFps: two,
      speedup2: Math.round((two / off) * 100) / 100,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table([benchGate()]);
  const rows = await benchCli();
  console.table(rows);
  const [small, large] = rows;
  if (small !== undefined && large !== undefined) {
    console.log(`10k/1k time ratio ${(large.ms / small.ms).toFixed(2)} (10 is linear)`);
  }
}
