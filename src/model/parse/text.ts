/**
 * Parsing from text (JSON or YAML): syntax errors and duplicate keys become diagnostics with
 * line and column, and every structural diagnostic gets the position of the value it names.
 */
import type { Diagnostic } from "../diagnostic.js";
import { WORKFLOW_TARGET } from "../diagnostic.js";
import type { ToolContractParseResult, WorkflowParseResult } from "./value.js";
import { parseToolContractValue, parseWorkflowValue } from "./value.js";
import type { Locator, TextFormat, TextProblem } from "../text/index.js";
import { readWithLocator, textLocator } from "../text/index.js";

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
 * Adds source positions to diagnostics that lack one, in one pass over the text.
 *
 * @example
 * ```ts
 * import { parseWorkflow, withLocations } from "agentflow/model";
 * import { parse } from "yaml";
 *
 * const text = "kind: AgentWorkflow\nid: agnt-x\nversion: '2'\n";
 * const { diagnostics } = parseWorkflow(parse(text));
 * const located = withLocations(text, "yaml", diagnostics);
 * located.find((d) => d.path === "/version")?.location; // → { line: 3, column: 10 }
 * ```
 */
export function withLocations(
  text: string,
  format: TextFormat,
  diagnostics: readonly Diagnostic[],
): Diagnostic[] {
  return placeDiagnostics(diagnostics, textLocator(text, format));
}

/**
 * Adds a location to each diagnostic that has none, with `locate` answering for all at once.
 * A document can have 100,000 diagnostics: they are placed by index, with no map in between.
 */
function placeDiagnostics(diagnostics: readonly Diagnostic[], locate: Locator): Diagnostic[] {
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

function parseText<R extends { readonly diagnostics: readonly Diagnostic[] }>(
  text: string,
  options: TextParseOptions,
  parse: (value: unknown) => R,
): { result: R | undefined; extras: TextParseExtras; diagnostics: Diagnostic[] } {
  const { result: read, locate } = readWithLocator(
    text,
    options.format === undefined ? {} : { format: options.format },
  );
  const textDiagnostics = read.problems.map(problemToDiagnostic);
  if (!read.ok) {
    return { result: undefined, extras: { format: read.format }, diagnostics: textDiagnostics };
  }
  const result = parse(read.value);
  const diagnostics = placeDiagnostics([...textDiagnostics, ...result.diagnostics], locate);
  return { result, extras: { value: read.value, format: read.format }, diagnostics };
}

/**
 * Parses an AgentWorkflow from JSON or YAML text. A duplicate key is an error (the reviewed
 * document would otherwise differ from what another parser reads). Never throws.
 *
 * @example
 * ```ts
 * import { parseWorkflowText } from "agentflow/model";
 *
 * const text = '{ "kind": "AgentWorkflow", "id": 7 }';
 * const { workflow, diagnostics, format } = parseWorkflowText(text);
 * format; // → "json"
 * workflow; // → undefined
 * diagnostics.find((d) => d.path === "/id")?.location; // → { line: 1, column: 34 }
 * ```
 */
export function parseWorkflowText(
  text: string,
  options: TextParseOptions = {},
): WorkflowParseResult & TextParseExtras {
  const { result, extras, diagnostics } = parseText(text, options, (value) =>
    parseWorkflowValue(value, true),
  );
  const hasError = diagnostics.some((d) => d.severity === "error");
  return result?.workflow === undefined || hasError
    ? { ...extras, diagnostics }
    : { ...extras, workflow: result.workflow, diagnostics };
}

/**
 * Parses a ToolContract from JSON or YAML text, like {@link parseWorkflowText}.
 *
 * @example
 * ```ts
 * import { parseToolContractText } from "agentflow/model";
 *
 * const text = `
 * kind: ToolContract
 * id: tool:send-email
 * version: 1.0.0
 * name: Send email
 * inputSchema: { to: text, body: text }
 * outputSchema: { sent: bool }
 * effect: notify
 * authorization: automatic
 * `;
 * const { contract, diagnostics, format } = parseToolContractText(text);
 * format; // → "yaml"
 * contract?.id; // → "tool:send-email"
 * diagnostics; // → []
 * ```
 */
export function parseToolContractText(
  text: string,
  options: TextParseOptions = {},
): ToolContractParseResult & TextParseExtras {
  const { result, extras, diagnostics } = parseText(text, options, (value) =>
    parseToolContractValue(value, true),
  );
  const hasError = diagnostics.some((d) => d.severity === "error");
  return result?.contract === undefined || hasError
    ? { ...extras, diagnostics }
    : { ...extras, contract: result.contract, diagnostics };
}
