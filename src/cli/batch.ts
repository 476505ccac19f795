/**
 * Checking a list of files and handing the outcomes back in input order: on the main thread,
 * reading a few files ahead, or in worker threads (`--concurrency`), each of which checks the
 * files it is sent while the main thread yields the outcomes in input order, holding only those
 * that arrive before their turn. The output is the same either way, byte for byte.
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { FileCheckMode, FileOutcome } from "./check-file.js";
import { checkOneFile } from "./check-file.js";
import { readTexts } from "./file-read.js";
import { isProcessName } from "./files.js";
import { fileUnreadable } from "./diagnostics.js";
import { UsageError, wholeNumber } from "./io.js";
import type { FileCheckContext } from "./check-context.js";
import type { FileCheckSettings } from "./settings.js";
import { sha256 } from "../model/index.js";
import type { WorkerJob, WorkerMessage, WorkerReply, WorkerSetup } from "./worker.js";

/**
 * The outcome of a file that could not be read: a `FILE_UNREADABLE` error on it, in every format
 * (so that it is never listed as passing, and the rest of the run is kept), the same line on
 * stderr, exit 2 (`unreadable`); for `gate`, a decision that blocks, since nothing was reviewed.
 * `message` is the read's {@link UsageError} message, `cannot read '<file>': <reason>`.
 */
export function unreadableOutcome(file: string, message: string, mode: FileCheckMode): FileOutcome {
  const prefix = `cannot read '${file}': `;
  const reason = message.startsWith(prefix) ? message.slice(prefix.length) : message;
  const diagnostic = fileUnreadable(reason);
  const process = mode.processesOnly || isProcessName(file);
  return {
    checked: { file, kind: "unknown", diagnostics: [diagnostic] },
    unreadable: true,
    stderr: [`agentflow: ${message}\n`],
    ...(process
      ? { decision: { allowed: false, blocking: [diagnostic], warnings: [], agentTasks: [] } }
      : {}),
  };
}

/**
 * Told, before a file's outcome is yielded, its index in the list and the sha256 of the text it
 * was checked from (not called for a file that could not be read).
 */
export type OnChecked = (index: number, sha256: string) => void;

/** Checks `files` on this thread, yielding each outcome in input order. */
export async function* checkInProcess(
  files: readonly string[],
  context: FileCheckContext,
  mode: FileCheckMode,
  onChecked?: OnChecked,
): AsyncGenerator<FileOutcome, void, undefined> {
  let index = 0;
  for await (const read of readTexts(files)) {
    if ("error" in read) {
      yield unreadableOutcome(read.file, read.error.message, mode);
    } else {
      const outcome = await checkOneFile(read.file, read.text, context, mode);
      onChecked?.(index, sha256(read.text));
      yield outcome;
    }
    index += 1;
  }
}

/** At most this many worker threads with `auto`: past it, reading and printing dominate. */
const AUTO_MAX_WORKERS = 4;
/**
 * `auto` starts one worker per this much work at most (a document is 1): each thread loads the
 * checker and builds its own validator and registry before its first file, and on 2 cores two
 * threads cost more than they saved below about 2,000 documents (docs/performance.md, "Other
 * tasks").
 */
const AUTO_WORK_PER_WORKER = 1_500;
/**
 * The work of a BPMN process against a document's: `gate` checks far fewer processes a second
 * than `check` documents, and its threads load the BPMN reader too; two threads broke even at
 * about 300 processes (docs/performance.md, "Other tasks").
 */
const PROCESS_WORK = 7;
/** Files per message to a worker: fewer, larger messages cost the main thread less. */
const CHUNK = 16;
/** Chunks sent ahead to each worker, so that none waits for the main thread between them. */
const CHUNKS_IN_FLIGHT = 2;

/**
 * The work of checking `files` for `auto`: a document counts 1, a BPMN process
 * {@link PROCESS_WORK}.
 */
export function batchWork(files: readonly string[], mode: FileCheckMode): number {
  if (mode.processesOnly) return files.length * PROCESS_WORK;
  let work = 0;
  for (const file of files) work += isProcessName(file) ? PROCESS_WORK : 1;
  return work;
}

/**
 * The number of worker threads for `--concurrency` (`off`, `auto` or a whole number ≥ 1) and a
 * run of `files` files; 0 means this thread. `auto` uses one per core, at most
 * {@link AUTO_MAX_WORKERS} and one per {@link AUTO_WORK_PER_WORKER} of `work` ({@link batchWork};
 * one per file when not given), and none when that leaves one.
 */
export function workerCount(
  concurrency: string | undefined,
  files: number,
  cores: number = availableParallelism(),
  work: number = files,
): number {
  if (concurrency === undefined || concurrency === "off") return 0;
  if (concurrency === "auto") {
    const n = Math.min(cores, AUTO_MAX_WORKERS, Math.floor(work / AUTO_WORK_PER_WORKER));
    return n > 1 ? n : 0;
  }
  const n = wholeNumber(concurrency);
  if (n === undefined || n < 1) {
    throw new UsageError(
      `--concurrency needs auto, off or a whole number ≥ 1, got '${concurrency}'`,
    );
  }
  return Math.min(n, Math.max(files, 1));
}

/**
 * Whether the worker's module is there: `worker.js` beside this module (the build, or a bundle
 * that has the worker as an entry point of its own), or `worker.ts` (the sources). A bundle
 * without it runs on this thread, with the same output, rather than fail.
 */
function workerModuleExists(): boolean {
  const here = fileURLToPath(import.meta.url);
  const name = here.endsWith(".js") ? "./worker.js" : "./worker.ts";
  return existsSync(fileURLToPath(new URL(name, import.meta.url)));
}

/**
 * How to start a worker: the compiled `worker.js` next to this module; or, when agentflow runs
 * from its TypeScript sources (tests, `tsx`), a small script that registers tsx in the thread
 * and then imports `worker.ts`, since a worker does not inherit its parent's loader hooks.
 */
function startWorker(setup: WorkerSetup): Worker {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith(".js")) {
    return new Worker(new URL("./worker.js", import.meta.url), { workerData: setup });
  }
  const tsxRoot = dirname(createRequire(import.meta.url).resolve("tsx/package.json"));
  const api = pathToFileURL(join(tsxRoot, "dist/esm/api/index.mjs")).href;
  const worker = new URL("./worker.ts", import.meta.url).href;
  const script = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(worker)}); });`;
  return new Worker(script, { eval: true, workerData: setup });
}

/**
 * Checks `files` in `count` worker threads, yielding each outcome in input order. A worker that
 * stops before the run is done (an `error`, or an exit without one) ends the run with an error
 * rather than leave it waiting for replies that will never come. `start` makes a worker
 * (the real one by default; a test gives one that exits).
 */
export async function* checkInWorkers(
  files: readonly string[],
  settings: FileCheckSettings,
  mode: FileCheckMode,
  count: number,
  start: (setup: WorkerSetup) => Worker = startWorker,
  onChecked?: OnChecked,
): AsyncGenerator<FileOutcome, void, undefined> {
  const setup: WorkerSetup = {
    settings,
    mode,
    ...(onChecked === undefined ? {} : { hashes: true }),
  };
  const workers = Array.from({ length: count }, () => start(setup));
  let finished = false;
  const arrived = new Map<number, WorkerReply>();
  let wake: (() => void) | undefined;
  let failure: Error | undefined;
  let sent = 0;
  const send = (worker: Worker): void => {
    if (sent >= files.length) return;
    const jobs: WorkerJob[] = [];
    for (; sent < files.length && jobs.length < CHUNK; sent += 1) {
      jobs.push({ index: sent, file: files[sent] ?? "" });
    }
    const message: WorkerMessage = jobs;
    worker.postMessage(message);
  };
  for (const worker of workers) {
    worker.on("message", (text: string) => {
      for (const reply of JSON.parse(text) as WorkerReply[]) arrived.set(reply.index, reply);
      send(worker);
      wake?.();
    });
    worker.on("error", (error: Error) => {
      failure ??= error;
      wake?.();
    });
    worker.on("exit", (code: number) => {
      if (finished) return;
      failure ??= new Error(`a worker thread stopped (exit code ${code}) before the run was done`);
      wake?.();
    });
    for (let i = 0; i < CHUNKS_IN_FLIGHT; i += 1) send(worker);
  }
  try {
    for (let next = 0; next < files.length; next += 1) {
      let reply = arrived.get(next);
      while (reply === undefined) {
        if (failure !== undefined) throw failure;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
        reply = arrived.get(next);
      }
      arrived.delete(next);
      // A worker's usage error is its read of the file failing (checking throws none).
      if ("usageError" in reply) {
        yield unreadableOutcome(files[next] ?? "", reply.usageError, mode);
        continue;
      }
      if ("crash" in reply) throw new Error(reply.crash);
      if (reply.sha256 !== undefined) onChecked?.(next, reply.sha256);
      yield reply.outcome;
    }
  } finally {
    finished = true;
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** How {@link checkFiles} runs. */
export interface BatchOptions {
  readonly mode: FileCheckMode;
  /** `--concurrency`: `off`, `auto` or a number of worker threads. */
  readonly concurrency?: string | undefined;
  /** With `--cache`: what each file's text hashed as when it was checked ({@link OnChecked}). */
  readonly onChecked?: OnChecked | undefined;
}

/** The outcomes of a run, and how many worker threads produce them (0: this thread). */
export interface Batch {
  readonly outcomes: AsyncIterable<FileOutcome>;
  readonly workers: number;
}

/**
 * How many worker threads check `files`: {@link workerCount} for the options and this machine,
 * and none when the worker module is not there to start (the files are then checked here).
 */
export function plannedWorkers(files: readonly string[], options: BatchOptions): number {
  const wanted = workerCount(
    options.concurrency,
    files.length,
    availableParallelism(),
    batchWork(files, options.mode),
  );
  return wanted > 0 && workerModuleExists() ? wanted : 0;
}

/**
 * The outcomes of checking `files`, in input order. A file that cannot be read is an
 * {@link unreadableOutcome} in its turn, on one thread or many: the run goes on.
 */
export function checkFiles(
  files: readonly string[],
  settings: FileCheckSettings,
  context: FileCheckContext,
  options: BatchOptions,
): Batch {
  const workers = plannedWorkers(files, options);
  return {
    outcomes:
      workers === 0
        ? checkInProcess(files, context, options.mode, options.onChecked)
        : checkInWorkers(files, settings, options.mode, workers, startWorker, options.onChecked),
    workers,
  };
}
