/**
 * `agentflow gate <process.bpmn…> --registry <dir>`: the promotion decision for each process
 * (SPEC 7), printed as a verdict and a table of agent tasks (text) or as data (json, sarif,
 * junit, github). Takes files, folders and globs like `check`; the exit code is the worst:
 * 2 when a file cannot be read as BPMN, else 1 when a promotion is blocked (or there are more
 * warnings than `--max-warnings`), else 0. An error in the registry blocks every promotion
 * checked with it: a document that cannot be read may be the one a decision needed, so the exit
 * code and the verdicts always agree with the error count the report shows.
 */
import { stat } from "node:fs/promises";
import type { CheckedFile } from "../report/index.js";
import { AGENT_TASK_COLUMNS, agentTaskCells, formatText } from "../report/index.js";
import { visibleText } from "../model/index.js";
import { derivedAgentLines } from "./gate-derived.js";
import type { GateSummary } from "./check-file.js";
import { useColor } from "./color.js";
import { pathSkipped } from "./diagnostics.js";
import { countUnwaived, emitReport, errorsOnly, parseMaxWarnings } from "./emit.js";
import { checkOutputPath } from "./output.js";
import type { Decided } from "./gate-run.js";
import { runGatePipeline } from "./gate-run.js";
import type { CliIo } from "./io.js";
import { UsageError } from "./io.js";
import { provenanceLines } from "./provenance.js";
import { renderFiles, REPORT_FORMATS } from "./render.js";
import { extensionDescriptors } from "./rule-descriptors.js";
import type { BatchCliOptions, Provenance } from "./settings.js";

export { gateOptions } from "./gate-options.js";
export { checkProcessFile } from "./check-file.js";

/** The output formats `gate` accepts. */
export const GATE_FORMATS = REPORT_FORMATS;

/** Options of `agentflow gate`, as commander parses them. */
export type GateCliOptions = BatchCliOptions;

function table(decision: GateSummary): string[] {
  if (decision.agentTasks.length === 0) return ["no agent tasks"];
  const rows = decision.agentTasks.map((t) => agentTaskCells(t, { hashLength: 19 }));
  const head = AGENT_TASK_COLUMNS;
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(head), ...rows.map(line)];
}

/** The verdict line, a note on the registry's problems, and the table of agent tasks. */
function verdictBlock(
  file: string,
  decision: GateSummary,
  registry: readonly CheckedFile[],
  quiet: boolean,
): string[] {
  const verdict = decision.allowed ? "ALLOWED" : "BLOCKED";
  const registryErrors = registry
    .flatMap((f) => f.diagnostics)
    .filter((d) => d.severity === "error").length;
  // --quiet shows errors only, as ESLint's does: no count of the warnings it hides either.
  const waived = decision.warnings.filter((d) => d.waived !== undefined).length;
  const shownWaived = quiet
    ? decision.warnings.filter((d) => d.waived !== undefined && d.severity === "error").length
    : waived;
  const counts =
    (quiet
      ? `${decision.blocking.length} blocking`
      : `${decision.blocking.length} blocking, ${decision.warnings.length - waived} warning(s)`) +
    (shownWaived === 0 ? "" : `, ${shownWaived} waived`);
  // Escaped: a file name with a newline must not forge a verdict line of its own.
  const lines = [`${visibleText(file)}: promotion ${verdict} (${counts})`];
  const problems = registry.flatMap((f) => f.diagnostics);
  const errors = registryErrors;
  const blocks = errors > 0 ? "; they block, since a decision may need what cannot be read" : "";
  if (quiet && errors > 0)
    lines.push(`the registry: ${errors} error(s) about its files, listed below${blocks}`);
  else if (!quiet && problems.length > 0) {
    lines.push(
      `the registry: ${errors} error(s), ${problems.length - errors} warning(s) about its files, listed below${blocks}`,
    );
  }
  lines.push("", ...table(decision), "");
  for (const task of decision.agentTasks) {
    if (task.derived !== undefined) lines.push(...derivedAgentLines(task.derived), "");
  }
  return lines;
}

/**
 * The text report: each readable process's verdict and table, in input order, then the findings
 * of every file (the registry's last) and, for several processes, one line of totals.
 */
function renderText(
  decided: readonly Decided[],
  shown: readonly CheckedFile[],
  registry: readonly CheckedFile[],
  provenance: Provenance,
  color: boolean,
  quiet: boolean,
): string {
  const lines: string[] = [];
  for (const { checked, decision, readable } of decided) {
    if (readable) lines.push(...verdictBlock(checked.file, decision, registry, quiet));
  }
  let text = lines.join("\n") + "\n" + formatText(shown, { color });
  if (decided.length > 1) {
    const blocked = decided.filter((d) => d.readable && !d.decision.allowed).length;
    const unreadable = decided.filter((d) => !d.readable).length;
    const allowed = decided.length - blocked - unreadable;
    text += `${decided.length} processes: ${allowed} allowed, ${blocked} blocked, ${unreadable} unreadable\n`;
  }
  return text + provenanceLines(provenance).join("\n") + "\n";
}

/**
 * A decision as JSON data: the verdict, the findings and the agent tasks (never the moddle tree,
 * which is the input again, as deep as the process nests).
 */
function gateJson(
  { checked, decision, readable }: Decided,
  registry: readonly CheckedFile[],
  passedOver: readonly CheckedFile[],
  provenance: Provenance,
  quiet: boolean,
): Readonly<Record<string, unknown>> {
  const { allowed, blocking, warnings, agentTasks } = decision;
  const plain = (files: readonly CheckedFile[]): unknown[] =>
    files.map(({ file, diagnostics }) => ({ file, diagnostics }));
  return {
    file: checked.file,
    readable,
    allowed,
    blocking,
    // A waived error is still an error: --quiet keeps it (it sits with the warnings, not blocking).
    warnings: quiet ? warnings.filter((d) => d.severity === "error") : warnings,
    agentTasks,
    registry: plain(registry),
    ...(passedOver.length === 0 || quiet ? {} : { skipped: plain(passedOver) }),
    config: provenance.config,
    ruleSet: provenance.ruleSet,
  };
}

/** True when the command line names exactly one existing file: `--format json` then prints one object. */
async function isSingleFile(paths: readonly string[]): Promise<boolean> {
  if (paths.length !== 1 || paths[0] === undefined) return false;
  const info = await stat(paths[0]).catch(() => undefined);
  return info?.isFile() === true;
}

/** Runs the command; resolves to the exit code. */
export async function runGate(
  paths: readonly string[],
  options: GateCliOptions,
  io: CliIo,
): Promise<number> {
  if (!(GATE_FORMATS as readonly string[]).includes(options.format)) {
    throw new UsageError(
      `unknown format '${options.format}' (expected ${GATE_FORMATS.join(", ")})`,
    );
  }
  const maxWarnings = parseMaxWarnings(options.maxWarnings);
  const cwd = process.cwd();
  if (options.outputFile !== undefined) await checkOutputPath(options.outputFile);
  const single = await isSingleFile(paths);
  const { context, skipped, reads, provenance, registry, decided } = await runGatePipeline(
    paths,
    options,
    io,
    { cwd, output: options.outputFile, concurrency: options.concurrency },
  );
  // Paths the walk of the inputs passed over: problems of the input, not of the registry.
  const passedOver = skipped.map((s): CheckedFile => ({
    file: s.path,
    kind: "unknown",
    diagnostics: [pathSkipped(s)],
  }));
  const all = [...decided.map((d) => d.checked), ...passedOver, ...registry];
  const quiet = options.quiet === true;
  const shown = quiet ? errorsOnly(all) : all;
  const toFile = options.outputFile !== undefined;
  let report: string;
  if (options.format === "json") {
    const objects = decided.map((d) => gateJson(d, registry, passedOver, provenance, quiet));
    report = JSON.stringify(single && objects.length === 1 ? objects[0] : objects, null, 2) + "\n";
  } else if (options.format === "text") {
    report = decided.some((d) => d.readable)
      ? renderText(decided, shown, registry, provenance, useColor(options.color, io, toFile), quiet)
      : "";
  } else {
    report = renderFiles(options.format, shown, {
      color: false,
      cwd,
      provenance,
      extensions: extensionDescriptors(context.extensions, cwd),
      ...(options.sarifCategory === undefined ? {} : { sarifCategory: options.sarifCategory }),
    });
  }
  const unreadable = decided.filter((d) => !d.readable).length;
  const blocked = decided.filter((d) => d.readable && !d.decision.allowed).length;
  const warnings = all.reduce((n, f) => n + countUnwaived(f.diagnostics).warning, 0);
  const summary = `${decided.length} process(es): ${decided.length - blocked - unreadable} allowed, ${blocked} blocked, ${unreadable} unreadable`;
  if (report !== "" || toFile) await emitReport(report, options.outputFile, reads, summary, io);
  if (unreadable > 0) return 2;
  if (blocked > 0) return 1;
  if (maxWarnings !== undefined && warnings > maxWarnings) {
    io.stderr(`agentflow: ${warnings} warnings exceed --max-warnings ${maxWarnings}\n`);
    return 1;
  }
  return 0;
}
