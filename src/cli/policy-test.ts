/**
 * `agentflow policy test [dir]`: the unit tests of policy packs, as `kyverno test` and
 * `conftest verify` run theirs. Every `*.policytest.yaml` (`.yml`, `.json`) below the folder (or
 * the one file named) lists inputs and, per pack rule, the subjects that must fail it and those
 * that must pass it; each subject is a case. Exit 0 when every case holds, 1 when one does not,
 * 2 when a test file, a pack, a registry document or an input cannot be read (a usage error
 * naming every problem). Rules without a failing or a passing case are listed, and warned of, but
 * do not fail the run. The format is in docs/policies.md.
 */
import { stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { glob } from "tinyglobby";
import type { CliIo } from "./io.js";
import { UsageError } from "./io.js";
import { coverageOf } from "./policy-test-cases.js";
import { policyTestReport, policyTestText } from "./policy-test-render.js";
import { runTestFile } from "./policy-test-run.js";
import { parseToday } from "./today.js";

/** Options of `agentflow policy test`. */
export interface PolicyTestOptions {
  /** `text` (default) or `json`. */
  readonly format?: string;
}

/** The names of policy test files. */
export const POLICY_TEST_PATTERN = "**/*.policytest.{yaml,yml,json}";

/** The test files below `dir` (sorted), or `dir` itself when it is a file. */
async function testFiles(dir: string): Promise<string[]> {
  const path = resolve(dir);
  const info = await stat(path).catch(() => undefined);
  if (info === undefined) throw new UsageError(`'${dir}' does not exist`);
  if (info.isFile()) return [path];
  if (!info.isDirectory()) throw new UsageError(`'${dir}' is neither a folder nor a file`);
  // A dot-file is read as the same file without the dot, dot-folders are passed over: as a walk.
  const found = await glob([POLICY_TEST_PATTERN], {
    cwd: path,
    dot: true,
    ignore: ["**/node_modules/**", "**/.*/**"],
    followSymbolicLinks: false,
  });
  // Sorted by code unit, as folders are walked elsewhere: the same order on every system.
  const files = found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((f) => join(path, f));
  if (files.length === 0) {
    throw new UsageError(
      `no policy tests in '${dir}': a test file is named *.policytest.yaml, *.policytest.yml or *.policytest.json`,
    );
  }
  return files;
}

/**
 * Runs the policy tests in `dir` (the working directory when absent) and prints the report;
 * resolves to the exit code. Throws a {@link UsageError} listing every problem of every test
 * file when one cannot be run.
 */
export async function policyTestCommand(
  dir: string | undefined,
  options: PolicyTestOptions,
  io: CliIo,
): Promise<number> {
  const format = options.format ?? "text";
  if (format !== "text" && format !== "json") {
    throw new UsageError(`unknown format '${format}' (expected text, json)`);
  }
  const files = await testFiles(dir ?? ".");
  // Decided once: a run past midnight judges every file on the same day.
  const today = parseToday(undefined);
  const outcomes = [];
  for (const file of files) outcomes.push(await runTestFile(file, today));
  const problems = outcomes.flatMap((o) => ("problems" in o ? o.problems : []));
  if (problems.length > 0) throw new UsageError(problems.join("\n"));
  const judged = outcomes.flatMap((o) => ("problems" in o ? [] : [o]));
  const coverage = coverageOf(
    judged.flatMap((o) => o.packs),
    judged.flatMap((o) => o.planned),
  );
  const report = policyTestReport(
    judged.map(({ file, name, cases }) => ({ file, name, cases })),
    coverage,
  );
  io.stdout(format === "json" ? JSON.stringify(report, null, 2) + "\n" : policyTestText(report));
  return report.failed > 0 ? 1 : 0;
}
