/**
 * A worker thread of `check` and `gate` (`--concurrency`): it builds its own validator and
 * registry from the run's settings (plain data), then reads and checks the files it is sent,
 * one message each, and posts each outcome back with its index so that the main thread prints
 * them in input order.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { FileCheckMode, FileOutcome } from "./check-file.js";
import { checkOneFile } from "./check-file.js";
import { readText } from "./file-read.js";
import { sha256 } from "../model/index.js";
import { UsageError } from "./io.js";
import type { FileCheckSettings } from "./settings.js";
import { fileCheckContext } from "./check-context.js";

/** What the main thread gives a worker when it starts it. */
export interface WorkerSetup {
  readonly settings: FileCheckSettings;
  readonly mode: FileCheckMode;
  /**
   * With `--cache`: send back the sha256 of the text each file was checked from, since the file
   * may have changed since the main thread read it, and a result is cached under what it judged.
   */
  readonly hashes?: boolean;
}

/** A file to check: its index in the run's list, and its path. */
export interface WorkerJob {
  readonly index: number;
  readonly file: string;
}

/**
 * What the main thread sends: a few files at a time, and what a worker sends back: their
 * replies as one JSON text, since one string crosses threads for less than many small objects
 * (and every outcome is JSON data already).
 */
export type WorkerMessage = readonly WorkerJob[];

/**
 * What a worker answers for a job: the outcome; or the file's read error (a {@link UsageError}'s
 * message, raised on the main thread when the file's turn comes); or an unexpected failure,
 * which the main thread treats as a bug, as it would on its own thread.
 */
export type WorkerReply =
  | { readonly index: number; readonly outcome: FileOutcome; readonly sha256?: string }
  | { readonly index: number; readonly usageError: string }
  | { readonly index: number; readonly crash: string };

async function serve(): Promise<void> {
  const port = parentPort;
  if (port === null) return;
  const setup = workerData as WorkerSetup;
  const context = await fileCheckContext(setup.settings);
  const failed = (index: number, error: unknown): WorkerReply =>
    error instanceof UsageError
      ? { index, usageError: error.message }
      : { index, crash: error instanceof Error ? error.message : String(error) };
  // One chunk at a time, in order: a worker is one thread, and its replies keep their order.
  let queue = Promise.resolve();
  port.on("message", (jobs: WorkerMessage) => {
    queue = queue.then(async () => {
      // The chunk's files are read at once, as the main thread reads ahead: one read at a time
      // would leave the thread waiting on the disk between files.
      const reads = jobs.map((job) =>
        readText(job.file).then(
          (text) => ({ text }),
          (error: unknown) => ({ error }),
        ),
      );
      const replies: WorkerReply[] = [];
      for (const [i, job] of jobs.entries()) {
        const read = await reads[i];
        if (read === undefined || "error" in read) {
          replies.push(failed(job.index, read?.error));
          continue;
        }
        try {
          const outcome = await checkOneFile(job.file, read.text, context, setup.mode);
          const hash = setup.hashes === true ? { sha256: sha256(read.text) } : {};
          replies.push({ index: job.index, outcome, ...hash });
        } catch (error) {
          replies.push(failed(job.index, error));
        }
      }
      port.postMessage(JSON.stringify(replies));
    });
  });
}

await serve();
