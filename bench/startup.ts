/**
 * CLI start-up: `agentflow --version`, `--help` and `check` of one small workflow, each against a
 * bare `node -e 0`, as whole processes of the built CLI (`npm run build` first). The commands run
 * in turn, A B A B..., so that a machine's drift moves both; the ratio of the medians of wall
 * time is reported. Then a library's first call: a fresh process imports agentflow's root entry
 * (the build in `dist/`) and simulates a 50-node chain, beside the seed engine doing the same, in
 * turn, with the ratio of the medians (see {@link benchFirstCall}).
 * `node --import tsx bench/startup.ts` prints the tables; `benchStartup()` and `benchFirstCall()`
 * return the rows.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
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
  /** `totalMs` over the seed engine's, when the seed was measured in the same run. */
  readonly vsSeed?: number;
  readonly runs: number;
}

/**
 * The script each process runs: import the module given as argument, build a chain of 50 llm
 * nodes with one fixture output each (the shape both engines read), simulate it once, and print
 * the two times. It runs as plain JavaScript, so that no transpiler's start-up is counted.
 */
const FIRST_CALL = `
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
if (!state.complete) throw new Error("the first run did not complete");
process.stdout.write(JSON.stringify([t1 - t0, t2 - t1]));
`;

/**
 * The seed engine (`@buildtovalue/agentflow` 1.1.0-next.1, danzeroum/bpmn `packages/agentflow`
 * at 6a535dee; not on npm) compiled file by file, as its own build ships it, into `dir`. Its
 * source folder is named by `AGENTFLOW_SEED_SRC`; undefined when that is not set.
 */
function buildSeed(dir: string): string | undefined {
  const src = process.env.AGENTFLOW_SEED_SRC;
  if (src === undefined || src === "") return undefined;
  const entryPoints = readdirSync(src)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .map((f) => join(src, f));
  buildSync({ entryPoints, outdir: join(dir, "seed"), format: "esm", platform: "neutral" });
  return pathToFileURL(join(dir, "seed", "index.js")).href;
}

function firstCall(script: string, module: string): [number, number] {
  const result = spawnSync(process.execPath, [script, module], { cwd: ROOT, encoding: "utf8" });
  if (result.error !== undefined) throw result.error;
  if (result.status !== 0) throw new Error(`first call of ${module} failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as [number, number];
}

/**
 * Import + first `simulate` in fresh processes, agentflow's root entry and (when
 * `AGENTFLOW_SEED_SRC` names its sources) the seed engine's, in turn, `runs` times after one
 * warm-up of each (the disk cache).
 */
export function benchFirstCall(runs = 15): FirstCallRow[] {
  const entry = new URL("../dist/index.js", import.meta.url);
  if (!existsSync(entry)) throw new Error("the package is not built: run `npm run build` first");
  const dir = mkdtempSync(join(tmpdir(), "agentflow-first-call-"));
  try {
    const script = join(dir, "first-call.mjs");
    writeFileSync(script, FIRST_CALL);
    const engines: [string, string][] = [["agentflow (root entry)", entry.href]];
    const seed = buildSeed(dir);
    if (seed !== undefined) engines.push(["seed engine", seed]);
    const samples = engines.map(() => ({
      imports: [] as number[],
      calls: [] as number[],
      totals: [] as number[],
    }));
    for (let i = 0; i <= runs; i++) {
      engines.forEach(([, module], e) => {
        const [importMs, callMs] = firstCall(script, module);
        const sample = samples[e];
        if (i === 0 || sample === undefined) return;
        sample.imports.push(importMs);
        sample.calls.push(callMs);
        sample.totals.push(importMs + callMs);
      });
    }
    const rows = engines.map(([engine], e) => {
      const sample = samples[e] ?? { imports: [], calls: [], totals: [] };
      return {
        engine,
        importMs: median(sample.imports),
        callMs: median(sample.calls),
        totalMs: median(sample.totals),
        runs,
      };
    });
    const seedTotal = rows[1]?.totalMs;
    return seedTotal === undefined
      ? rows
      : rows.map((r) => ({ ...r, vsSeed: r.totalMs / seedTotal }));
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
    "× seed": r.vsSeed === undefined ? "(AGENTFLOW_SEED_SRC unset)" : r.vsSeed.toFixed(2),
  }));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(startupTable(benchStartup()));
  console.table(firstCallTable(benchFirstCall()));
}
