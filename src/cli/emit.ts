import type { Diagnostic } from "../model/index.js";
import { countBySeverity } from "../model/index.js";
import type { CheckedFile } from "../report/index.js";
import type { ReadFile } from "./output.js";
import { readsOf, writeOutput } from "./output.js";
import type { CliIo } from "./io.js";
import { UsageError, wholeNumber } from "./io.js";

/**
 * Writes a command's report: on stdout, or into the `-o` file with a one-line summary on stderr
 * (so that a CI log still says what happened). `reads` are the files the run read — a plain
 * path is an input file; {@link readsOf} lists the config file, the registry's documents and
 * the rest with their roles — and the `-o` file may be none of them.
 */
export async function emitReport(
  report: string,
  outputFile: string | undefined,
  reads: readonly (string | ReadFile)[],
  summary: string,
  io: CliIo,
): Promise<void> {
  if (outputFile === undefined) {
    io.stdout(report);
    return;
  }
  const guarded = reads.flatMap((r) => (typeof r === "string" ? readsOf({ inputs: [r] }) : [r]));
  await writeOutput(outputFile, report, { reads: guarded });
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
  const n = wholeNumber(value);
  if (n === undefined)
    throw new UsageError(`--max-warnings needs a whole number ≥ 0, got '${value}'`);
  return n;
}

/**
 * Findings by severity, without the waived ones: a waived finding is shown but counts toward
 * neither the exit code nor `--max-warnings`.
 */
export function countUnwaived(
  diagnostics: readonly Diagnostic[],
): ReturnType<typeof countBySeverity> {
  return countBySeverity(
    diagnostics.some((d) => d.waived !== undefined)
      ? diagnostics.filter((d) => d.waived === undefined)
      : diagnostics,
  );
}

/**
 * The files a run read because of its config, besides the config itself: every config its
 * `extends` chain names, its plugins and its packs, so that `-o` (and `--cache-location`) can
 * never overwrite one.
 */
export function extensionReads(settings: {
  readonly configFile?: string | undefined;
  readonly configChain?: readonly { readonly file: string }[];
  readonly plugins?: readonly { readonly file: string }[];
  readonly packs?: readonly { readonly source: string }[];
}): ReadFile[] {
  return [
    ...(settings.configChain ?? [])
      .filter((c) => c.file !== settings.configFile)
      .map((c) => ({ path: c.file, role: "a config the config file extends" })),
    ...(settings.plugins ?? []).map((p) => ({ path: p.file, role: "a plugin of the config" })),
    ...(settings.packs ?? []).map((p) => ({ path: p.source, role: "a policy pack of the config" })),
  ];
}
