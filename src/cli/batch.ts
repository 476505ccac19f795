/**
 * Checking a list of files and handing the outcomes back in input order. On the main thread the
 * files are read ahead (see `readTexts`) and checked one at a time.
 */
import type { FileCheckMode, FileOutcome } from "./check-file.js";
import { checkOneFile } from "./check-file.js";
import { readTexts } from "./files.js";
import type { FileCheckContext, FileCheckSettings } from "./settings.js";

/** Checks `files` on this thread, yielding each outcome in input order. */
export async function* checkInProcess(
  files: readonly string[],
  context: FileCheckContext,
  mode: FileCheckMode,
): AsyncGenerator<FileOutcome, void, undefined> {
  for await (const { file, text } of readTexts(files)) {
    yield await checkOneFile(file, text, context, mode);
  }
}

/** How {@link checkFiles} runs. */
export interface BatchOptions {
  readonly mode: FileCheckMode;
  /** `--concurrency`: `off`, `auto` or a number of worker threads. */
  readonly concurrency?: string | undefined;
}

/**
 * The outcomes of checking `files`, in input order. A file that cannot be read is a
 * `UsageError` when its turn comes, as on one thread.
 */
export function checkFiles(
  files: readonly string[],
  _settings: FileCheckSettings,
  context: FileCheckContext,
  options: BatchOptions,
): Promise<AsyncIterable<FileOutcome>> {
  return Promise.resolve(checkInProcess(files, context, options.mode));
}
