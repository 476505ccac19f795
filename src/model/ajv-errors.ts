/**
 * Turns Ajv's errors into agentflow diagnostics: a JSON Pointer to the offending value and a
 * sentence a person understands. Unknown properties are warnings (data is kept, not lost); every
 * other structural problem is an error.
 */
import type { ErrorObject } from "ajv";
import type { Diagnostic, DiagnosticTarget } from "./diagnostic.js";
import { WORKFLOW_TARGET } from "./diagnostic.js";
import { parseMessage } from "./parse-messages.js";
import { escapePointerToken } from "./pointer.js";

/** Code of a structural violation (an error). */
export const STRUCTURE_INVALID = "STRUCTURE_INVALID";
/** Code of a property the schema does not know (a warning; the property is kept). */
export const UNKNOWN_PROPERTY = "UNKNOWN_PROPERTY";

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && Number.isInteger(value)) return "integer";
  return typeof value;
}

function valueAt(root: unknown, path: string): unknown {
  if (path === "") return root;
  let current: unknown = root;
  for (const raw of path.slice(1).split("/")) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, token)) {
      return undefined;
    }
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}

/** Finds the node or edge a pointer lies in, so that diagnostics carry the most precise target. */
export function targetOf(root: unknown, path: string): DiagnosticTarget {
  const match = /^\/(nodes|edges)\/(\d{1,9})(?:\/|$)/.exec(path);
  if (match === null) return WORKFLOW_TARGET;
  const index = Number(match[2]);
  const item = valueAt(root, `/${match[1] ?? ""}/${index}`);
  if (typeof item !== "object" || item === null) return WORKFLOW_TARGET;
  const record = item as Record<string, unknown>;
  if (match[1] === "nodes") {
    return typeof record.id === "string" ? { kind: "node", nodeId: record.id } : WORKFLOW_TARGET;
  }
  const { from, to } = record;
  return typeof from === "string" && typeof to === "string"
    ? { kind: "edge", index, from, to }
    : WORKFLOW_TARGET;
}

/** True for the wrapper errors Ajv adds on top of the precise ones (`if`/`then` mismatch). */
function isNoise(error: ErrorObject): boolean {
  return error.keyword === "if";
}

/** Converts Ajv errors on `root` into diagnostics, in Ajv's (document) order, deduplicated. */
export function ajvErrorsToDiagnostics(
  errors: readonly ErrorObject[],
  root: unknown,
  documentKind: string,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (isNoise(error)) continue;
    const params = error.params as Record<string, unknown>;
    let path = error.instancePath;
    let property: string | undefined;
    if (error.keyword === "required" || error.keyword === "additionalProperties") {
      property = String(params.missingProperty ?? params.additionalProperty);
      path = `${path}/${escapePointerToken(property)}`;
    }
    const code = error.keyword === "additionalProperties" ? UNKNOWN_PROPERTY : STRUCTURE_INVALID;
    const key = `${code} ${path} ${error.keyword}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const data: Record<string, unknown> = { keyword: error.keyword };
    if (property === undefined) {
      // `data` is there when the validator is verbose (the parsers' are); else walk to the value.
      const value = "data" in error ? error.data : valueAt(root, error.instancePath);
      data.actual = typeName(value);
    }
    if (property !== undefined) data.property = property;
    if (params.type !== undefined) data.expected = params.type;
    if (params.allowedValues !== undefined) data.expected = params.allowedValues;
    if (params.allowedValue !== undefined) data.expected = params.allowedValue;
    if (params.limit !== undefined) data.limit = params.limit;
    if (params.pattern !== undefined) data.pattern = params.pattern;
    out.push({
      code,
      severity: code === UNKNOWN_PROPERTY ? "warning" : "error",
      message: parseMessage({ keyword: error.keyword, path, documentKind, data }),
      target: targetOf(root, path),
      path,
      data,
    });
  }
  return out;
}
