/**
 * `agentflow conform <runs…> (--approval <file> | --registry <dir> [--process <bpmn>…])`:
 * recorded runs checked against what was approved. Exit 0 when every run conforms (and every
 * process instance, and every record was read); 1 on any deviation or anything unverified
 * (conform fails closed); 2 when the approved model cannot be built or a file cannot be read.
 */
import { pathToFileURL } from "node:url";
import { fileUriOf } from "../report/index.js";
import { buildModel } from "./conform-model.js";
import { checkRunFiles, parseSource } from "./conform-read.js";
import {
  CONFORM_FORMATS,
  conformJson,
  conformSarif,
  conformSummary,
  conformText,
} from "./conform-render.js";
import { emitReport } from "./emit.js";
import type { CliIo } from "./io.js";
import { UsageError } from "./io.js";
import { packageVersion } from "./version.js";

/** Options of `agentflow conform`, as commander parses them. */
export interface ConformCliOptions {
  readonly approval?: string;
  readonly registry?: string;
  readonly process?: readonly string[];
  readonly workflow?: string;
  readonly source?: string;
  readonly format: string;
  readonly outputFile?: string;
  /** `-c <file>`: a string; `--no-config`: false; neither: undefined. */
  readonly config?: string | boolean;
  readonly root?: string;
  readonly prompts?: string;
}

/** Runs `conform`; returns the exit code. */
export async function runConform(
  runs: readonly string[],
  options: ConformCliOptions,
  io: CliIo,
): Promise<number> {
  const format = options.format;
  if (!(CONFORM_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`unknown format '${format}' (expected ${CONFORM_FORMATS.join(", ")})`);
  }
  if (runs.length === 0) throw new UsageError("name the run files to check (- for stdin)");
  if (runs.filter((r) => r === "-").length > 1) throw new UsageError("stdin (-) can be read once");
  const source = parseSource(options.source);
  const built = await buildModel(
    {
      approval: options.approval,
      registry: options.registry,
      processes: options.process ?? [],
      config: options.config,
      root: options.root,
      prompts: options.prompts,
    },
    io,
    process.cwd(),
  );
  const { report, files, unnamed } = await checkRunFiles(
    built.model,
    runs,
    source,
    options.workflow,
  );
  const place = { basis: built.basis, files };
  const text =
    format === "json"
      ? conformJson(report, place)
      : format === "sarif"
        ? conformSarif(
            report,
            packageVersion(),
            fileUriOf(process.cwd()) ?? pathToFileURL(process.cwd()).href,
          )
        : conformText(report, place);
  await emitReport(
    text,
    options.outputFile,
    [...runs.filter((r) => r !== "-"), ...built.reads],
    conformSummary(report),
    io,
  );
  if (unnamed !== undefined) {
    // The other runs were checked and reported; this one could not be: a usage mistake.
    io.stderr(`agentflow: ${unnamed}\n`);
    return 2;
  }
  if (report.summary.runs === 0 && report.instances.length === 0) {
    // The summary is not ok (nothing checked is no pass); say which files held nothing.
    io.stderr(
      `agentflow: no run and no process instance in ${runs.join(", ")}: nothing was checked\n`,
    );
  }
  return report.summary.ok ? 0 : 1;
}
