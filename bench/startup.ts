/**
 * CLI start-up: `agentflow --version`, `--help` and `check` of one small workflow, each against a
 * bare `node -e 0`, as whole processes of the built CLI (`npm run build` first). The commands run
 * in turn, A B A B..., so that a machine's drift moves both; the ratio of the medians of wall
 * time is reported. Then a library's first call: a fresh process imports agentflow's root entry
 * (the build in `dist/` that Node resolves it to) and simulates a 50-node chain, beside the seed
 * engine (vendored in bench/seed/) doing the same, in turn, with the ratios of the medians of
 * wall and CPU time (see {@link benchFirstCall}).
 * `node --import tsx bench/startup.ts` prints the tables; `benchStartup()` and `benchFirstCall()`
 * return the rows.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildSync } from "esbuild";

/** One measured command. */
export interface StartupRow {
  readonly command: string;
  readonly medianMs: number;
  /** `node -e 0`'s median, measured in turn with it. */
  readonly nodeMs: number;
  readonly ratio: number;
  readonly runs: number;
}

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const BIN = "bin/agentflow.js";

function wallMs(args: readonly string[]): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: "ignore" });
  if (result.error !== undefined) throw result.error;
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? NaN)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

/** Times each command against `node -e 0`, `runs` times in turn after one warm-up of each. */
export function benchStartup(runs = 15): StartupRow[] {
  if (!existsSync(new URL("../dist/cli-bundle/main.js", import.meta.url))) {
    throw new Error("the CLI is not built: run `npm run build` first");
  }
  const commands: readonly (readonly string[])[] = [
    ["--version"],
    ["--help"],
    ["check", "examples/workflows/market-research.agent.json"],
  ];
  return commands.map((command) => {
    const ours: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i <= runs; i++) {
      const a = wallMs([BIN, ...command]);
      const b = wallMs(["-e", "0"]);
      if (i === 0) continue;
      ours.push(a);
      bare.push(b);
    }
    const medianMs = median(ours);
    const nodeMs = median(bare);
    return {
      command: `agentflow ${command.join(" ")}`,
      medianMs,
      nodeMs,
      ratio: medianMs / nodeMs,
      runs,
    };
  });
}

/** The rows as a printable table. */
export function startupTable(rows: readonly StartupRow[]): Record<string, string>[] {
  return rows.map((r) => ({
    command: r.command,
    "median (ms)": r.medianMs.toFixed(1),
    "node -e 0 (ms)": r.nodeMs.toFixed(1),
    "× node -e 0": r.ratio.toFixed(2),
  }));
}

/** One engine's import and first call, medians over fresh processes. */
export interface FirstCallRow {
  readonly engine: string;
  readonly importMs: number;
  readonly callMs: number;
  /** Median of each process's import + first call (not the sum of the two medians). */
  readonly totalMs: number;
  /** `totalMs` over the seed engine's, measured in the same run. */
  readonly vsSeed: number;
  /**
   * Median of each process's CPU time (user + system, all threads) over import + first call:
   * on a shared machine it moves less than wall time with what else runs.
   */
  readonly cpuMs: number;
  /** `cpuMs` over the seed engine's. */
  readonly cpuVsSeed: number;
  readonly runs: number;
}

/**
 * The script each process runs: import the module given as argument, build a chain of 50 llm
 * nodes with one fixture output each (the shape both engines read), simulate it once, and print
 * the two wall times and the CPU time of both. It runs as plain JavaScript, so that no
 * transpiler's start-up is counted.
 */
const FIRST_CALL = `
const c0 = process.cpuUsage();
const t0 = performance.now();
const m = await import(process.argv[2]);
const t1 = performance.now();
const nodes = [], edges = [], fixtures = {};
for (let i = 0; i < 50; i++) {
  nodes.push({ id: "s" + i, type: "llm", config: { model: "m", promptRef: "prm:p@1.0.0" } });
  fixtures["s" + i] = { outputs: [{ done: i === 49 }] };
  if (i > 0) edges.push({ from: "s" + (i - 1), to: "s" + i, edgeType: "data" });
}
const wf = { kind: "AgentWorkflow", id: "agnt-bench", version: "1.0.0", name: "Bench",
  autonomyLevel: 2, inputSchema: { q: "text" }, outputSchema: { "done?": "bool" }, nodes, edges };
const state = m.simulate(wf, { fixtures });
const t2 = performance.now();
const cpu = process.cpuUsage(c0);
if (!state.complete) throw new Error("the first run did not complete");
process.stdout.write(JSON.stringify([t1 - t0, t2 - t1, (cpu.user + cpu.system) / 1000]));
`;

/** The seed engine's source, vendored with its licence (bench/seed/ORIGIN.md). */
const SEED_SRC = fileURLToPath(new URL("seed/", import.meta.url));

/**
 * The seed engine (`@buildtovalue/agentflow` 1.1.0-next.1, danzeroum/bpmn `packages/agentflow`
 * at 6a535dee; not on npm) compiled file by file, as its own build ships it, into `dir`. Its
 * source is bench/seed/ unless `AGENTFLOW_SEED_SRC` names another folder (another revision).
 */
function buildSeed(dir: string): string {
  const override = process.env.AGENTFLOW_SEED_SRC;
  const src = override === undefined || override === "" ? SEED_SRC : override;
  const entryPoints = readdirSync(src)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .map((f) => join(src, f));
  buildSync({ entryPoints, outdir: join(dir, "seed"), format: "esm", platform: "neutral" });
  return pathToFileURL(join(dir, "seed", "index.js")).href;
}

function firstCall(script: string, module: string): [number, number, number] {
  const result = spawnSync(process.execPath, [script, module], { cwd: ROOT, encoding: "utf8" });
  if (result.error !== undefined) throw result.error;
  if (result.status !== 0) throw new Error(`first call of ${module} failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as [number, number, number];
}

/**
 * Import + first `simulate` in fresh processes, agentflow's root entry and the seed engine's, in
 * turn, `runs` times after one warm-up of each (the disk cache). Each row has `vsSeed`, its
 * import + call over the seed's, measured in the same run. `others` are more modules measured in
 * the same turns (`[name, file URL]`: another build of the root entry, to compare two builds).
 */
export function benchFirstCall(
  runs = 15,
  others: readonly (readonly [name: string, url: string])[] = [],
): FirstCallRow[] {
  // The file Node loads for `import "agentflow"` (the package's exports, `node` condition).
  const entry = pathToFileURL(createRequire(import.meta.url).resolve("agentflow"));
  if (!existsSync(entry)) throw new Error("the package is not built: run `npm run build` first");
  const dir = mkdtempSync(join(tmpdir(), "agentflow-first-call-"));
  try {
    const script = join(dir, "first-call.mjs");
    writeFileSync(script, FIRST_CALL);
    const engines: (readonly [string, string])[] = [
      ["agentflow (root entry)", entry.href],
      ["seed engine", buildSeed(dir)],
      ...others,
    ];
    const samples = engines.map(() => ({
      imports: [] as number[],
      calls: [] as number[],
      totals: [] as number[],
      cpus: [] as number[],
    }));
    for (let i = 0; i <= runs; i++) {
      engines.forEach(([, module], e) => {
        const [importMs, callMs, cpuMs] = firstCall(script, module);
        const sample = samples[e];
        if (i === 0 || sample === undefined) return;
        sample.imports.push(importMs);
        sample.calls.push(callMs);
        sample.totals.push(importMs + callMs);
        sample.cpus.push(cpuMs);
      });
    }
    const rows = engines.map(([engine], e) => {
      const sample = samples[e] ?? { imports: [], calls: [], totals: [], cpus: [] };
      return {
        engine,
        importMs: median(sample.imports),
        callMs: median(sample.calls),
        totalMs: median(sample.totals),
        cpuMs: median(sample.cpus),
        runs,
      };
    });
    const seed = rows[1];
    return rows.map((r) => ({
      ...r,
      vsSeed: r.totalMs / (seed?.totalMs ?? NaN),
      cpuVsSeed: r.cpuMs / (seed?.cpuMs ?? NaN),
    }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The first-call rows as a printable table. */
export function firstCallTable(rows: readonly FirstCallRow[]): Record<string, string>[] {
  return rows.map((r) => ({
    engine: r.engine,
    "import (ms)": r.importMs.toFixed(1),
    "first simulate (ms)": r.callMs.toFixed(1),
    "import + call (ms)": r.totalMs.toFixed(1),
    "× seed": r.vsSeed.toFixed(2),
    "CPU (ms)": r.cpuMs.toFixed(1),
    "× seed (CPU)": r.cpuVsSeed.toFixed(2),
  }));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(startupTable(benchStartup()));
  console.table(firstCallTable(benchFirstCall()));
}
