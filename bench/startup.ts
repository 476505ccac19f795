/**
 * CLI start-up: `agentflow --version`, `--help` and `check` of one small workflow, each against a
 * bare `node -e 0`, as whole processes of the built CLI (`npm run build` first). The commands run
 * in turn, A B A B..., so that a machine's drift moves both; the ratio of the medians of wall
 * time is reported. `node --import tsx bench/startup.ts` prints the table; `benchStartup()`
 * returns the rows.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

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

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(startupTable(benchStartup()));
}
