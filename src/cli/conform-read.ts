/**
 * Run files into the checker: each file (or stdin, `-`) streamed in chunks, split into records,
 * read by its source's reader (named by `--source`, or recognised from the file's first
 * record), and every event pushed as it comes — memory holds the runs still open, not the file.
 * A record that is not JSON, and a file whose source cannot be told, are said, never skipped.
 */
import { createReadStream } from "node:fs";
import type {
  ApprovedModel,
  ConformanceChecker,
  ConformanceReport,
  RecordReader,
  RunReader,
  RunSource,
} from "../conform/index.js";
import {
  createConformanceChecker,
  createRecordSplitter,
  readerOf,
  RUN_READERS,
  sniffReader,
} from "../conform/index.js";
import { UsageError } from "./io.js";

/** The sources `--source` takes. */
export const RUN_SOURCES: readonly RunSource[] = RUN_READERS.map((r) => r.source);

/** `--source`, checked. */
export function parseSource(value: string | undefined): RunSource | undefined {
  if (value === undefined) return undefined;
  const found = RUN_SOURCES.find((s) => s === value);
  if (found === undefined) {
    throw new UsageError(`unknown --source '${value}' (expected ${RUN_SOURCES.join(", ")})`);
  }
  return found;
}

/** What a file's reading gave besides the events pushed. */
export interface FileRead {
  readonly file: string;
  readonly source: RunSource | undefined;
  readonly records: number;
}

function chunksOf(file: string): AsyncIterable<string | Buffer> {
  if (file === "-") {
    process.stdin.setEncoding("utf8");
    return process.stdin;
  }
  return createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 16 });
}

/** Streams one file into `checker`. A file that cannot be opened is a {@link UsageError}. */
export async function readRunFile(
  file: string,
  forced: RunSource | undefined,
  checker: ConformanceChecker,
): Promise<FileRead> {
  const split = createRecordSplitter(file);
  let chosen: RunReader | undefined = forced === undefined ? undefined : readerOf(forced);
  let reader: RecordReader | undefined = chosen?.create();
  let records = 0;
  const take = (items: ReturnType<typeof split.push>): void => {
    for (const item of items) {
      records++;
      if ("invalid" in item) {
        checker.push({
          kind: "unknown",
          class: "unknown",
          reason: item.invalid,
          at: { index: item.index, file, ...(item.line === undefined ? {} : { line: item.line }) },
        });
        continue;
      }
      if (reader === undefined) {
        chosen = sniffReader(item.value);
        if (chosen === undefined) {
          throw new UsageError(
            `${file}: cannot tell which source wrote it from its first record; give --source (${RUN_SOURCES.join(", ")})`,
          );
        }
        reader = chosen.create();
      }
      for (const event of reader.push(item)) checker.push(event);
    }
  };
  try {
    for await (const chunk of chunksOf(file)) take(split.push(String(chunk)));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`${file}: cannot be read${code === undefined ? "" : ` (${code})`}`);
  }
  take(split.end());
  if (reader !== undefined) for (const event of reader.end()) checker.push(event);
  return { file, source: chosen?.source, records };
}

/** The runs of some files checked, as {@link checkRunFiles} gives them. */
export interface RunFilesChecked {
  /** What the checker found, every run and process instance of every file. */
  readonly report: ConformanceReport;
  /** Each file as it was read, in the order given. */
  readonly files: readonly FileRead[];
  /**
   * Why a run could not be checked because it names no workflow and several are approved (the
   * sentence to say, with `--workflow`'s hint); the other runs were checked.
   */
  readonly unnamed: string | undefined;
}

/**
 * Checks the runs of `runs` (files, `-` for stdin) against `model`, each file read by `source`
 * or by the reader its first record names, every run with `workflow` when one is given.
 *
 * @throws UsageError when `workflow` is not among the approved workflows, or a file cannot be
 * read or its source told.
 */
export async function checkRunFiles(
  model: ApprovedModel,
  runs: readonly string[],
  source: RunSource | undefined,
  workflow: string | undefined,
): Promise<RunFilesChecked> {
  const known = model.workflows.map((w) => w.ref).join(", ") || "none";
  if (workflow !== undefined && !model.workflows.some((w) => w.ref === workflow)) {
    throw new UsageError(`--workflow ${workflow} is not among the approved workflows (${known})`);
  }
  const checker = createConformanceChecker(model, workflow === undefined ? {} : { workflow });
  const files: FileRead[] = [];
  for (const file of runs) files.push(await readRunFile(file, source, checker));
  const report = checker.end();
  const unnamed = report.runs.find((r) =>
    r.unverified.some((u) => u.reason === "WORKFLOW_UNNAMED"),
  );
  return {
    report,
    files,
    unnamed:
      unnamed === undefined
        ? undefined
        : `run ${unnamed.run} names no workflow and ${String(model.workflows.length)} are approved (${known}): say which with --workflow <id@version>`,
  };
}
