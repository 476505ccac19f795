/**
 * Loading one workflow for the commands that need exactly one (`simulate`, `convert`, `report`):
 * an agentflow document, or any format an importer recognises. A file that is not a usable
 * workflow is a usage error listing what is wrong, one line each.
 */
import { extname } from "node:path";
import { detectFormat, ImportError } from "../interop/index.js";
import type { AgentWorkflow, Diagnostic } from "../model/index.js";
import { parseWorkflowText, visibleText } from "../model/index.js";
import { readDocumentText } from "../model/internal.js";
import { readText } from "./file-read.js";
import { DOCUMENT_EXTENSIONS } from "./files.js";
import type { ImportedFrom } from "./imported.js";
import { importDiagnostics } from "./imported.js";
import { located, UsageError } from "./io.js";

function where(file: string, d: Diagnostic): string {
  return `${located(file, d)}: ${d.code} ${d.message}`;
}

/** A workflow read from a file, and what its import declared when it was another format's. */
export interface LoadedWorkflow {
  readonly workflow: AgentWorkflow;
  /** Set when the file was another format's document: the import's declared losses. */
  readonly imported?: ImportedFrom;
}

/** Reads a file as a workflow, importing other formats; throws a UsageError when it is not one. */
export async function loadWorkflow(file: string): Promise<LoadedWorkflow> {
  const text = await readText(file);
  const format = DOCUMENT_EXTENSIONS[extname(file)];
  const parsed = parseWorkflowText(text, format === undefined ? {} : { format });
  if (parsed.workflow !== undefined) return { workflow: parsed.workflow };
  const kind = (parsed.value as { kind?: unknown } | undefined)?.kind;
  const foreign = kind === undefined ? detectFormat(parsed.value) : undefined;
  if (foreign !== undefined) {
    try {
      const { workflow, warnings } = foreign.import(parsed.value);
      const declared = importDiagnostics(text, parsed.format, foreign.id, warnings);
      return {
        workflow,
        imported: { format: foreign.id, title: foreign.title, warnings: declared },
      };
    } catch (error) {
      if (error instanceof ImportError) {
        throw new UsageError(`${file}: cannot import as ${foreign.title}: ${error.message}`);
      }
      throw error;
    }
  }
  const errors = parsed.diagnostics.filter((d) => d.severity === "error");
  throw new UsageError(
    `${file} is not a usable workflow:\n  ${errors.map((d) => where(file, d)).join("\n  ")}`,
  );
}

/**
 * Reads a JSON or YAML file that must hold an object (fixtures, decide tables, inputs). A text the
 * reader refuses (a syntax error, a duplicate key, a lone surrogate, an alias bomb) is a usage
 * error naming its first problem and its place: a fixture file is data, so a key given twice
 * would otherwise feed the run whichever value a parser kept.
 */
export async function loadObject(file: string, what: string): Promise<Record<string, unknown>> {
  const text = await readText(file);
  const format = DOCUMENT_EXTENSIONS[extname(file)];
  const read = readDocumentText(text, format === undefined ? {} : { format });
  if (!read.ok) {
    const first = read.problems[0];
    const at = first === undefined ? "" : `:${first.location.line}:${first.location.column}`;
    const said = first === undefined ? "cannot be read" : `${first.code} ${first.message}`;
    throw new UsageError(visibleText(`${file}${at}: ${said}`));
  }
  const value = read.value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UsageError(`${visibleText(file)}: ${what} must be an object`);
  }
  return value as Record<string, unknown>;
}
