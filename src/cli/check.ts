/** `agentflow check`: parse (and later validate) every document and report. */
import { extname } from "node:path";
import {
  contentHash,
  parseToolContractText,
  parseWorkflowText,
  type Diagnostic,
} from "../model/index.js";
import { formatJson, formatText, type CheckedFile } from "../report/index.js";
import { collectFiles, DOCUMENT_EXTENSIONS, readText } from "./files.js";
import type { CliIo } from "./io.js";
import { UsageError } from "./io.js";

/** The output formats `check` accepts. */
export const CHECK_FORMATS = ["text", "json"] as const;

/** Options of `agentflow check`. */
export interface CheckOptions {
  readonly format: string;
}

function isToolContract(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { kind?: unknown }).kind === "ToolContract"
  );
}

/** Checks one document's text; the kind is recognised from its `kind` property. */
export function checkText(file: string, text: string): CheckedFile {
  const format = DOCUMENT_EXTENSIONS[extname(file)];
  const options = format === undefined ? {} : { format };
  const asWorkflow = parseWorkflowText(text, options);
  if (isToolContract(asWorkflow.value)) {
    const parsed = parseToolContractText(text, options);
    const contract = parsed.contract;
    return contract === undefined
      ? { file, kind: "ToolContract", diagnostics: parsed.diagnostics }
      : {
          file,
          kind: "ToolContract",
          id: contract.id,
          version: contract.version,
          contentHash: contentHash(contract),
          diagnostics: parsed.diagnostics,
        };
  }
  const wf = asWorkflow.workflow;
  if (wf === undefined) {
    const readable = asWorkflow.value !== undefined;
    return {
      file,
      kind: readable ? "AgentWorkflow" : "unknown",
      diagnostics: asWorkflow.diagnostics,
    };
  }
  return {
    file,
    kind: "AgentWorkflow",
    id: wf.id,
    version: wf.version,
    contentHash: contentHash(wf),
    diagnostics: asWorkflow.diagnostics,
  };
}

function isSyntaxProblem(d: Diagnostic): boolean {
  return d.code === "SYNTAX_ERROR";
}

/** Runs the command and returns its exit code: 0 clean, 1 errors, 2 unreadable input. */
export async function runCheck(
  paths: readonly string[],
  options: CheckOptions,
  io: CliIo,
): Promise<number> {
  if (!(CHECK_FORMATS as readonly string[]).includes(options.format)) {
    throw new UsageError(
      `unknown format '${options.format}' (expected ${CHECK_FORMATS.join(", ")})`,
    );
  }
  const files = await collectFiles(paths);
  const results: CheckedFile[] = [];
  let unreadable = false;
  for (const file of files) {
    const result = checkText(file, await readText(file));
    const syntax = result.diagnostics.filter(isSyntaxProblem);
    for (const d of syntax) {
      unreadable = true;
      const at = d.location === undefined ? "" : `:${d.location.line}:${d.location.column}`;
      io.stderr(`agentflow: ${file}${at}: ${d.message}\n`);
    }
    const shown =
      options.format === "text"
        ? result.diagnostics.filter((d) => !isSyntaxProblem(d))
        : result.diagnostics;
    results.push({ ...result, diagnostics: shown });
  }
  io.stdout(
    options.format === "json" ? formatJson(results) : formatText(results, { color: io.isTTY }),
  );
  if (unreadable) return 2;
  return results.some((r) => r.diagnostics.some((d) => d.severity === "error")) ? 1 : 0;
}
