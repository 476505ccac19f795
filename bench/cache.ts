/**
 * `--cache` on a generated repository: BPMN processes with DI (bench/bpmn-generate.ts), each
 * agent task naming a workflow of the registry, workflows each calling a tool contract, and the
 * tool contracts. The built CLI (`npm run build` first) runs `check` over the workflows and the
 * processes, and `gate` over the processes, each cold (no cache), warm (nothing changed) and
 * after one workflow that a process names changed; the warm and one-changed outputs are compared
 * with an uncached run's, byte for byte. `benchCache()` returns the rows, `cacheTable()` shapes
 * them; `node --import tsx bench/cache.ts [processes] [workflows]` prints them.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { BENCH_AGENT_REF, generateBpmnProcess } from "./bpmn-generate.js";

/** The size: 10,000 processes and 50,000 workflows (docs/performance.md, "Cache"). */
export const FULL_SIZE = { processes: 10_000, workflows: 50_000 } as const;
/** What `npm run bench` runs: a tenth of it, so that the whole bench stays within minutes. */
export const DEFAULT_SIZE = { processes: 1_000, workflows: 5_000 } as const;

/** Tool contracts in the registry; workflow `i` calls tool `i % TOOLS`. */
const TOOLS = 100;
/** Flow nodes per generated process (an agent task, its gate, gateways, DI). */
const PROCESS_SIZE = 20;

function workflowJson(i: number): string {
  return JSON.stringify(
    {
      kind: "AgentWorkflow",
      id: `agnt-c-${i}`,
      version: "1.0.0",
      name: `Cached ${i}`,
      description: `Generated workflow ${i} for the cache bench.`,
      autonomyLevel: 2,
      ...(i % 11 === 0 ? {} : { budget: { maxSteps: 10 } }),
      inputSchema: { q: "text" },
      outputSchema: { done: "bool" },
      nodes: [
        {
          id: "fetch",
          type: "tool",
          config: { usesTool: `tool:t-${i % TOOLS}@1.0.0`, params: { q: "{{input.q}}" } },
        },
        {
          id: "draft",
          type: "llm",
          config: { model: "m", promptRef: "prm:p@1.0.0", structuredOutput: true },
        },
      ],
      edges: [{ from: "fetch", to: "draft", edgeType: "data" }],
    },
    null,
    2,
  );
}

function toolJson(t: number, effect = "read"): string {
  return JSON.stringify({
    kind: "ToolContract",
    id: `tool:t-${t}`,
    version: "1.0.0",
    name: `Tool ${t}`,
    inputSchema: { q: "text" },
    outputSchema: { a: "text" },
    effect,
    authorization: "automatic",
  });
}

/** A generated repository: `registry/` (workflows, tools) and `processes/`. */
export interface CacheRepo {
  readonly dir: string;
  readonly processes: number;
  readonly workflows: number;
}

/** Writes the repository; process `p` names workflow `(p * 5) % workflows`. */
export function writeCacheRepo(processes: number, workflows: number): CacheRepo {
  const dir = mkdtempSync(join(tmpdir(), "agentflow-cache-bench-"));
  mkdirSync(join(dir, "registry"));
  mkdirSync(join(dir, "processes"));
  for (let t = 0; t < TOOLS; t += 1) {
    writeFileSync(join(dir, "registry", `t${t}.tool.json`), toolJson(t));
  }
  for (let i = 0; i < workflows; i += 1) {
    writeFileSync(
      join(dir, "registry", `w${String(i).padStart(6, "0")}.agent.json`),
      workflowJson(i),
    );
  }
  const { xml } = generateBpmnProcess(PROCESS_SIZE);
  for (let p = 0; p < processes; p += 1) {
    const ref = `agnt-c-${(p * 5) % workflows}@1.0.0`;
    const text = xml.replaceAll(BENCH_AGENT_REF, ref).replaceAll("_bench_", `_p${p}_`);
    writeFileSync(join(dir, "processes", `p${String(p).padStart(6, "0")}.bpmn`), text);
  }
  return { dir, processes, workflows };
}

/** The built CLI; `AGENTFLOW_BENCH_BIN` names another copy (a long run while dist/ is rebuilt). */
const BIN =
  process.env.AGENTFLOW_BENCH_BIN ?? new URL("../bin/agentflow.js", import.meta.url).pathname;

/** Runs the built CLI in the repository: wall time and output. */
function timed(dir: string, args: readonly string[]): { ms: number; stdout: string } {
  const start = performance.now();
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: dir,
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  const ms = performance.now() - start;
  if (result.status !== 0 && result.status !== 1) {
    throw new Error(
      `agentflow ${args.join(" ")} exited ${String(result.status)}: ${result.stderr}`,
    );
  }
  return { ms, stdout: result.stdout };
}

/** One command's figures. */
export interface CacheBenchRow {
  readonly command: string;
  readonly files: number;
  /** Without `--cache`. */
  readonly uncachedMs: number;
  /** `--cache`, no cache file yet. */
  readonly coldMs: number;
  /** `--cache`, nothing changed. */
  readonly warmMs: number;
  /** `--cache`, after one workflow (named by one process) changed. */
  readonly oneChangedMs: number;
}

/** Cold, warm and one-changed runs of one command; outputs checked against uncached runs. */
function benchCommand(repo: CacheRepo, command: "check" | "gate", changed: string): CacheBenchRow {
  const paths = command === "check" ? ["registry", "processes"] : ["processes"];
  const args = [command, "--no-config", "-r", "registry", "-f", "json", ...paths];
  const cached = [...args, "--cache", "--cache-location", `.cache-${command}`];
  const uncached = timed(repo.dir, args);
  const cold = timed(repo.dir, cached);
  const warm = timed(repo.dir, cached);
  if (cold.stdout !== uncached.stdout || warm.stdout !== uncached.stdout) {
    throw new Error(`${command}: a cached run printed other output than an uncached one`);
  }
  const original = readFileSync(changed, "utf8");
  writeFileSync(changed, original.replace('"autonomyLevel": 2', '"autonomyLevel": 3'));
  const one = timed(repo.dir, cached);
  if (one.stdout !== timed(repo.dir, args).stdout) {
    throw new Error(`${command}: after one change, the cached run differs from an uncached one`);
  }
  writeFileSync(changed, original);
  // The restored file is one change again: the next command starts from a consistent cache.
  timed(repo.dir, cached);
  return {
    command,
    files: command === "check" ? repo.processes + repo.workflows + TOOLS : repo.processes,
    uncachedMs: Math.round(uncached.ms),
    coldMs: Math.round(cold.ms),
    warmMs: Math.round(warm.ms),
    oneChangedMs: Math.round(one.ms),
  };
}

/** Times `check` and `gate` with `--cache` on a generated repository of the given size. */
export function benchCache(
  size: { readonly processes: number; readonly workflows: number } = DEFAULT_SIZE,
): CacheBenchRow[] {
  if (!existsSync(join(dirname(BIN), "../dist/cli-bundle/main.js"))) {
    throw new Error("bench/cache.ts times the built CLI: run npm run build first");
  }
  const repo = writeCacheRepo(size.processes, size.workflows);
  try {
    // Workflow 0 is named by process 0 (process p names workflow 5p mod the count): a change
    // re-checks the workflow and re-decides that process.
    const changed = join(repo.dir, "registry", "w000000.agent.json");
    return [benchCommand(repo, "check", changed), benchCommand(repo, "gate", changed)];
  } finally {
    rmSync(repo.dir, { recursive: true, force: true });
  }
}

/** The rows as printed: times and the warm/cold and one-changed/cold ratios. */
export function cacheTable(rows: readonly CacheBenchRow[]): Record<string, string | number>[] {
  const ratio = (a: number, b: number): number => Math.round((a / b) * 1000) / 1000;
  return rows.map((r) => ({
    command: r.command,
    files: r.files,
    "uncached (ms)": r.uncachedMs,
    "cold (ms)": r.coldMs,
    "warm (ms)": r.warmMs,
    "one changed (ms)": r.oneChangedMs,
    "warm/cold": ratio(r.warmMs, r.coldMs),
    "one changed/cold": ratio(r.oneChangedMs, r.coldMs),
  }));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [processes, workflows] = process.argv.slice(2).map(Number);
  const size =
    processes !== undefined && workflows !== undefined ? { processes, workflows } : DEFAULT_SIZE;
  console.log(`${size.processes} processes, ${size.workflows} workflows, ${TOOLS} tools`);
  console.table(cacheTable(benchCache(size)));
}
