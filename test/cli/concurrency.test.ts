/**
 * `--concurrency`: `check` and `gate` over many files in worker threads print exactly what one
 * thread prints (stdout, stderr and exit code) on a mixed folder: good, broken, unreadable,
 * foreign-format and duplicate documents, and readable and unreadable processes. The
 * worker path is really taken: in process (from the TypeScript sources, with tsx registered in
 * each thread) for each command, and through the built CLI (`bin/agentflow.js`, after
 * `npm run build`) in text, JSON and SARIF, against one thread in process.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { batchWork, checkFiles, workerCount } from "../../src/cli/batch.js";
import { fileCheckContext } from "../../src/cli/check-context.js";
import { resolveSettings } from "../../src/cli/settings.js";
import type { CliIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { tempDir } from "../temp.js";
import { builtCli } from "./built.js";

const repo = new URL("../../", import.meta.url).pathname;

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly debug: string[];
}

async function runCli(...argv: string[]): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const debug: string[] = [];
  const io: CliIo = {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    isTTY: false,
    debug: (line) => debug.push(line),
  };
  const code = await main(argv, io);
  return { code, stdout, stderr, debug };
}

let mixed = "";

beforeAll(() => {
  mixed = tempDir("agentflow-concurrency-");
  const copy = (from: string, to: string): void => {
    copyFileSync(join(repo, from), join(mixed, to));
  };
  copy("examples/workflows/market-research.agent.json", "a-good.agent.json");
  copy("examples/workflows/contract-review.agent.yaml", "b-good.agent.yaml");
  copy("examples/workflows/refund-autopilot.broken.agent.json", "c-broken.agent.json");
  writeFileSync(join(mixed, "d-unreadable.agent.json"), '{ "kind": "AgentWorkflow", ');
  copy("test/fixtures/langgraph-graph/py-to_json-human-agent-loop.json", "e-langgraph.json");
  copy("examples/registry/credit-risk.agent.json", "f-credit-risk.agent.json");
  copy("examples/registry/credit-risk.agent.json", "g-credit-risk-again.agent.json");
  copy("examples/registry/send-loan-offer.tool.json", "h-tool.json");
  copy("examples/processes/loan-origination.bpmn", "i-loan.bpmn");
  writeFileSync(join(mixed, "j-not-bpmn.bpmn"), "<html/>");
  copy("examples/processes/loan-origination.bpmn", "k-loan-again.bpmn");
});

/** How `gate` and `check` read files (`FileCheckMode`). */
const GATE = { processesOnly: true } as const;
const CHECK = { processesOnly: false } as const;

/**
 * The formats the built CLI is run in with two workers. A file's outcome is plain JSON data on
 * either path (`detach` copies it on the main thread, the worker sends it as JSON), and every
 * format is written from it on the main thread: JSON, which prints all of it, text (with the
 * stderr lines) and SARIF stand for the others, which one thread's tests cover each.
 */
const WORKER_FORMATS = ["text", "json", "sarif"] as const;

/**
 * Each of those formats with two workers through the built CLI (`builtCli`), against one thread
 * in process: the sources' worker path, which compiles agentflow again in every worker, is run
 * once per command (below), and the same equality is asserted here.
 */
describe("--concurrency, the built CLI", () => {
  it.each(WORKER_FORMATS)(
    "check --format %s: two workers print what one thread prints",
    async (format) => {
      const args = ["check", "--registry", "examples/registry", "--format", format, mixed];
      const single = await runCli(...args, "--concurrency", "off");
      const threaded = builtCli([...args, "--concurrency", "2"]);
      expect(single.code).toBe(2);
      expect(threaded.stdout).toBe(single.stdout);
      // Not two empty outputs: each format prints the whole run.
      expect(threaded.stdout.length).toBeGreaterThan(format === "sarif" ? 1000 : 100);
      expect(threaded.code).toBe(single.code);
      expect(single.debug).toEqual(["config: none", "11 file(s) in 0 worker thread(s)"]);
      expect(threaded.debug).toEqual(["config: none", "11 file(s) in 2 worker thread(s)"]);
      expect(threaded.stderr).toBe(single.stderr);
    },
    60_000,
  );

  it.each(WORKER_FORMATS)(
    "gate --format %s: two workers print what one thread prints",
    async (format) => {
      const args = ["gate", "--registry", "examples/registry", "--format", format, mixed];
      const single = await runCli(...args);
      const threaded = builtCli([...args, "--concurrency", "2"]);
      expect(single.code).toBe(2);
      expect(single.stderr).toContain("j-not-bpmn.bpmn:1:1");
      expect(threaded.stdout).toBe(single.stdout);
      // Not two empty outputs: each format prints the whole run.
      expect(threaded.stdout.length).toBeGreaterThan(format === "sarif" ? 1000 : 100);
      expect(threaded.code).toBe(single.code);
      expect(single.debug).toEqual(["config: none", "3 file(s) in 0 worker thread(s)"]);
      expect(threaded.debug).toEqual(["config: none", "3 file(s) in 2 worker thread(s)"]);
      expect(threaded.stderr).toBe(single.stderr);
    },
    60_000,
  );
});

describe("--concurrency", () => {
  it("check, in process from the sources: two workers print what one thread prints", async () => {
    const args = ["check", "--registry", "examples/registry", "--format", "json", mixed];
    const single = await runCli(...args, "--concurrency", "off");
    const threaded = await runCli(...args, "--concurrency", "2");
    expect(single.code).toBe(2);
    expect(threaded.stdout).toBe(single.stdout);
    expect(threaded.stderr).toBe(single.stderr);
    expect(threaded.code).toBe(single.code);
    expect(single.debug).toEqual(["config: none", "11 file(s) in 0 worker thread(s)"]);
    expect(threaded.debug).toEqual(["config: none", "11 file(s) in 2 worker thread(s)"]);
    // The mixed folder shows each kind of outcome.
    const files = JSON.parse(single.stdout) as {
      file: string;
      format?: string;
      diagnostics: { code: string }[];
    }[];
    const codes = (name: string): string[] =>
      files.find((f) => f.file.endsWith(name))?.diagnostics.map((d) => d.code) ?? [];
    expect(codes("d-unreadable.agent.json")).toContain("SYNTAX_ERROR");
    expect(codes("c-broken.agent.json")).toContain("RETRY_WITHOUT_MAX");
    expect(codes("g-credit-risk-again.agent.json")).toContain("REGISTRY_DUPLICATE");
    expect(codes("j-not-bpmn.bpmn")).toContain("BPMN_PARSE");
    expect(codes("i-loan.bpmn")).toContain("TOOL_EFFECT_NEEDS_GATE");
    expect(files.find((f) => f.file.endsWith("e-langgraph.json"))?.format).toBeDefined();
  });

  it("gate, in process from the sources: two workers print what one thread prints", async () => {
    const args = ["gate", "--registry", "examples/registry", "--format", "text", mixed];
    const single = await runCli(...args);
    const threaded = await runCli(...args, "--concurrency", "2");
    expect(single.code).toBe(2);
    expect(single.stderr).toContain("j-not-bpmn.bpmn:1:1");
    expect(threaded).toEqual({
      ...single,
      debug: ["config: none", "3 file(s) in 2 worker thread(s)"],
    });
  });

  it("a file gone between collection and reading is that file's error, in a worker as on one thread", async () => {
    const dir = tempDir("agentflow-concurrency-gone-");
    const files = ["a", "b", "c"].map((n) => join(dir, `${n}.agent.json`));
    for (const file of files) {
      copyFileSync(join(repo, "examples/registry/credit-risk.agent.json"), file);
    }
    // What collectFiles returned; then b is deleted, as by a concurrent checkout.
    rmSync(files[1] ?? "");
    const settings = await resolveSettings({ format: "text", config: false });
    const context = await fileCheckContext(settings);
    const outcomes = async (concurrency: string): Promise<[number, unknown[]]> => {
      const batch = checkFiles(files, settings, context, {
        mode: { processesOnly: false },
        concurrency,
      });
      const seen: unknown[] = [];
      for await (const outcome of batch.outcomes) {
        seen.push([
          outcome.checked.file,
          outcome.unreadable,
          outcome.checked.diagnostics.map((d) => [d.code, d.severity, d.message]),
          outcome.stderr,
        ]);
      }
      return [batch.workers, seen];
    };
    const expected = [
      [files[0], false, [], []],
      [
        files[1],
        true,
        [
          [
            "FILE_UNREADABLE",
            "error",
            "cannot be read: no such file or directory; nothing in it was checked",
          ],
        ],
        [`agentflow: cannot read '${files[1] ?? ""}': no such file or directory\n`],
      ],
      [files[2], false, [], []],
    ];
    expect(await outcomes("off")).toEqual([0, expected]);
    // The worker's own read fails: its reply becomes the same outcome, in b's turn.
    expect(await outcomes("2")).toEqual([2, expected]);
  });

  it("a FIFO named on the command line is refused before any file is checked", async () => {
    const dir = tempDir("agentflow-concurrency-unreadable-");
    copyFileSync(join(repo, "examples/registry/credit-risk.agent.json"), join(dir, "a.agent.json"));
    const fifo = join(dir, "b.agent.json");
    spawnSync("mkfifo", [fifo]);
    const single = await runCli("check", "--concurrency", "off", join(dir, "a.agent.json"), fifo);
    const threaded = await runCli("check", "--concurrency", "2", join(dir, "a.agent.json"), fifo);
    expect(single.code).toBe(2);
    expect(single.stderr).toContain("FIFO");
    expect({ ...threaded, debug: [] }).toEqual({ ...single, debug: [] });
  });

  it.each([
    ["documents count one each", ["a.agent.json", "b.agent.yaml", "c.json"], CHECK, 3],
    ["a process in check counts seven", ["a.agent.json", "p.bpmn"], CHECK, 8],
    ["gate counts every file as a process", ["a.xml", "p.bpmn"], GATE, 14],
    ["no files, no work", [], CHECK, 0],
  ] as const)("auto weighs the batch: %s", (_, files, mode, work) => {
    expect(batchWork(files, mode)).toBe(work);
  });

  it("takes auto, off or a whole number, and refuses anything else (exit 2)", async () => {
    expect(workerCount(undefined, 10_000, 8)).toBe(0);
    expect(workerCount("off", 10_000, 8)).toBe(0);
    expect(workerCount("auto", 10_000, 8)).toBe(4);
    expect(workerCount("auto", 10_000, 2)).toBe(2);
    // One worker per 1,500 of work, none when that leaves one: small batches stay on this thread.
    expect(workerCount("auto", 150, 8)).toBe(0);
    expect(workerCount("auto", 2_999, 8)).toBe(0);
    expect(workerCount("auto", 3_000, 8)).toBe(2);
    expect(workerCount("auto", 4_500, 8)).toBe(3);
    expect(workerCount("auto", 10_000, 1)).toBe(0);
    // Work, not files: 430 processes weigh 3,010.
    expect(workerCount("auto", 430, 8, batchWork(Array(430).fill("p.bpmn"), GATE))).toBe(2);
    expect(workerCount("auto", 428, 8, batchWork(Array(428).fill("p.bpmn"), GATE))).toBe(0);
    // An explicit count is a number of threads, whatever the work.
    expect(workerCount("2", 10, 8, 10)).toBe(2);
    expect(workerCount("3", 10_000, 1)).toBe(3);
    expect(workerCount("3", 2, 8)).toBe(2);
    for (const bad of ["0", "-1", "1.5", "many", ""]) {
      const result = await runCli("check", "--concurrency", bad, "examples/workflows");
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `agentflow: --concurrency needs auto, off or a whole number ≥ 1, got '${bad}'\n`,
      );
    }
  });
});
