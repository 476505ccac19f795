/**
 * `agentflow report … --runs <files…>`: the recorded runs checked as `agentflow conform` checks
 * them — the same approved model (from the report's `--approval`, else its `--registry` and,
 * for a process report, the process), the same streaming reader — for the report's Operation
 * section. Fails closed as conform does: a run file that cannot be read, a model that cannot be
 * built, or a run that names no workflow among several, is exit 2 with the reason.
 */
import type { OperationInput } from "../report/audit/index.js";
import { buildModel } from "./conform-model.js";
import { checkRunFiles, parseSource } from "./conform-read.js";
import type { CliIo } from "./io.js";
import { UsageError } from "./io.js";

/** The report's options that decide how its runs are checked. */
export interface ReportRunsOptions {
  readonly runs?: readonly string[];
  readonly workflow?: string;
  readonly source?: string;
  readonly approval?: string;
  /** The registry folders: `--registry`, or the config's. */
  readonly registry: readonly string[];
  readonly config?: string | boolean;
  readonly root?: string;
}

/** The runs checked, and the files the model and the runs were read from (`-o` spares them). */
export interface ReportRuns {
  readonly operation: OperationInput;
  readonly reads: readonly { readonly path: string; readonly role: string }[];
}

/** Refuses `--workflow` and `--source` without `--runs`, before any work is done. */
export function checkRunsOptions(
  options: Pick<ReportRunsOptions, "runs" | "workflow" | "source">,
): void {
  if (options.runs === undefined || options.runs.length === 0) {
    if (options.workflow !== undefined || options.source !== undefined) {
      throw new UsageError("--workflow and --source apply with --runs <files…>");
    }
    return;
  }
  if (options.runs.filter((r) => r === "-").length > 1) {
    throw new UsageError("stdin (-) can be read once");
  }
  parseSource(options.source);
}

/**
 * Checks the runs of `options.runs` against the approved model; `process` is the report's BPMN
 * file for a process report (its instances are checked too), undefined for a workflow report.
 */
export async function checkReportRuns(
  options: ReportRunsOptions & { readonly runs: readonly string[] },
  process: string | undefined,
  io: CliIo,
  cwd: string,
): Promise<ReportRuns> {
  const source = parseSource(options.source);
  // With --approval the approval's own processes are checked; with --registry, the report's.
  const fromApproval = options.approval !== undefined;
  const [registry, ...others] = options.registry;
  if (!fromApproval && (registry === undefined || others.length > 0)) {
    throw new UsageError(
      registry === undefined
        ? "--runs are checked against what was approved: give --approval <approval.json> or --registry <dir>"
        : "--runs are checked against one registry folder: give --approval <approval.json> or --registry <dir>",
    );
  }
  const built = await buildModel(
    {
      approval: options.approval,
      registry: fromApproval ? undefined : registry,
      processes: fromApproval || process === undefined ? [] : [process],
      config: options.config,
      root: options.root,
    },
    io,
    cwd,
  );
  const {
    report: conformance,
    files,
    unnamed,
  } = await checkRunFiles(built.model, options.runs, source, options.workflow);
  if (unnamed !== undefined) throw new UsageError(unnamed);
  return {
    operation: {
      conformance,
      basis: built.basis,
      files: files.map((f) => ({ file: f.file, source: f.source ?? null, records: f.records })),
    },
    reads: [
      ...built.reads.map((path) => ({ path, role: "an input of the approved model" })),
      ...options.runs.filter((r) => r !== "-").map((path) => ({ path, role: "a run file" })),
    ],
  };
}
