import { constants } from "node:buffer";
import type { Diagnostic } from "../model/index.js";
import { visibleText } from "../model/index.js";

/** Where the CLI writes, injectable so that tests capture output without a subprocess. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Whether stdout is a terminal that takes colour (false when piped or with `NO_COLOR`). */
  readonly isTTY: boolean;
  /**
   * Whether stdout is a terminal, colour or not. `check` then ends its text summary with the
   * run's total time; output that is piped, redirected or captured never has it, so that it stays
   * byte-for-byte reproducible. Absent means no.
   */
  readonly stdoutIsTTY?: boolean;
  /**
   * Whether stderr is a terminal. Long runs of `check` then draw a progress line there, updated
   * in place and erased before the report is printed. Absent means no.
   */
  readonly stderrIsTTY?: boolean;
  /**
   * A monotonic clock in milliseconds, read only for the progress line and the total time (the
   * one place the CLI reads time). Defaults to `performance.now`; tests inject a fake.
   */
  readonly now?: () => number;
  /**
   * Where the CLI says how it ran (how many worker threads checked the files), for tests and
   * for `AGENTFLOW_DEBUG=1`; absent means nowhere. Never part of a report.
   */
  readonly debug?: (line: string) => void;
  /** The environment read for `FORCE_COLOR` and `NO_COLOR`; none when absent. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The standard streams whose reader has gone (`agentflow … | head`): nothing more is written. */
const closed = new Set<NodeJS.WriteStream>();
const guarded = new Set<NodeJS.WriteStream>();
/** Whether writing stdout failed for another reason than a closed pipe. */
let failed = false;

/** Whether the report could not be written on stdout (not a closed pipe): the run exits 2. */
export function stdoutFailed(): boolean {
  return failed;
}

/**
 * Writes to a standard stream whose reader may go away: a closed pipe (`EPIPE`) ends the
 * writing quietly, as `grep … | head` does, instead of an unhandled `error` event with a
 * stack trace. The command still runs to its end and exits with its own code, so that a
 * blocked `gate … | head -1` still fails a pipeline that checks (`set -o pipefail`).
 */
export function writeQuietly(stream: NodeJS.WriteStream, text: string): void {
  if (closed.has(stream)) return;
  if (!guarded.has(stream)) {
    guarded.add(stream);
    stream.on("error", (error: NodeJS.ErrnoException) => {
      closed.add(stream);
      if (error.code === "EPIPE" || stream === process.stderr) return;
      // Another failure of stdout (a full disk behind `> file`): said once, and the run fails,
      // also when it comes after the command's exit code was set.
      failed = true;
      process.exitCode = 2;
      writeQuietly(process.stderr, `agentflow: cannot write the output: ${error.message}\n`);
    });
  }
  stream.write(text);
}

/** The process's own streams. */
export const processIo: CliIo = {
  stdout: (text) => {
    writeQuietly(process.stdout, text);
  },
  stderr: (text) => {
    writeQuietly(process.stderr, text);
  },
  isTTY: process.stdout.isTTY && process.env.NO_COLOR === undefined,
  // Undefined rather than false on a pipe, whatever the types say: read with `=== true`.
  stdoutIsTTY: process.stdout.isTTY,
  stderrIsTTY: process.stderr.isTTY,
  env: process.env,
  ...(process.env.AGENTFLOW_DEBUG === undefined || process.env.AGENTFLOW_DEBUG === ""
    ? {}
    : { debug: (line: string) => process.stderr.write(`agentflow: debug: ${line}\n`) }),
};

/** `file:line:column` of a diagnostic, or `file` when it has no position. */
export function located(file: string, d: Diagnostic): string {
  // A file name may hold a newline: escaped, it cannot start a line (a forged verdict, a CI
  // runner's `::` command) of its own.
  const name = visibleText(file);
  return d.location === undefined ? name : `${name}:${d.location.line}:${d.location.column}`;
}

/** The one stderr line of a diagnostic: `agentflow: file:line:column: message`, escaped. */
export function diagnosticLine(file: string, d: Diagnostic): string {
  return visibleText(`agentflow: ${located(file, d)}: ${d.message}`) + "\n";
}

/** Writes each diagnostic as `agentflow: file:line:column: message` on stderr. */
export function reportOnStderr(io: CliIo, file: string, diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics) io.stderr(diagnosticLine(file, d));
}

/** A user mistake: reported as one line on stderr with exit code 2, never a stack trace. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/**
 * A flag's value read as a count: decimal digits only, as a user types one. `Number` alone also
 * reads `0x10`, `2e0`, ` 2` and `2.0`, which a typo more likely wrote than a count, so those are
 * refused rather than guessed at; so is a count too large to hold exactly.
 */
export function wholeNumber(value: string): number | undefined {
  if (!/^[0-9]+$/.test(value)) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * The most bytes agentflow reads as one text: V8's longest string (just under 512 MiB). A longer
 * file cannot be decoded at all, so it is refused by its size, naming it, before it is read.
 */
export const MAX_TEXT_BYTES: number = constants.MAX_STRING_LENGTH;

function mebibytes(bytes: number): string {
  return String(Math.round(bytes / 2 ** 20));
}

/**
 * Why a file of `size` bytes cannot be read as text (a clause for `cannot read 'x': <this>`), or
 * `undefined` when it can: every reader of text asks this before reading.
 */
export function textSizeProblem(size: number, limit: number = MAX_TEXT_BYTES): string | undefined {
  if (size <= limit) return undefined;
  return `it is ${mebibytes(size)} MiB, ${beyond(limit)}`;
}

/** {@link textSizeProblem} for a stream, whose size is known only to pass `limit`. */
export function streamSizeProblem(limit: number = MAX_TEXT_BYTES): string {
  return `it is ${beyond(limit)}`;
}

function beyond(limit: number): string {
  return `more than the ${mebibytes(limit)} MiB agentflow reads as text`;
}
