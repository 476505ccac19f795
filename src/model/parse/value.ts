/**
 * Structural parsing of AgentWorkflow and ToolContract values (SPEC 2.8). Parsing never throws:
 * every problem in the user's document is returned as a diagnostic with a JSON Pointer.
 */
import type { ErrorObject } from "ajv";
import { ajvErrorsToDiagnostics, STRUCTURE_INVALID, targetOf } from "./ajv-errors.js";
import { withDefaults } from "./defaults.js";
import type { Diagnostic } from "../diagnostic.js";
import { hasErrors, WORKFLOW_TARGET } from "../diagnostic.js";
import { jsonDataProblems, notJsonDataMessage } from "../json/index.js";
import {
  notAnObjectMessage,
  unreadableMessage,
  versionAbbreviatedMessage,
  versionInvalidMessage,
} from "./messages.js";
import { parseVersion } from "../ref.js";
import type { SchemaCheck } from "./schema-check.js";
import { schemaChecks } from "./schema-check.js";
import type { AgentWorkflow, ToolContract } from "../types.js";

/** Code of an abbreviated document version that was normalised (a warning). */
export const VERSION_ABBREVIATED = "VERSION_ABBREVIATED";
/** Code of a document version that is not an exact semantic version (an error). */
export const VERSION_INVALID = "VERSION_INVALID";

/** The outcome of parsing: the typed document when it has no error, and every diagnostic. */
export interface ParseResult<T> {
  readonly value?: T;
  readonly diagnostics: readonly Diagnostic[];
}

/** The outcome of {@link parseWorkflow}. */
export interface WorkflowParseResult {
  readonly workflow?: AgentWorkflow;
  readonly diagnostics: readonly Diagnostic[];
}

/** The outcome of {@link parseToolContract}. */
export interface ToolContractParseResult {
  readonly contract?: ToolContract;
  readonly diagnostics: readonly Diagnostic[];
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "array" : typeof value;
}

/** Code of a value that has no canonical JSON form (an error): NaN, a cycle, a `Map`... */
export const NOT_JSON_DATA = "NOT_JSON_DATA";

/** Where a decoded value is not JSON data, as diagnostics; empty for any text-decoded value. */
function notJsonData(input: object): Diagnostic[] {
  return jsonDataProblems(input).map((problem) => ({
    code: NOT_JSON_DATA,
    severity: "error",
    message: notJsonDataMessage(problem),
    target: targetOf(input, problem.path),
    path: problem.path,
    data: { kind: problem.kind, found: problem.found },
  }));
}

/**
 * Checks `value` against a schema and the document's own version; shared by both kinds.
 * `decoded` is true for a value the text reader built, which is JSON data by construction.
 */
function parseDocument<T extends { readonly version: string }>(
  input: unknown,
  check: SchemaCheck,
  documentKind: string,
  decoded: boolean,
): ParseResult<T> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return {
      diagnostics: [
        {
          code: STRUCTURE_INVALID,
          severity: "error",
          message: notAnObjectMessage(documentKind, kindOf(input)),
          target: WORKFLOW_TARGET,
          path: "",
          data: { keyword: "type", expected: "object", actual: kindOf(input) },
        },
      ],
    };
  }
  let errors: readonly (readonly ErrorObject[])[];
  let notJson: Diagnostic[] = [];
  try {
    if (!decoded) notJson = notJsonData(input);
    errors = check(input);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return {
      diagnostics: [
        {
          code: STRUCTURE_INVALID,
          severity: "error",
          message: unreadableMessage(documentKind, detail),
          target: WORKFLOW_TARGET,
          path: "",
          data: { keyword: "unreadable" },
        },
      ],
    };
  }
  const diagnostics = notJson.concat(ajvErrorsToDiagnostics(errors, input, documentKind));
  let value = input as T;
  const written: unknown = (input as Record<string, unknown>).version;
  if (typeof written === "string" && written !== "") {
    const version = parseVersion(written);
    if (!version.ok) {
      diagnostics.push({
        code: VERSION_INVALID,
        severity: "error",
        message: versionInvalidMessage(version.message),
        target: WORKFLOW_TARGET,
        path: "/version",
        data: { version: written, reason: version.reason },
      });
    } else if (version.abbreviated) {
      diagnostics.push({
        code: VERSION_ABBREVIATED,
        severity: "warning",
        message: versionAbbreviatedMessage(written, version.version),
        target: WORKFLOW_TARGET,
        path: "/version",
        data: { version: written, normalized: version.version },
      });
      value = { ...value, version: version.version };
    }
  }
  return hasErrors(diagnostics) ? { diagnostics } : { value, diagnostics };
}

/**
 * Parses an AgentWorkflow value (already decoded from JSON or YAML). Returns the workflow when
 * the document has no structural error; warnings (unknown properties, an abbreviated version)
 * come with it. Never throws, whatever the input.
 *
 * @example
 * ```ts
 * import { getTemplate, parseWorkflow } from "agentflow/model";
 *
 * const value: unknown = JSON.parse(JSON.stringify(getTemplate("research")));
 * const { workflow, diagnostics } = parseWorkflow(value);
 * workflow?.id; // → "agnt-rsch"
 * diagnostics; // → []
 *
 * const broken = parseWorkflow({ kind: "AgentWorkflow", id: "agnt-x" });
 * broken.workflow; // → undefined
 * broken.diagnostics[0]?.code; // → "STRUCTURE_INVALID"
 * ```
 */
export function parseWorkflow(input: unknown): WorkflowParseResult {
  return parseWorkflowValue(input, false);
}

/**
 * {@link parseWorkflow} for the text parsers, which pass `decoded: true`: their reader already
 * guarantees JSON data, so the value is not walked twice. Internal to the model.
 */
export function parseWorkflowValue(input: unknown, decoded: boolean): WorkflowParseResult {
  const result = parseDocument<AgentWorkflow>(input, schemaChecks().workflow, "workflow", decoded);
  return result.value === undefined
    ? { diagnostics: result.diagnostics }
    : { workflow: withDefaults(result.value), diagnostics: result.diagnostics };
}

/**
 * Parses a ToolContract value, the same way as {@link parseWorkflow}.
 *
 * @example
 * ```ts
 * import { parseToolContract } from "agentflow/model";
 *
 * const { contract, diagnostics } = parseToolContract({
 *   kind: "ToolContract",
 *   id: "tool:browser-search",
 *   version: "1.2.0",
 *   name: "Browser search",
 *   inputSchema: { query: "text" },
 *   outputSchema: { results: "text[]" },
 *   effect: "read",
 *   authorization: "automatic",
 * });
 * contract?.effect; // → "read"
 * diagnostics; // → []
 * ```
 */
export function parseToolContract(input: unknown): ToolContractParseResult {
  return parseToolContractValue(input, false);
}

/** {@link parseToolContract} for the text parsers; see {@link parseWorkflowValue}. */
export function parseToolContractValue(input: unknown, decoded: boolean): ToolContractParseResult {
  const result = parseDocument<ToolContract>(
    input,
    schemaChecks().toolContract,
    "tool contract",
    decoded,
  );
  return result.value === undefined
    ? { diagnostics: result.diagnostics }
    : { contract: result.value, diagnostics: result.diagnostics };
}
