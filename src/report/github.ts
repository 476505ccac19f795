/**
 * The `github` format: GitHub Actions workflow commands, which the runner turns into annotations
 * on the pull request's changed files and the run summary. One command per diagnostic and nothing
 * else, since any other line on stdout would show up in the job log as noise.
 */
import type { Diagnostic, Severity } from "../model/index.js";
import { waiverText } from "./extension.js";
import type { CheckedFile } from "./types.js";

const COMMANDS: Readonly<Record<Severity, string>> = {
  error: "error",
  warning: "warning",
  info: "notice",
};

/**
 * Escapes a command's message as the runner unescapes it. `%` goes first, or the escapes just
 * written would be escaped again. A raw newline would end the command and let a document's text
 * start a command of its own, so this is also what keeps hostile messages inert.
 */
export function escapeGithubData(text: string): string {
  return text.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

/** Escapes a command property: as data, plus `:` and `,`, which delimit properties. */
export function escapeGithubProperty(text: string): string {
  return escapeGithubData(text).replaceAll(":", "%3A").replaceAll(",", "%2C");
}

function command(file: string, d: Diagnostic): string {
  const properties = [`file=${escapeGithubProperty(file)}`];
  if (d.location !== undefined) {
    properties.push(`line=${d.location.line}`, `col=${d.location.column}`);
  }
  properties.push(`title=${escapeGithubProperty(d.code)}`);
  const parts = [d.message];
  if (d.remediation !== undefined && d.remediation !== "") parts.push(d.remediation);
  if (d.waived !== undefined) parts.push(waiverText(d.waived));
  // A waived finding does not block: a notice, so that it does not fail the check's summary.
  const kind = d.waived === undefined ? COMMANDS[d.severity] : "notice";
  return `::${kind} ${properties.join(",")}::${escapeGithubData(parts.join("\n\n"))}`;
}

/**
 * Renders checked files as workflow commands (`::error file=…,line=…,col=…,title=CODE::message`),
 * in file order and, within a file, in the order given. A diagnostic without a source position
 * omits `line` and `col`, so GitHub annotates the file as a whole rather than a guessed line.
 * Clean input gives the empty string.
 *
 * @example
 * ```ts
 * import { formatGithub, type CheckedFile } from "agentflow/report";
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
 * // printed in a GitHub Actions step, each line becomes an annotation on the file
 * formatGithub(files);
 * // → "::warning file=agents/triage.agent.yaml,line=1,col=1,title=BUDGET_MISSING::" +
 * //     'workflow "agnt-triage" runs at autonomy 2 but states no budget\n'
 * ```
 *
 * `options.notice`, when given, is written first as a `::notice::` (the CLI names the config
 * and rule set that judged the run there).
 */
export function formatGithub(
  files: readonly CheckedFile[],
  options: { readonly notice?: { readonly title: string; readonly text: string } } = {},
): string {
  const lines: string[] = [];
  const notice = options.notice;
  if (notice !== undefined) {
    lines.push(
      `::notice title=${escapeGithubProperty(notice.title)}::${escapeGithubData(notice.text)}`,
    );
  }
  for (const file of files) {
    for (const d of file.diagnostics) lines.push(command(file.file, d));
  }
  return lines.length === 0 ? "" : lines.join("\n") + "\n";
}
