/**
 * The promotion decision of a run of `gate`, as data: the settings from the config and the
 * flags, the processes collected from the paths, the registry, plugins and packs loaded, and each
 * process checked. `gate` prints it; `approve` and `verify` record it and compare it, so that what
 * is approved is exactly what `gate` decides, by one pipeline.
 */
import { countBySeverity } from "../model/index.js";
import type { CheckedFile } from "../report/index.js";
import { checkFiles } from "./batch.js";
import { cachedBatch, openRunCache } from "./cache-run.js";
import type { GateSummary } from "./check-file.js";
import { extensionReads } from "./emit.js";
import type { SkippedPath } from "./files.js";
import { collectFiles } from "./files.js";
import { ignoreTest } from "./ignore.js";
import type { CliIo } from "./io.js";
import type { ReadFile } from "./output.js";
import { assertOutputSpares, readsOf } from "./output.js";
import type { FileCheckContext } from "./check-context.js";
import { fileCheckContext } from "./check-context.js";
import { refuseSharedProcesses } from "./gate-waivers.js";
import type { BatchCliOptions, Provenance, RunSettings } from "./settings.js";
import { provenanceOf, resolveSettings } from "./settings.js";

/** One process's decision, as `gate` reports it. */
export interface Decided {
  readonly checked: CheckedFile;
  readonly decision: GateSummary;
  readonly readable: boolean;
  /** The ids of the file's `bpmn:process` elements (none when it could not be read). */
  readonly processIds: readonly string[];
}

/** Everything a run of the gate read and decided. */
export interface GateRun {
  readonly settings: RunSettings;
  readonly context: FileCheckContext;
  /** The process files, as collected from the paths (in input order). */
  readonly files: readonly string[];
  /** Paths the walk of the inputs passed over, with why. */
  readonly skipped: readonly SkippedPath[];
  /** Every file the run read, with its role (so that `-o` is never one of them). */
  readonly reads: readonly ReadFile[];
  readonly provenance: Provenance;
  /** The registry's problems, as files of the report. */
  readonly registry: readonly CheckedFile[];
  /** The errors among them: any blocks every promotion checked with this registry. */
  readonly registryErrors: number;
  /** Each process's decision, in input order. */
  readonly decided: readonly Decided[];
}

/** The decision as reported: blocked as well when the registry it was checked with has errors. */
function withRegistry(decision: GateSummary, registryErrors: number): GateSummary {
  return registryErrors === 0 || !decision.allowed ? decision : { ...decision, allowed: false };
}

/** The registry's problems as files of the report, so that every format shows them. */
function registryFiles(
  problems: readonly { readonly file: string; readonly diagnostics: CheckedFile["diagnostics"] }[],
): CheckedFile[] {
  return problems.map(({ file, diagnostics }) => ({ file, kind: "unknown", diagnostics }));
}

/** What a run of the gate is given besides the paths and the flags. */
export interface GateRunOptions {
  /** The `-o` file: walks pass over it, and it may not be a file the run reads. */
  readonly output?: string | undefined;
  /** `--concurrency`. */
  readonly concurrency?: string | undefined;
  /** The working directory (the config is looked up from it). */
  readonly cwd: string;
  /**
   * Registry folders to use instead of those the flags and the config set (`verify` reads the
   * approval's): where the decisions were reached, not where the config now points.
   */
  readonly registry?: readonly string[];
}

/**
 * Runs the gate on `paths` as `agentflow gate` does. Lines for stderr (a process that cannot be
 * read) are written as the outcomes come; a mistake of the user is a `UsageError`, a waiver of a
 * process id that two of the processes define among them (gate-waivers.ts).
 */
export async function runGatePipeline(
  paths: readonly string[],
  options: BatchCliOptions,
  io: CliIo,
  run: GateRunOptions,
): Promise<GateRun> {
  const { cwd, output } = run;
  const resolved = await resolveSettings(options, cwd);
  const chosen: RunSettings =
    run.registry === undefined
      ? resolved
      : { ...resolved, registry: run.registry, registrySource: "the approval's registry" };
  const cache = openRunCache(options, "gate", cwd, chosen, io);
  const settings: RunSettings = cache === undefined ? chosen : { ...chosen, recordLookups: true };
  io.debug?.(`config: ${settings.configFile ?? "none"}`);
  const ignored = ignoreTest(settings.ignores, cwd);
  const { files, skipped } = await collectFiles(paths, {
    onlyProcesses: true,
    ...(ignored === undefined ? {} : { ignored }),
    ...(output === undefined ? {} : { output }),
  });
  const context = await fileCheckContext(settings, cache?.registry);
  const reads = readsOf({
    inputs: files,
    configFile: settings.configFile,
    registry: context.registry,
    others: extensionReads(settings),
  });
  // Refused before any process is checked: the run would end by destroying one of its inputs.
  if (output !== undefined) await assertOutputSpares(output, reads);
  const registry = registryFiles(context.registry?.problems ?? []);
  const registryErrors = registry.reduce((n, f) => n + countBySeverity(f.diagnostics).error, 0);
  const decided: Decided[] = [];
  const batchOptions = { mode: { processesOnly: true }, concurrency: run.concurrency };
  const batch =
    cache === undefined
      ? checkFiles(files, settings, context, batchOptions)
      : cachedBatch(files, settings, context, batchOptions, cache);
  io.debug?.(`${files.length} file(s) in ${batch.workers} worker thread(s)`);
  for await (const outcome of batch.outcomes) {
    // Said on stderr for people; a machine format still gets its document, holding the error.
    for (const line of outcome.stderr) io.stderr(line);
    if (outcome.decision !== undefined) {
      decided.push({
        checked: outcome.checked,
        decision: withRegistry(outcome.decision, registryErrors),
        readable: !outcome.unreadable,
        processIds: outcome.processIds ?? [],
      });
    }
  }
  cache?.save(io);
  // Refused once every process is read: a waiver of a process id two inputs define.
  refuseSharedProcesses(
    settings,
    context.extensions.packs,
    decided.map(({ checked, processIds }) => ({ file: checked.file, processIds })),
  );
  return {
    settings,
    context,
    files,
    skipped,
    reads,
    provenance: provenanceOf(settings),
    registry,
    registryErrors,
    decided,
  };
}
