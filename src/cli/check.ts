/**
 * `agentflow check`: parse every document, validate workflows with the rules (resolving tool
 * contracts and delegates from the registry), check BPMN processes, and print the findings in
 * the chosen format. Settings come from the config file and the flags (see `settings.ts`).
 */
import type { RegistryDefinition } from "../bpmn/index.js";
import { resolve } from "node:path";
import type { CheckedFile } from "../report/index.js";
import type { Batch } from "./batch.js";
import { checkFiles } from "./batch.js";
import type { FileOutcome } from "./check-file.js";
import { checkOneFile } from "./check-file.js";
import type { FileCheckContext } from "./check-context.js";
import { useColor } from "./color.js";
import { pathSkipped, redefinition } from "./diagnostics.js";
import { countUnwaived, emitReport, errorsOnly, extensionReads, parseMaxWarnings } from "./emit.js";
import { collectFiles } from "./files.js";
import { checkOutputPath } from "./output.js";
import type { IgnoreTest } from "./ignore.js";
import { ignoreTest } from "./ignore.js";
import { assertOutputSpares, readsOf } from "./output.js";
import type { CliIo } from "./io.js";
import { UsageError } from "./io.js";
import { startProgress, startStopwatch, withTotalTime } from "./progress.js";
import { provenanceLines } from "./provenance.js";
import { renderFiles, REPORT_FORMATS } from "./render.js";
import { extensionDescriptors } from "./rule-descriptors.js";
import { cachedBatch, openRunCache } from "./cache-run.js";
import type { RunCache } from "./cache.js";
import type { BatchCliOptions, RunSettings } from "./settings.js";
import { fileCheckContext } from "./check-context.js";
import { refusingSharedProcesses } from "./gate-waivers.js";
import { provenanceOf, resolveSettings } from "./settings.js";
import type { FolderRegistry } from "./registry.js";

export { checkText, IMPORT_FAILED } from "./check-file.js";
export { ruleDescriptors } from "./rule-descriptors.js";

/** The output formats `check` accepts. */
export const CHECK_FORMATS = REPORT_FORMATS;

/** Options of `agentflow check`, as commander parses them. */
export interface CheckOptions extends BatchCliOptions {
  /** `--stdin`: check one document read from stdin instead of files. */
  readonly stdin?: boolean;
  /** `--stdin-filename <path>`: the path the stdin document is checked as. */
  readonly stdinFilename?: string;
}

/** A document read from stdin, checked as if it were the file `name`. */
export interface StdinDocument {
  readonly name: string;
  readonly text: string;
  /** Read it as a BPMN process (its name's extension, or its text, says so). */
  readonly process: boolean;
}

/** The registry's definition of a checked document's `id@version`, when it is not the registry's. */
type RegistryFirst = (result: CheckedFile, ref: string) => RegistryDefinition | undefined;

/**
 * {@link RegistryFirst} of the run's registry: a workflow or tool contract checked outside the
 * registry is compared with the registry's document of its identity, so that checking it alone
 * (a narrowed CI run, an editor) finds the impostor `check .` finds by reading both.
 */
function registryFirstOf(registry: FolderRegistry | undefined): RegistryFirst {
  if (registry === undefined) return () => undefined;
  const own = new Set(registry.files.map((file) => resolve(file)));
  return (result, ref) => {
    const shelf =
      result.kind === "ToolContract" ? "tool" : result.kind === "AgentWorkflow" ? "workflow" : null;
    if (shelf === null || own.has(resolve(result.file))) return undefined;
    return registry.definitionOf(shelf, ref);
  };
}

/**
 * The result with a `REGISTRY_CONFLICT` (different content) or `REGISTRY_DUPLICATE` (the same)
 * when an earlier checked document of its kind, or the registry, has its `id@version`: files
 * checked together are read as one registry would read them. Imported documents are left out,
 * since a converted copy beside its source is the usual case, not an impostor.
 */
function definedOnce(
  result: CheckedFile,
  seen: Map<string, RegistryDefinition>,
  registryFirst: RegistryFirst,
): CheckedFile {
  const { id, version, contentHash: hash, format } = result;
  if (id === undefined || version === undefined || hash === undefined || format !== undefined) {
    return result;
  }
  const ref = `${id}@${version}`;
  const key = `${result.kind} ${ref}`;
  const first = seen.get(key) ?? registryFirst(result, ref);
  const here = { source: result.file, contentHash: hash };
  if (first === undefined) {
    seen.set(key, here);
    return result;
  }
  const again = redefinition(ref, first, here);
  return { ...result, diagnostics: [...result.diagnostics, again] };
}

/**
 * The stdin document's outcome, as a batch of one; none when the ignores match its name (as
 * ESLint: an editor checking an ignored file shows nothing), said on stderr.
 */
function stdinBatch(
  stdin: StdinDocument,
  context: FileCheckContext,
  ignored: IgnoreTest | undefined,
  io: CliIo,
): Batch {
  async function* outcomes(): AsyncGenerator<FileOutcome, void, undefined> {
    if (ignored?.(stdin.name) === true) {
      io.stderr(`agentflow: ${stdin.name} is ignored by the ignore patterns; not checked\n`);
      return;
    }
    yield await checkOneFile(stdin.name, stdin.text, context, { processesOnly: stdin.process });
  }
  return { workers: 0, outcomes: outcomes() };
}

/** What the text report shows of a result: neither identity nor hash, which it never prints. */
function slimmed(result: CheckedFile): CheckedFile {
  const { file, kind, format, diagnostics } = result;
  return { file, kind, ...(format === undefined ? {} : { format }), diagnostics };
}

/** The files' outcomes: from the cache where they hold (`--cache`), else all checked. */
function batchOf(
  files: readonly string[],
  settings: RunSettings,
  context: FileCheckContext,
  concurrency: string | undefined,
  cache: RunCache | undefined,
): Batch {
  const options = { mode: { processesOnly: false }, concurrency };
  return cache === undefined
    ? checkFiles(files, settings, context, options)
    : cachedBatch(files, settings, context, options, cache);
}

function expectFormat(format: string): void {
  if (!(CHECK_FORMATS as readonly string[]).includes(format))
    throw new UsageError(`unknown format '${format}' (expected ${CHECK_FORMATS.join(", ")})`);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * Runs the command and returns its exit code: 0 clean, 1 errors (or too many warnings), 2
 * unreadable input. Files are read, checked and reduced one at a time (or by worker threads,
 * handed back in input order): what stays is each file's result as plain data and the counts,
 * never texts, documents or graphs.
 */
export async function runCheck(
  paths: readonly string[],
  options: CheckOptions,
  io: CliIo,
  stdin?: StdinDocument,
): Promise<number> {
  const elapsed = startStopwatch(io);
  expectFormat(options.format);
  const maxWarnings = parseMaxWarnings(options.maxWarnings);
  const cwd = process.cwd();
  if (options.outputFile !== undefined) await checkOutputPath(options.outputFile);
  const resolved = await resolveSettings(options, cwd);
  io.debug?.(`config: ${resolved.configFile ?? "none"}`);
  // A document from stdin has no file to key it by: it is always checked.
  const cache = stdin === undefined ? openRunCache(options, "check", cwd, resolved, io) : undefined;
  const settings = cache === undefined ? resolved : { ...resolved, recordLookups: true };
  const context = await fileCheckContext(settings, cache?.registry);
  const text = options.format === "text";
  const results: CheckedFile[] = [];
  let errors = 0;
  let warnings = 0;
  const keep = (result: CheckedFile): void => {
    const counts = countUnwaived(result.diagnostics);
    errors += counts.error;
    warnings += counts.warning;
    results.push(result);
  };
  for (const { file, diagnostics } of context.registry?.problems ?? [])
    keep({ file, kind: "unknown", diagnostics });
  let unreadable = false;
  const identities = new Map<string, RegistryDefinition>();
  const registryFirst = registryFirstOf(context.registry);
  const ignored = ignoreTest(settings.ignores, cwd);
  const { files, skipped } =
    stdin === undefined
      ? await collectFiles(paths, {
          processes: true,
          ...(ignored === undefined ? {} : { ignored }),
          ...(options.outputFile === undefined ? {} : { output: options.outputFile }),
        })
      : { files: [], skipped: [] };
  // Every file the run reads is known now: -o may be none of them (said before any checking).
  const reads = readsOf({
    inputs: files,
    configFile: settings.configFile,
    registry: context.registry,
    others: extensionReads(settings),
  });
  if (options.outputFile !== undefined) await assertOutputSpares(options.outputFile, reads);
  for (const s of skipped) keep({ file: s.path, kind: "unknown", diagnostics: [pathSkipped(s)] });
  const progress = startProgress(io, files.length);
  try {
    const batch =
      stdin === undefined
        ? batchOf(files, settings, context, options.concurrency, cache)
        : stdinBatch(stdin, context, ignored, io);
    io.debug?.(`${files.length} file(s) in ${batch.workers} worker thread(s)`);
    const packs = context.extensions.packs;
    for await (const outcome of refusingSharedProcesses(batch.outcomes, settings, packs)) {
      if (outcome.unreadable) {
        // Said on stderr too, for scripts that read only that; the report keeps it in every
        // format, so that an unreadable file is never listed as passing.
        unreadable = true;
        progress.clear();
        for (const line of outcome.stderr) io.stderr(line);
      }
      const checked =
        outcome.decision === undefined
          ? definedOnce(outcome.checked, identities, registryFirst)
          : outcome.checked;
      keep(text ? slimmed(checked) : checked);
      progress.tick();
    }
  } finally {
    progress.clear();
  }
  const toFile = options.outputFile !== undefined;
  const provenance = provenanceOf(settings);
  const report = renderFiles(
    options.format,
    options.quiet === true ? errorsOnly(results) : results,
    {
      color: useColor(options.color, io, toFile),
      ...(options.sarifCategory === undefined ? {} : { sarifCategory: options.sarifCategory }),
      cwd,
      provenance,
      extensions: extensionDescriptors(context.extensions, cwd),
    },
  );
  // The time only on a terminal: output that is piped, redirected or captured is reproducible.
  const timed =
    text && !toFile && io.stdoutIsTTY === true ? withTotalTime(report, elapsed()) : report;
  const shown = text ? timed + provenanceLines(provenance).join("\n") + "\n" : timed;
  const summary = `${plural(errors, "error")}, ${plural(warnings, "warning")} in ${plural(results.length, "file")}`;
  await emitReport(shown, options.outputFile, reads, summary, io);
  cache?.save(io);
  if (unreadable) return 2;
  if (errors > 0) return 1;
  if (maxWarnings !== undefined && warnings > maxWarnings) {
    io.stderr(`agentflow: ${warnings} warnings exceed --max-warnings ${maxWarnings}\n`);
    return 1;
  }
  return 0;
}
