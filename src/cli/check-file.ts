/**
 * Checking one file's text: a workflow, a tool contract, another format's workflow (imported)
 * or a BPMN process. A pure step from (file, text, context) to an outcome of plain data, so that
 * it runs the same on the main thread and in a worker thread.
 */
import { extname } from "node:path";
import type { AgentTaskSummary, GateDecision, GateOptions } from "../bpmn/index.js";
import { checkProcess } from "../bpmn/index.js";
import type { Format } from "../interop/index.js";
import { detectFormat, ImportError } from "../interop/index.js";
import type { AgentWorkflow, Diagnostic, TextFormat } from "../model/index.js";
import {
  contentHash,
  parseToolContractText,
  parseWorkflowText,
  withLocations,
} from "../model/index.js";
import type { CheckedFile } from "../report/index.js";
import type { Validator } from "../validate/index.js";
import { validateToolContract } from "../validate/index.js";
import { checkPack } from "./check-pack.js";
import { DOCUMENT_EXTENSIONS, isProcessName } from "./files.js";
import { importDiagnostics } from "./imported.js";
import { diagnosticLine } from "./io.js";
import type { FileCheckContext, Validation } from "./check-context.js";
import { importedValidation } from "./check-context.js";

/** Code of an import that failed loudly (an unmappable construct); the error names where. */
export const IMPORT_FAILED = "IMPORT_FAILED";

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

/**
 * Imports a document of another format, then validates the workflow it maps to. Import warnings
 * point into the source document (so they get lines); rule diagnostics point into the
 * converted workflow, which `check` does not locate in the source text. A workflow whose
 * `id@version` the importer made up names no document, so no `workflow` waiver applies to it:
 * it is validated without them, and each says why (docs/policies.md, Waivers).
 */
async function checkImported(
  file: string,
  text: string,
  format: TextFormat,
  value: unknown,
  source: Format,
  validation: Validation,
): Promise<CheckedFile> {
  try {
    const { workflow, warnings } = source.import(value);
    const declared = importDiagnostics(text, format, source.id, warnings);
    const { validator, findings } = importedValidation(validation, source.id, workflow, warnings);
    const found = await validator.validate(workflow);
    return {
      file,
      kind: "AgentWorkflow",
      format: source.id,
      id: workflow.id,
      version: workflow.version,
      contentHash: contentHash(workflow),
      diagnostics: [...declared, ...found, ...findings],
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
  validation: Validation,
): Promise<CheckedFile> {
  const validator = validation.validator;
  const format = DOCUMENT_EXTENSIONS[extname(file)];
  const options = format === undefined ? {} : { format };
  const asWorkflow = parseWorkflowText(text, options);
  const kind = (asWorkflow.value as { kind?: unknown } | null | undefined)?.kind;
  if (kind === "PolicyPack") return checkPack(file, text);
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
    return checkImported(file, text, asWorkflow.format, asWorkflow.value, foreign, validation);
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

/**
 * The ids of the `bpmn:process` elements of a read file, in document order: how an approval
 * names the processes a file holds (the modeller finds its diagram's entry by them).
 */
function processIdsOf(definitions: Readonly<Record<string, unknown>> | undefined): string[] {
  const roots = definitions?.rootElements;
  if (!Array.isArray(roots)) return [];
  const ids: string[] = [];
  for (const element of roots as unknown[]) {
    const { $type, id } = (element ?? {}) as { $type?: unknown; id?: unknown };
    if ($type === "bpmn:Process" && typeof id === "string") ids.push(id);
  }
  return ids;
}

/** Checks one process file; `unreadable` when moddle could not read it at all. */
export async function checkProcessFile(
  file: string,
  text: string,
  options: GateOptions,
): Promise<{
  readonly checked: CheckedFile;
  readonly decision: GateDecision;
  readonly unreadable: boolean;
  readonly processIds: readonly string[];
}> {
  const result = await checkProcess(text, options);
  const root = result.definitions;
  const checked: CheckedFile = {
    file,
    kind: root === undefined ? "unknown" : "BpmnProcess",
    ...(root === undefined || typeof root.id !== "string" ? {} : { id: root.id }),
    diagnostics: [...result.blocking, ...result.warnings],
  };
  return {
    checked,
    decision: result,
    unreadable: root === undefined,
    processIds: processIdsOf(root),
  };
}

/**
 * The promotion decision as plain data: not the parsed definitions a `ProcessCheck` also
 * carries, since the moddle tree is the input again, as deep as the process nests.
 */
export interface GateSummary {
  readonly allowed: boolean;
  readonly blocking: readonly Diagnostic[];
  readonly warnings: readonly Diagnostic[];
  readonly agentTasks: readonly AgentTaskSummary[];
}

/** What checking one file gave, as plain data. */
export interface FileOutcome {
  readonly checked: CheckedFile;
  /** The file could not be read as its kind (a syntax error, or not BPMN): exit 2. */
  readonly unreadable: boolean;
  /** Lines for stderr (each unreadable problem, `agentflow: file:line:column: message`). */
  readonly stderr: readonly string[];
  /** For a process: its promotion decision. */
  readonly decision?: GateSummary;
  /** For a process: the ids of its `bpmn:process` elements (an approval names them). */
  readonly processIds?: readonly string[];
  /**
   * With `--cache`: every registry lookup the check made (`"<kind> <ref>"`, sub-workflows' too)
   * and what it answered; the result is reused only while each answers the same.
   */
  readonly lookups?: Readonly<Record<string, string>>;
}

/**
 * What is kept of a file's result until the report: a JSON copy, plain data only, because V8
 * strings cut from a text (ids, quoted names) keep the whole text alive and a content hash is a
 * rope of its digest's pieces. A value that is not JSON data is kept as it is.
 */
export function detach<T>(value: T): T {
  try {
    return JSON.parse(JSON.stringify(value)) as T;
  } catch {
    return value;
  }
}

/** How {@link checkOneFile} reads a file. */
export interface FileCheckMode {
  /** Read every file as a BPMN process, whatever its extension (`gate`). */
  readonly processesOnly: boolean;
}

/**
 * Checks one file of `check` or `gate`: a process by its extension (or mode), else a document;
 * with a recorder (`--cache`), the outcome names the registry lookups the check made.
 */
export async function checkOneFile(
  file: string,
  text: string,
  context: FileCheckContext,
  mode: FileCheckMode,
): Promise<FileOutcome> {
  const recorder = context.recorder;
  if (recorder === undefined) return checkUnrecorded(file, text, context, mode);
  recorder.start();
  let lookups: Record<string, string>;
  let outcome: FileOutcome;
  try {
    outcome = await checkUnrecorded(file, text, context, mode);
  } finally {
    lookups = recorder.stop();
  }
  return { ...outcome, lookups };
}

async function checkUnrecorded(
  file: string,
  text: string,
  context: FileCheckContext,
  mode: FileCheckMode,
): Promise<FileOutcome> {
  if (mode.processesOnly || isProcessName(file)) {
    const { checked, decision, unreadable, processIds } = await checkProcessFile(
      file,
      text,
      context.processOptions,
    );
    const { allowed, blocking, warnings, agentTasks } = decision;
    const stderr = unreadable
      ? checked.diagnostics
          .filter((d) => d.severity === "error")
          .map((d) => diagnosticLine(file, d))
      : [];
    return {
      checked: { ...detach(checked), file },
      unreadable,
      stderr,
      decision: detach({ allowed, blocking, warnings, agentTasks }),
      processIds: detach([...processIds]),
    };
  }
  const result = await checkText(file, text, context);
  const syntax = result.diagnostics.filter((d) => d.code === "SYNTAX_ERROR");
  return {
    checked: { ...detach(result), file },
    unreadable: syntax.length > 0,
    stderr: syntax.map((d) => diagnosticLine(file, d)),
  };
}
