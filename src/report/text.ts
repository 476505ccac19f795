/**
 * The `text` format, modelled on eslint's: a block per file with one line per diagnostic
 * (line:column, severity, message, code), then a summary. Colour only when asked for (a TTY).
 */
import { countBySeverity, visibleText } from "../model/index.js";
import type { Diagnostic, Severity } from "../model/index.js";
import { waiverText } from "./extension.js";
import type { CheckedFile } from "./types.js";

/** Options of {@link formatText}. */
export interface TextFormatOptions {
  /** Use ANSI colours; the CLI turns this on for a TTY without `NO_COLOR`. */
  readonly color?: boolean;
}

const COLORS: Readonly<Record<Severity | "dim" | "ok" | "bold", string>> = {
  error: "\u001b[31m",
  warning: "\u001b[33m",
  info: "\u001b[36m",
  dim: "\u001b[2m",
  ok: "\u001b[32m",
  bold: "\u001b[1m",
};
const RESET = "\u001b[0m";

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function position(d: Diagnostic): string {
  return d.location === undefined ? "-" : `${d.location.line}:${d.location.column}`;
}

/** Orders a file's diagnostics by source position, as editors do; unlocated ones keep their order last. */
function byPosition(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const key = (d: Diagnostic): number =>
    d.location === undefined ? Number.MAX_SAFE_INTEGER : d.location.line * 1e6 + d.location.column;
  return [...diagnostics].sort((a, b) => key(a) - key(b));
}

/** The file's heading: its path, and the format it was imported from, if any. */
function name(file: CheckedFile): string {
  // A file name may hold a newline too; shown escaped, it cannot forge a line of the report.
  const shown = visibleText(file.file);
  return file.format === undefined ? shown : `${shown} (imported from ${file.format})`;
}

/**
 * Renders checked files as a human-readable report.
 *
 * @example
 * ```ts
 * import { formatText, type CheckedFile } from "agentflow/report";
 *
 * const files: CheckedFile[] = [
 *   {
 *     file: "agents/triage.agent.yaml",
 *     kind: "AgentWorkflow",
 *     diagnostics: [
 *       {
 *         code: "BUDGET_MISSING",
 *         severity: "warning",
 *         message: 'workflow "agnt-triage" runs at autonomy 2 but states no budget',
 *         target: { kind: "workflow" },
 *         path: "",
 *         data: { level: 2 },
 *         location: { line: 1, column: 1 },
 *       },
 *     ],
 *   },
 * ];
 * formatText(files).split("\n");
 * // → [
 * //     "agents/triage.agent.yaml",
 * //     '  1:1  warning  workflow "agnt-triage" runs at autonomy 2 but states no budget  BUDGET_MISSING',
 * //     "",
 * //     "⚠ 1 problem (0 errors, 1 warning) in 1 file checked",
 * //     "",
 * //   ]
 * formatText(files, { color: true }).includes("\u001b["); // → true
 * ```
 */
export function formatText(files: readonly CheckedFile[], options: TextFormatOptions = {}): string {
  const paint = (style: keyof typeof COLORS, text: string): string =>
    options.color === true ? `${COLORS[style]}${text}${RESET}` : text;
  const lines: string[] = [];
  const all: Diagnostic[] = [];
  for (const file of files) {
    // Item by item: spreading 100,000 diagnostics as arguments overflows the stack.
    for (const d of file.diagnostics) all.push(d);
    if (file.diagnostics.length === 0) {
      lines.push(`${name(file)}  ${paint("ok", "✔ no problems")}`);
      continue;
    }
    lines.push(paint("bold", name(file)));
    const posWidth = file.diagnostics.reduce((w, d) => Math.max(w, position(d).length), 0);
    for (const d of byPosition(file.diagnostics)) {
      const severity = paint(d.severity, d.severity.padEnd(7));
      // Shown, never dropped: the reader sees the finding and who accepted it until when.
      const waived = d.waived === undefined ? "" : `  ${paint("dim", waiverText(d.waived))}`;
      // Escaped here too, not only where messages are made: a library caller's or a cached
      // diagnostic may carry raw text, and a `\r` or an escape sequence would rewrite the lines
      // above it on a terminal (visibleText leaves text it already escaped as it is).
      lines.push(
        `  ${position(d).padEnd(posWidth)}  ${severity}  ${visibleText(d.message)}  ${paint("dim", visibleText(d.code))}${waived}`,
      );
    }
    lines.push("");
  }
  if (lines.length > 0 && lines[lines.length - 1] !== "") lines.push("");
  // A waived finding is counted as waived, not under its severity: it does not block.
  const waived = all.filter((d) => d.waived !== undefined).length;
  const counts = countBySeverity(waived === 0 ? all : all.filter((d) => d.waived === undefined));
  const problems = counts.error + counts.warning + counts.info + waived;
  const checked = `${plural(files.length, "file")} checked`;
  if (problems === 0) {
    lines.push(paint("ok", `✔ ${checked}, no problems`));
  } else {
    const parts = [plural(counts.error, "error"), plural(counts.warning, "warning")];
    if (counts.info > 0) parts.push(`${counts.info} info`);
    if (waived > 0) parts.push(`${waived} waived`);
    const mark = counts.error > 0 ? paint("error", "✖") : paint("warning", "⚠");
    lines.push(`${mark} ${plural(problems, "problem")} (${parts.join(", ")}) in ${checked}`);
  }
  return lines.join("\n") + "\n";
}
