/**
 * Structural parsing of AgentWorkflow and ToolContract values (SPEC 2.8). Parsing never throws:
 * every problem in the user's document is returned as a diagnostic with a JSON Pointer.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv";
import { ajvErrorsToDiagnostics, STRUCTURE_INVALID } from "./ajv-errors.js";
import type { Diagnostic } from "./diagnostic.js";
import { hasErrors, WORKFLOW_TARGET } from "./diagnostic.js";
import {
  notAnObjectMessage,
  unreadableMessage,
  versionAbbreviatedMessage,
  versionInvalidMessage,
} from "./parse-messages.js";
import { parseVersion } from "./ref.js";
import { agentWorkflowSchema, toolContractSchema } from "./schema/workflow.js";
import type { AgentWorkflow, ToolContract } from "./types.js";

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

interface Validators {
  readonly workflow: ValidateFunction;
  readonly toolContract: ValidateFunction;
}

let validators: Validators | undefined;

/** Compiled once, on first use, so that importing the model costs nothing. */
function getValidators(): Validators {
  if (validators === undefined) {
    const ajv = new Ajv2020({
      allErrors: true,
      strict: true,
      strictTypes: false,
      strictRequired: false,
    });
    validators = {
      workflow: ajv.compile(agentWorkflowSchema),
      toolContract: ajv.compile(toolContractSchema),
    };
  }
  return validators;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "array" : typeof value;
}

/** Checks `value` against a schema and the document's own version; shared by both kinds. */
function parseDocument<T extends { readonly version: string }>(
  input: unknown,
  validate: ValidateFunction,
  documentKind: string,
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
  let valid: boolean;
  try {
    valid = validate(input);
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
  const diagnostics = valid
    ? []
    : ajvErrorsToDiagnostics(validate.errors ?? [], input, documentKind);
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
  const result = parseDocument<AgentWorkflow>(input, getValidators().workflow, "workflow");
  return result.value === undefined
    ? { diagnostics: result.diagnostics }
    : { workflow: result.value, diagnostics: result.diagnostics };
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
  const result = parseDocument<ToolContract>(input, getValidators().toolContract, "tool contract");
  return result.value === undefined
    ? { diagnostics: result.diagnostics }
    : { contract: result.value, diagnostics: result.diagnostics };
}
