/**
 * `agentflow check`: parse every document, validate workflows with the rules (resolving tool
 * contracts and delegates from `--registry`), and print the findings in the chosen format.
 */
import { extname } from "node:path";
import type { AgentWorkflow, Diagnostic, TextFormat } from "../model/index.js";
import {
  contentHash,
  countBySeverity,
  parseToolContractText,
  parseWorkflowText,
  withLocations,
} from "../model/index.js";
import type { Format } from "../interop/index.js";
import { detectFormat, ImportError } from "../interop/index.js";
import type { CheckedFile, RuleDescriptor } from "../report/index.js";
import {
  formatGithub,
  formatJson,
  formatJunit,
  formatSarif,
  formatText,
  ruleHelpUri,
} from "../report/index.js";
import type { PresetName, Validator } from "../validate/index.js";
import { createValidator, PRESET_NAMES, RULES, validateToolContract } from "../validate/index.js";
import type { RegistryDefinition } from "../bpmn/index.js";
import { BPMN_RULES } from "../bpmn/index.js";
import { collectFiles, DOCUMENT_EXTENSIONS, PROCESS_EXTENSION, readTexts } from "./files.js";
import { pathSkipped, redefinition } from "./diagnostics.js";
import { checkProcessFile, gateOptions } from "./gate.js";
import type { CliIo } from "./io.js";
import { importDiagnostics } from "./imported.js";
import { located, reportOnStderr, UsageError } from "./io.js";
import { startProgress, startStopwatch, withTotalTime } from "./progress.js";
import { loadFolderRegistry } from "./registry.js";

/** The output formats `check` accepts. */
export const CHECK_FORMATS = ["text", "json", "sarif", "junit", "github"] as const;

/** Options of `agentflow check`, as commander parses them. */
export interface CheckOptions {
  readonly format: string;
  readonly preset?: string;
  readonly registry?: string;
  readonly maxWarnings?: string;
  /** `--no-suppress`: also report graph findings that follow from a route to a missing id. */
  readonly suppress?: boolean;
}

/**
 * The rules whose findings can follow from a route to a missing id, set to report them too
 * (`--no-suppress`). Both are errors in every preset.
 */
const CASCADES_REPORTED = {
  NO_PATH_TO_END: ["error", { reportCascades: true }],
  CYCLE_WITHOUT_STOP: ["error", { reportCascades: true }],
} as const;

/** Describes the built-in rules (workflow and BPMN) for SARIF and JUnit. */
export function ruleDescriptors(): RuleDescriptor[] {
  return [...RULES, ...BPMN_RULES].map((r) => ({
    code: r.meta.code,
    description: r.meta.description,
    defaultSeverity: r.meta.defaultSeverity,
    helpUri: ruleHelpUri(r.meta.code),
  }));
}

async function checkWorkflow(
  file: string,
  text: string,
  format: TextFormat,
  workflow: AgentWorkflow,
  parseDiagnostics: readonly Diagnostic[],
  validator: Validator,
): Promise<CheckedFile> {
  const found = await validator.validate(workflow);
  return {
    file,
    kind: "AgentWorkflow",
    id: workflow.id,
    version: workflow.version,
    contentHash: contentHash(workflow),
    diagnostics: [...parseDiagnostics, ...withLocations(text, format, found)],
  };
}

/** Code of an import that failed loudly (an unmappable construct); the error names where. */
export const IMPORT_FAILED = "IMPORT_FAILED";

/**
 * Imports a document of another format, then validates the workflow it maps to. Import warnings
 * point into the source document (so they get lines); rule diagnostics point into the
 * converted workflow, which `check` does not locate in the source text.
 */
async function checkImported(
  file: string,
  text: string,
  format: TextFormat,
  value: unknown,
  source: Format,
  validator: Validator,
): Promise<CheckedFile> {
  try {
    const { workflow, warnings } = source.import(value);
    const declared = importDiagnostics(text, format, source.id, warnings);
    const found = await validator.validate(workflow);
    return {
      file,
      kind: "AgentWorkflow",
      format: source.id,
      id: workflow.id,
      version: workflow.version,
      contentHash: contentHash(workflow),
      diagnostics: [...declared, ...found],
    };
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    const failed: Diagnostic = {
      code: IMPORT_FAILED,
      severity: "error",
      message: `cannot import as ${source.title}: ${error.message}`,
      target:
        error.elementId === undefined
          ? { kind: "workflow" }
          : { kind: "node", nodeId: error.elementId },
      path: error.path,
      data: { format: source.id, reason: error.reason },
    };
    return {
      file,
      kind: "unknown",
      format: source.id,
      diagnostics: withLocations(text, format, [failed]),
    };
  }
}

/** Checks one document's text; the kind is recognised from its `kind` property or its format. */
export async function checkText(
  file: string,
  text: string,
  validator: Validator,
): Promise<CheckedFile> {
  const format = DOCUMENT_EXTENSIONS[extname(file)];
  const options = format === undefined ? {} : { format };
  const asWorkflow = parseWorkflowText(text, options);
  const kind = (asWorkflow.value as { kind?: unknown } | null | undefined)?.kind;
  if (kind === "ToolContract") {
    const parsed = parseToolContractText(text, options);
    const contract = parsed.contract;
    if (contract === undefined)
      return { file, kind: "ToolContract", diagnostics: parsed.diagnostics };
    return {
      file,
      kind: "ToolContract",
      id: contract.id,
      version: contract.version,
      contentHash: contentHash(contract),
      diagnostics: [
        ...parsed.diagnostics,
        ...withLocations(text, parsed.format, validateToolContract(contract)),
      ],
    };
  }
  const foreign = kind === undefined ? detectFormat(asWorkflow.value) : undefined;
  if (foreign !== undefined) {
    return checkImported(file, text, asWorkflow.format, asWorkflow.value, foreign, validator);
  }
  if (asWorkflow.workflow === undefined) {
    const readAs = asWorkflow.value === undefined ? "unknown" : "AgentWorkflow";
    return { file, kind: readAs, diagnostics: asWorkflow.diagnostics };
  }
  return checkWorkflow(
    file,
    text,
    asWorkflow.format,
    asWorkflow.workflow,
    asWorkflow.diagnostics,
    validator,
  );
}

function parseMaxWarnings(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new UsageError(`--max-warnings needs a whole number ≥ 0, got '${value}'`);
  return n;
}

function expectOneOf(what: string, value: string, allowed: readonly string[]): void {
  if (!allowed.includes(value))
    throw new UsageError(`unknown ${what} '${value}' (expected ${allowed.join(", ")})`);
}

function render(format: string, results: readonly CheckedFile[], io: CliIo): string {
  switch (format) {
    case "json":
      return formatJson(results);
    case "sarif":
      return formatSarif(results, { rules: ruleDescriptors() });
    case "junit":
      return formatJunit(results);
    case "github":
      return formatGithub(results);
    default:
      return formatText(results, { color: io.isTTY });
  }
}

/**
 * What is kept of a file's result until the report: a JSON copy, plain data only, because V8
 * strings cut from a text (ids, quoted names) keep the whole text alive and a content hash is a
 * rope of its digest's pieces. The text report shows neither identity nor hash (`slim`). A result
 * that is not JSON data is kept as it is; the file name is shared with the list of files.
 */
function detach(result: CheckedFile, slim: boolean): CheckedFile {
  const { file, kind, format, diagnostics } = result;
  const kept = slim
    ? { file, kind, ...(format === undefined ? {} : { format }), diagnostics }
    : result;
  try {
    return { ...(JSON.parse(JSON.stringify(kept)) as CheckedFile), file };
  } catch {
    return kept;
  }
}

/**
 * The result with a `REGISTRY_CONFLICT` (different content) or `REGISTRY_DUPLICATE` (the same)
 * when an earlier checked document of its kind has its `id@version`: files checked together are
 * read as one registry would read them. Imported documents are left out, since a converted copy
 * beside its source is the usual case, not an impostor.
 */
function definedOnce(result: CheckedFile, seen: Map<string, RegistryDefinition>): CheckedFile {
  const { id, version, contentHash: hash, format } = result;
  if (id === undefined || version === undefined || hash === undefined || format !== undefined) {
    return result;
  }
  const ref = `${id}@${version}`;
  const key = `${result.kind} ${ref}`;
  const first = seen.get(key);
  const here = { source: result.file, contentHash: hash };
  if (first === undefined) {
    seen.set(key, here);
    return result;
  }
  const again = redefinition(ref, first, here);
  return { ...result, diagnostics: [...result.diagnostics, again] };
}

/**
 * Runs the command and returns its exit code: 0 clean, 1 errors (or too many warnings), 2
 * unreadable input. Files are read, checked and reduced one at a time: what stays is each file's
 * result as plain data (see {@link detach}) and the counts, never texts, documents or graphs.
 */
export async function runCheck(
  paths: readonly string[],
  options: CheckOptions,
  io: CliIo,
): Promise<number> {
  const elapsed = startStopwatch(io);
  expectOneOf("format", options.format, CHECK_FORMATS);
  const preset = options.preset ?? "recommended";
  expectOneOf("preset", preset, PRESET_NAMES);
  const maxWarnings = parseMaxWarnings(options.maxWarnings);
  const registry =
    options.registry === undefined ? undefined : await loadFolderRegistry(options.registry);
  const validator = createValidator({
    preset: preset as PresetName,
    ...(registry === undefined ? {} : { resolvers: registry.resolvers }),
    ...(options.suppress === false ? { rules: CASCADES_REPORTED } : {}),
  });
  const text = options.format === "text";
  const results: CheckedFile[] = [];
  let errors = 0;
  let warnings = 0;
  const keep = (result: CheckedFile): void => {
    const counts = countBySeverity(result.diagnostics);
    errors += counts.error;
    warnings += counts.warning;
    results.push(detach(result, text));
  };
  for (const { file, diagnostics } of registry?.problems ?? [])
    keep({ file, kind: "unknown", diagnostics });
  let unreadable = false;
  const processOptions = {
    ...gateOptions(registry),
    workflowValidation: { preset: preset as PresetName },
  };
  const identities = new Map<string, RegistryDefinition>();
  const { files, skipped } = await collectFiles(paths, { processes: true });
  for (const s of skipped) keep({ file: s.path, kind: "unknown", diagnostics: [pathSkipped(s)] });
  const progress = startProgress(io, files.length);
  try {
    for await (const { file, text: source } of readTexts(files)) {
      if (extname(file) === PROCESS_EXTENSION) {
        const checked = await checkProcessFile(file, source, processOptions);
        if (checked.unreadable) {
          // As for a document: said on stderr, and kept in the report in every format.
          unreadable = true;
          progress.clear();
          reportOnStderr(
            io,
            file,
            checked.checked.diagnostics.filter((d) => d.severity === "error"),
          );
        }
        keep(checked.checked);
      } else {
        const result = await checkText(file, source, validator);
        for (const d of result.diagnostics) {
          if (d.code !== "SYNTAX_ERROR") continue;
          unreadable = true;
          progress.clear();
          io.stderr(`agentflow: ${located(file, d)}: ${d.message}\n`);
        }
        // Said on stderr too, for scripts that read only that; the report keeps it in every
        // format, so that an unreadable file is never listed as passing.
        keep(definedOnce(result, identities));
      }
      progress.tick();
    }
  } finally {
    progress.clear();
  }
  const report = render(options.format, results, io);
  // The time only on a terminal: output that is piped, redirected or captured is reproducible.
  io.stdout(text && io.stdoutIsTTY === true ? withTotalTime(report, elapsed()) : report);
  if (unreadable) return 2;
  if (errors > 0) return 1;
  if (maxWarnings !== undefined && warnings > maxWarnings) {
    io.stderr(`agentflow: ${warnings} warnings exceed --max-warnings ${maxWarnings}\n`);
    return 1;
  }
  return 0;
}
