import type { Diagnostic } from "../model/index.js";
import type { CheckedFile } from "../report/index.js";
import { writeOutput } from "./files.js";
import type { CliIo } from "./io.js";
import { UsageError } from "./io.js";

/**
 * Writes a command's report: on stdout, or into the `-o` file with a one-line summary on stderr
 * (so that a CI log still says what happened). The inputs are never overwritten.
 */
export async function emitReport(
  report: string,
  outputFile: string | undefined,
  inputs: readonly string[],
  summary: string,
  io: CliIo,
): Promise<void> {
  if (outputFile === undefined) {
    io.stdout(report);
    return;
  }
  await writeOutput(outputFile, report, { inputs });
  io.stderr(`agentflow: wrote ${outputFile}: ${summary}\n`);
}

function isError(d: Diagnostic): boolean {
  return d.severity === "error";
}

/** `--quiet`: the files with their errors only (every file stays, so that it counts as checked). */
export function errorsOnly(files: readonly CheckedFile[]): CheckedFile[] {
  return files.map((f) =>
    f.diagnostics.every(isError) ? f : { ...f, diagnostics: f.diagnostics.filter(isError) },
  );
}

/** Parses `--max-warnings`. */
export function parseMaxWarnings(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isInteger(n) || n < 0)
    throw new UsageError(`--max-warnings needs a whole number ≥ 0, got '${value}'`);
  return n;
}
