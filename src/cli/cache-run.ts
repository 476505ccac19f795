/**
 * Checking files with `--cache`: a file whose text hashes as in the cache, under the same run
 * key, and whose every recorded registry lookup answers as it did (cache-key.ts) gets its cached
 * outcome; any other file is checked, and its outcome recorded. The outcomes come in input
 * order, as `checkFiles` gives them, so that the report is the same as without a cache.
 */
import type { Stats } from "node:fs";
import { statSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import type { Batch, BatchOptions } from "./batch.js";
import { checkFiles, plannedWorkers, unreadableOutcome } from "./batch.js";
import type { CachedCommand } from "./cache-key.js";
import { runKey } from "./cache-key.js";
import { cacheFile, DEFAULT_CACHE_LOCATION, RunCache } from "./cache.js";
import { extensionReads } from "./emit.js";
import { fileIdentity } from "./fs-info.js";
import type { ReadFile } from "./output.js";
import { overwriteRefusal, readsOf } from "./output.js";
import type { CliIo } from "./io.js";
import { UsageError } from "./io.js";
import type { FileCheckContext } from "./check-context.js";
import type { FileOutcome } from "./check-file.js";
import { checkOneFile } from "./check-file.js";
import { readTexts } from "./file-read.js";
import { sha256 as textSha256 } from "../model/index.js";
import type { BatchCliOptions, FileCheckSettings, RunSettings } from "./settings.js";

/** True when every lookup the outcome's check made answers the same in this run's registry. */
function lookupsHold(outcome: FileOutcome, context: FileCheckContext): boolean {
  for (const [key, answer] of Object.entries(outcome.lookups ?? {})) {
    const space = key.indexOf(" ");
    const kind = key.slice(0, space);
    if (kind !== "tool" && kind !== "workflow") return false;
    const now = context.registry?.answer(kind, key.slice(space + 1));
    if (now !== answer) return false;
  }
  return true;
}

/** The cached outcome of a file, when it may be reused. */
function reusable(
  file: string,
  sha256: string,
  cache: RunCache,
  context: FileCheckContext,
): FileOutcome | undefined {
  const outcome = cache.candidate(file, sha256);
  return outcome !== undefined && lookupsHold(outcome, context) ? outcome : undefined;
}

/**
 * The sha256 of `file`'s text when this run's registry read it (`check` over a folder that is
 * also the registry): a reusable outcome then needs no second read of the file.
 */
function registrySha256(file: string, cache: RunCache): string | undefined {
  return cache.registry.next.get(resolve(file))?.sha256;
}

/**
 * On this thread: each file reused or checked, in input order. A file the registry read is
 * reused by that read's hash; any other is read once (ahead, as `checkInProcess` does).
 */
async function* inProcess(
  files: readonly string[],
  context: FileCheckContext,
  options: BatchOptions,
  cache: RunCache,
): AsyncGenerator<FileOutcome, void, undefined> {
  const known = files.map((file) => {
    const sha256 = registrySha256(file, cache);
    const hit = sha256 === undefined ? undefined : reusable(file, sha256, cache, context);
    return hit === undefined || sha256 === undefined ? undefined : { sha256, hit };
  });
  const reads = readTexts(files.filter((_, i) => known[i] === undefined));
  for (const [i, file] of files.entries()) {
    const reused = known[i];
    if (reused !== undefined) {
      cache.record(file, reused.sha256, reused.hit);
      yield reused.hit;
      continue;
    }
    const next = await reads.next();
    if (next.done === true) throw new Error(`the read of ${file} is missing`);
    const read = next.value;
    if ("error" in read) {
      yield unreadableOutcome(read.file, read.error.message, options.mode);
      continue;
    }
    const sha256 = textSha256(read.text);
    const outcome =
      reusable(read.file, sha256, cache, context) ??
      (await checkOneFile(read.file, read.text, context, options.mode));
    cache.record(read.file, sha256, outcome);
    yield outcome;
  }
}

/** How the files the cache cannot answer for are checked: {@link checkFiles}; a test wraps it. */
export type CheckMisses = typeof checkFiles;

/**
 * With worker threads: the files are read and hashed here first; those that cannot be reused
 * are checked by `checkFiles` (in workers when there are enough of them), then all come in
 * input order. A checked file's outcome is recorded under the hash of the text the check read
 * (`onChecked`), not of this thread's earlier read: the file may have been edited in between.
 */
async function* withWorkers(
  files: readonly string[],
  settings: FileCheckSettings,
  context: FileCheckContext,
  options: BatchOptions,
  cache: RunCache,
  check: CheckMisses,
): AsyncGenerator<FileOutcome, void, undefined> {
  const known: (FileOutcome | undefined)[] = [];
  const misses: string[] = [];
  for await (const read of readTexts(files)) {
    const sha256 = "error" in read ? undefined : textSha256(read.text);
    const hit = sha256 === undefined ? undefined : reusable(read.file, sha256, cache, context);
    known.push(hit);
    if (hit === undefined) misses.push(read.file);
    else if (sha256 !== undefined) cache.record(read.file, sha256, hit);
  }
  const checkedAs = new Map<number, string>();
  const onChecked = (index: number, sha256: string): void => {
    checkedAs.set(index, sha256);
  };
  const checked = check(misses, settings, context, { ...options, onChecked }).outcomes[
    Symbol.asyncIterator
  ]();
  let miss = 0;
  try {
    for (const [at, hit] of known.entries()) {
      if (hit !== undefined) {
        yield hit;
        continue;
      }
      const next = await checked.next();
      if (next.done === true) throw new Error("a checked file's outcome is missing");
      // No hash: the check could not read the file, so what it judged is unknown; not recorded.
      const sha256 = checkedAs.get(miss);
      checkedAs.delete(miss);
      miss += 1;
      if (sha256 !== undefined) cache.record(files[at] ?? "", sha256, next.value);
      yield next.value;
    }
  } finally {
    // The check's generator is left at its last outcome: ending it stops its worker threads,
    // which would otherwise keep the process alive after the run.
    await checked.return?.(undefined);
  }
}

/**
 * Refuses, as a {@link UsageError}, a cache location that is one of `reads` by identity (any
 * name of the same file): writing the cache would replace what the run read.
 */
export function assertCacheSpares(
  cache: Pick<RunCache, "file" | "shown">,
  reads: readonly ReadFile[],
): void {
  const target = statOrUndefined(cache.file);
  if (target === undefined) return;
  const id = fileIdentity(target);
  for (const read of reads) {
    const info = statOrUndefined(read.path);
    if (info === undefined || fileIdentity(info) !== id) continue;
    throw overwriteRefusal("--cache-location", cache.shown, read, "writing the cache");
  }
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The outcomes of checking `files` with the cache, in input order. The cache location may be
 * none of the files nor a document of the registry (said before any file is checked).
 */
export function cachedBatch(
  files: readonly string[],
  settings: FileCheckSettings,
  context: FileCheckContext,
  options: BatchOptions,
  cache: RunCache,
  check: CheckMisses = checkFiles,
): Batch {
  assertCacheSpares(cache, readsOf({ inputs: files, registry: context.registry }));
  const workers = plannedWorkers(files, options);
  return {
    workers,
    outcomes:
      workers === 0
        ? inProcess(files, context, options, cache)
        : withWorkers(files, settings, context, options, cache, check),
  };
}

/** What opening the cache needs of the flags. */
export type CacheFlags = Pick<BatchCliOptions, "cache" | "cacheLocation" | "outputFile">;

/**
 * The run's cache with `--cache`, keyed by the run's settings (cache-key.ts), else `undefined`.
 * `--cache-location` without `--cache` does nothing, as in ESLint.
 */
export function openRunCache(
  flags: CacheFlags,
  command: CachedCommand,
  cwd: string,
  settings: RunSettings,
  io: CliIo,
): RunCache | undefined {
  if (flags.cache !== true) return undefined;
  const location = flags.cacheLocation ?? DEFAULT_CACHE_LOCATION;
  if (location.trim() === "") {
    throw new UsageError(
      "--cache-location '' is empty: give a file or a folder (is a variable unset?)",
    );
  }
  const file = cacheFile(location, cwd);
  // The report would be written, then the cache over it (or the reverse): one is lost.
  if (flags.outputFile !== undefined && resolve(cwd, flags.outputFile) === file) {
    throw new UsageError(`-o ${flags.outputFile} is the cache file; write the report elsewhere`);
  }
  const shown = relative(cwd, file);
  const named = shown.startsWith("..") || isAbsolute(shown) ? file : shown;
  // What the settings read is known now (the inputs and the registry's documents are checked in
  // cachedBatch): the config, every config it extends, the plugins and the packs.
  const reads = readsOf({ configFile: settings.configFile, others: extensionReads(settings) });
  assertCacheSpares({ file, shown: named }, reads);
  return RunCache.open(file, named, command, runKey(command, cwd, settings), io);
}
