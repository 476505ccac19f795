/**
 * `agentflow report <process.bpmn | workflow> [--registry dir] [--fixtures f] -o report.html|.md`:
 * the audit report a reviewer can hand on (SPEC 8). The output format follows the extension of
 * `-o`. The same inputs give the same bytes: the report carries versions and hashes, no dates.
 * It reads `agentflow.config.json` as `gate` does (the same lookup, `-c`, `--no-config`, the
 * same flags winning), so the report and the gate give one verdict, and the report names the
 * config and the rule set it was judged by. With `--approval <approval.json>` it also shows the
 * approval: its signers, the approved files and which drifted, the agent tasks that changed.
 * With `--runs <files…>` it gains the Operation section: the recorded runs checked as
 * `agentflow conform` checks them (report-runs.ts).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { extname } from "node:path";
import type { AuditOptions, AuditReport } from "../report/audit/index.js";
import {
  auditProcessReport,
  auditWorkflowReport,
  renderAuditHtml,
  renderAuditMarkdown,
} from "../report/audit/index.js";
import type { Fixtures } from "../simulate/index.js";
import { readText } from "./file-read.js";
import { isProcessName } from "./files.js";
import { writeOutput } from "./output.js";
import type { CliIo } from "./io.js";
import { located, reportOnStderr, UsageError } from "./io.js";
import { optionsChecked } from "./fixtures-errors.js";
import { printImportWarnings } from "./imported.js";
import { registryImports } from "./registry-imports.js";
import { loadObject, loadWorkflow } from "./load.js";
import { policyOptions, threadExtensions } from "./check-context.js";
import { extensionReads } from "./emit.js";
import { gateOptions } from "./gate-options.js";
import { readsOf } from "./output.js";
import { loadFolderRegistry } from "./registry.js";
import { repositoryRoot } from "./approval-root.js";
import { approvalView, readApprovalFile } from "./report-approval.js";
import { checkReportRuns, checkRunsOptions } from "./report-runs.js";
import { checkOutputBesideKeys, loadTrustedKeys } from "./trusted-keys.js";
import { resolveSettings } from "./settings.js";

/** Options of `agentflow report`, as commander parses them. */
export interface ReportCliOptions {
  readonly output: string;
  readonly registry?: string;
  readonly fixtures?: string;
  /** `-c <file>`: a string; `--no-config`: false; neither: undefined. */
  readonly config?: string | boolean;
  readonly preset?: string;
  readonly camundaAgents?: string;
  /** `--today <YYYY-MM-DD>`: the day waivers are judged on. */
  readonly today?: string;
  /** `--approval <file>`: an approval to show, with what changed since it. */
  readonly approval?: string;
  /** `--root <dir>`: the repository root the approval's file names are relative to. */
  readonly root?: string;
  /** `--trusted-keys <dir|file…>`: keys to check the approval's signatures with. */
  readonly trustedKeys?: readonly string[];
  /** `--runs <files…>`: recorded runs for the Operation section (`-` reads stdin). */
  readonly runs?: readonly string[];
  /** `--workflow <id@version>`: the workflow of runs that name none. */
  readonly workflow?: string;
  /** `--source <source>`: the runs' format, when it is not to be recognised. */
  readonly source?: string;
}

/** The libraries whose versions a report names: they did the parsing, checking and simulating. */
const LIBRARIES = ["bpmn-moddle", "xstate", "lezer-feel", "ajv"] as const;

function versionOf(require: NodeJS.Require, name: string): string {
  try {
    const path = require.resolve(`${name}/package.json`);
    return (JSON.parse(readFileSync(path, "utf8")) as { version: string }).version;
  } catch {
    return "unknown";
  }
}

/** agentflow's version and the versions of the libraries it checked with. */
export function toolVersions(): Record<string, string> {
  const require = createRequire(import.meta.url);
  const own = new URL("../../package.json", import.meta.url);
  const out: Record<string, string> = {
    agentflow: (JSON.parse(readFileSync(own, "utf8")) as { version: string }).version,
  };
  for (const name of LIBRARIES) out[name] = versionOf(require, name);
  return out;
}

function renderer(output: string): (report: AuditReport) => string {
  const ext = extname(output).toLowerCase();
  if (ext === ".md") return renderAuditMarkdown;
  if (ext === ".html" || ext === ".htm") return renderAuditHtml;
  throw new UsageError(`-o '${output}': the report is written as .html or .md`);
}

/** Runs the command; resolves to 0, or 1 when the reviewed material has errors. */
export async function runReport(
  file: string,
  options: ReportCliOptions,
  io: CliIo,
): Promise<number> {
  const render = renderer(options.output);
  // Read first: a malformed approval is a usage error before any review work is done.
  if (options.approval === undefined && (options.trustedKeys ?? options.root) !== undefined) {
    throw new UsageError("--trusted-keys and --root apply with --approval <approval.json>");
  }
  checkRunsOptions(options);
  const approval =
    options.approval === undefined ? undefined : await readApprovalFile(options.approval);
  const keysRead =
    options.trustedKeys === undefined ? undefined : await loadTrustedKeys(options.trustedKeys);
  const trustedKeys = keysRead?.keys;
  if (options.trustedKeys !== undefined) {
    await checkOutputBesideKeys(options.output, options.trustedKeys);
  }
  const settings = await resolveSettings({
    format: "text",
    ...(options.config === undefined ? {} : { config: options.config }),
    ...(options.preset === undefined ? {} : { preset: options.preset }),
    ...(options.registry === undefined ? {} : { registry: options.registry }),
    ...(options.camundaAgents === undefined ? {} : { camundaAgents: options.camundaAgents }),
    ...(options.today === undefined ? {} : { today: options.today }),
  });
  // The config's plugins and packs judge the report as they judge `gate`.
  const policy = policyOptions(settings, await threadExtensions(settings));
  const registry =
    settings.registry.length === 0
      ? undefined
      : await loadFolderRegistry(settings.registry, settings.registrySource);
  // The report is about the process or the workflow; what the registry's files hold is said here.
  for (const { file, diagnostics } of registry?.problems ?? []) {
    for (const d of diagnostics)
      io.stderr(`agentflow: ${d.severity}: ${located(file, d)}: ${d.message} (${d.code})\n`);
  }
  const isProcess = isProcessName(file);
  // The runs are read before the review: a run file that cannot be read is exit 2, as in conform.
  const runs =
    options.runs === undefined || options.runs.length === 0
      ? undefined
      : await checkReportRuns(
          { ...options, runs: options.runs, registry: settings.registry },
          isProcess ? file : undefined,
          io,
          process.cwd(),
        );
  const base: AuditOptions = {
    file,
    text: await readText(file),
    tools: toolVersions(),
    preset: settings.preset,
    workflowRules: settings.workflowRules,
    gate: { ...gateOptions(undefined, settings), rules: settings.bpmnRules },
    ...policy,
    ...(settings.extensions.length === 0 ? {} : { extensions: settings.extensions }),
    config: settings.config,
    ...(registry === undefined ? {} : { registryProblems: registry.problems }),
    ...(registry?.resolvers.resolveTool === undefined
      ? {}
      : { resolveTool: registry.resolvers.resolveTool }),
    ...(registry?.resolvers.resolveDelegate === undefined
      ? {}
      : { resolveWorkflow: registry.resolvers.resolveDelegate }),
    ...(runs === undefined ? {} : { operation: runs.operation }),
    ...(registry === undefined ? {} : { importedWorkflows: registryImports(registry) }),
  };
  let report: AuditReport;
  if (isProcess) {
    if (options.fixtures !== undefined) {
      throw new UsageError("--fixtures applies to a workflow report, not to a process");
    }
    report = await auditProcessReport(base);
    if (report.process?.readable === false) {
      // Nothing was reviewed: an unreadable file is a usage error, never a "blocked" report.
      reportOnStderr(
        io,
        file,
        report.process.rules.flatMap((r) => r.diagnostics),
      );
      return 2;
    }
  } else {
    const fixtures =
      options.fixtures === undefined
        ? undefined
        : ((await loadObject(options.fixtures, "fixtures")) as Fixtures);
    const { workflow, imported } = await loadWorkflow(file);
    printImportWarnings(io, file, imported);
    const extra = {
      ...(fixtures === undefined ? {} : { fixtures }),
      ...(imported === undefined ? {} : { imported }),
    };
    report = await optionsChecked(options.fixtures, () =>
      auditWorkflowReport(workflow, { ...base, ...extra }),
    );
  }
  if (approval !== undefined) {
    const cwd = process.cwd();
    const view = await approvalView(approval, {
      root: repositoryRoot(options.root, [file], cwd),
      cwd,
      file,
      agentTasks: report.process?.agentTasks,
      ...(trustedKeys === undefined ? {} : { trustedKeys }),
    });
    report = { ...report, approval: view };
  }
  const reads = readsOf({
    inputs: [file],
    configFile: settings.configFile,
    registry,
    fixtures: options.fixtures,
    others: [
      ...extensionReads(settings),
      ...(options.approval === undefined ? [] : [{ path: options.approval, role: "the approval" }]),
      ...(keysRead?.reads ?? []),
      ...(runs?.reads ?? []),
    ],
  });
  await writeOutput(options.output, render(report), { reads });
  const failed =
    report.process?.allowed === false ||
    report.workflows.some((w) => w.rules.some((r) => !r.passed && r.severity === "error"));
  // Runs that deviate, or could not be checked in full, fail the report as they fail conform.
  const op = report.operation;
  const runsNote =
    op === undefined
      ? ""
      : `; runs: ${String(op.conforming.count)} conforming, ${String(op.deviating.count)} deviating, ${String(op.unverified.count)} unverified`;
  io.stderr(
    `agentflow: wrote ${options.output} (${failed ? "findings that block" : "nothing blocks"}${runsNote})\n`,
  );
  return failed || op?.ok === false ? 1 : 0;
}
