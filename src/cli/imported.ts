/**
 * What an import declared, as the CLI shows it: every `InteropWarning` of a foreign document
 * becomes a warning diagnostic located in the source text, so that `check` (text, JSON, SARIF),
 * `convert`, `simulate` and `report` all say the same thing about the same loss.
 */
import type { InteropWarning } from "../interop/index.js";
import type { Diagnostic, TextFormat } from "../model/index.js";
import type { ImportEvidence } from "../report/index.js";
import { visibleText, withLocations } from "../model/index.js";
import type { CliIo } from "./io.js";
import { located } from "./io.js";

/** Where a workflow came from when it was imported, and what the import declared. */
export type ImportedFrom = ImportEvidence;

/** The import's warnings as diagnostics, with lines and columns in `text`. */
export function importDiagnostics(
  text: string,
  textFormat: TextFormat,
  format: string,
  warnings: readonly InteropWarning[],
): Diagnostic[] {
  const declared: Diagnostic[] = warnings.map((w) => ({
    code: w.code,
    severity: "warning",
    message: w.message,
    target: { kind: "workflow" },
    path: w.path,
    data: { format, ...(w.data ?? {}) },
  }));
  return withLocations(text, textFormat, declared);
}

/** Writes each declared loss as one `agentflow: warning: file:line:col /path: message (CODE)` line. */
export function printImportWarnings(io: CliIo, file: string, imported: ImportedFrom | undefined) {
  for (const d of imported?.warnings ?? []) {
    const line = `agentflow: warning: ${located(file, d)} ${d.path || "/"}: ${d.message} (${d.code}, imported from ${imported?.title ?? ""})`;
    io.stderr(visibleText(line) + "\n");
  }
}
