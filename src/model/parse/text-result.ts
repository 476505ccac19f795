/**
 * What the text parsers make of a read text, whichever reader read it (read-sync.ts at once,
 * read-async.ts after loading the YAML support): text problems as diagnostics, the value parsed,
 * every diagnostic placed at its line and column. Loads no YAML parser.
 */
import type { Diagnostic } from "../diagnostic.js";
import { WORKFLOW_TARGET } from "../diagnostic.js";
import type { Locator, ReadResult, TextFormat, TextProblem } from "../text/index.js";
import type { ToolContractParseResult, WorkflowParseResult } from "./value.js";
import { parseToolContractValue, parseWorkflowValue } from "./value.js";

/** Options of the text parsers. */
export interface TextParseOptions {
  /** Force a syntax; by default JSON when the text starts with `{` or `[`, YAML otherwise. */
  readonly format?: TextFormat;
}

/** What the text parsers add to a parse result: the decoded value and the syntax used. */
export interface TextParseExtras {
  /** The decoded JSON value, when the text could be read. */
  readonly value?: unknown;
  readonly format: TextFormat;
}

/** A text read, with a locator for it. */
export interface TextRead {
  readonly result: ReadResult;
  readonly locate: Locator;
}

function problemToDiagnostic(problem: TextProblem): Diagnostic {
  return {
    code: problem.code,
    severity: "error",
    message: problem.message,
    target: WORKFLOW_TARGET,
    path: problem.path,
    data: { line: problem.location.line, column: problem.location.column },
    location: problem.location,
  };
}

/**
 * Adds a location to each diagnostic that has none, with `locate` answering for all at once.
 * A document can have 100,000 diagnostics: they are placed by index, with no map in between.
 */
export function placeDiagnostics(
  diagnostics: readonly Diagnostic[],
  locate: Locator,
): Diagnostic[] {
  const wanted: string[] = [];
  for (const d of diagnostics) if (d.location === undefined) wanted.push(d.path);
  if (wanted.length === 0) return [...diagnostics];
  const found = locate(wanted);
  let next = 0;
  return diagnostics.map((d) => {
    if (d.location !== undefined) return d;
    const location = found[next];
    next += 1;
    return location === undefined ? d : { ...d, location };
  });
}

function parsedText<R extends { readonly diagnostics: readonly Diagnostic[] }>(
  { result: read, locate }: TextRead,
  parse: (value: unknown) => R,
): { result: R | undefined; extras: TextParseExtras; diagnostics: Diagnostic[] } {
  const textDiagnostics = read.problems.map(problemToDiagnostic);
  if (!read.ok) {
    return { result: undefined, extras: { format: read.format }, diagnostics: textDiagnostics };
  }
  const result = parse(read.value);
  const diagnostics = placeDiagnostics([...textDiagnostics, ...result.diagnostics], locate);
  return { result, extras: { value: read.value, format: read.format }, diagnostics };
}

/** The workflow of a read text, as `parseWorkflowText` returns it. */
export function workflowOfText(read: TextRead): WorkflowParseResult & TextParseExtras {
  const { result, extras, diagnostics } = parsedText(read, (value) =>
    parseWorkflowValue(value, true),
  );
  const hasError = diagnostics.some((d) => d.severity === "error");
  return result?.workflow === undefined || hasError
    ? { ...extras, diagnostics }
    : { ...extras, workflow: result.workflow, diagnostics };
}

/** The tool contract of a read text, as `parseToolContractText` returns it. */
export function toolContractOfText(read: TextRead): ToolContractParseResult & TextParseExtras {
  const { result, extras, diagnostics } = parsedText(read, (value) =>
    parseToolContractValue(value, true),
  );
  const hasError = diagnostics.some((d) => d.severity === "error");
  return result?.contract === undefined || hasError
    ? { ...extras, diagnostics }
    : { ...extras, contract: result.contract, diagnostics };
}

/** The read options of the text parsers' options. */
export const readOptionsOf = (options: TextParseOptions): { format?: TextFormat } =>
  options.format === undefined ? {} : { format: options.format };
