/**
 * Turns Ajv's errors into agentflow diagnostics: a JSON Pointer to the offending value and a
 * sentence a person understands. Unknown properties are warnings (data is kept, not lost); every
 * other structural problem is an error.
 */
import type { ErrorObject } from "ajv";
import type { Diagnostic, DiagnosticTarget } from "../diagnostic.js";
import { WORKFLOW_TARGET } from "../diagnostic.js";
import { parseMessage, tooManyErrorsMessage } from "./messages.js";
import { escapePointerToken } from "../json/index.js";

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

const SLASH = 0x2f;

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** The index `i` when `path` starts with `prefix` + `i` (1 to 9 digits) + `/` or its end; else -1. */
function indexAfter(path: string, prefix: string): number {
  if (!path.startsWith(prefix)) return -1;
  const start = prefix.length;
  let end = start;
  while (end - start < 10 && isDigit(path.charCodeAt(end))) end += 1;
  if (end === start || end - start > 9) return -1;
  if (end < path.length && path.charCodeAt(end) !== SLASH) return -1;
  return Number(path.slice(start, end));
}

/** `root[list][index]` when both are own properties (as a pointer walk would find them). */
function itemAt(root: unknown, list: string, index: number): unknown {
  if (typeof root !== "object" || root === null || !Object.hasOwn(root, list)) return undefined;
  const items: unknown = (root as Record<string, unknown>)[list];
  if (typeof items !== "object" || items === null || !Object.hasOwn(items, index)) return undefined;
  return (items as Record<number, unknown>)[index];
}

/**
 * Finds the node or edge a pointer lies in, so that diagnostics carry the most precise target.
 * Reads `/nodes/<i>` or `/edges/<i>` off the pointer directly: it runs once per diagnostic, and
 * a document can have 100,000 of them.
 */
export function targetOf(root: unknown, path: string): DiagnosticTarget {
  const node = indexAfter(path, "/nodes/");
  const edge = node < 0 ? indexAfter(path, "/edges/") : -1;
  if (node < 0 && edge < 0) return WORKFLOW_TARGET;
  const item = node >= 0 ? itemAt(root, "nodes", node) : itemAt(root, "edges", edge);
  if (typeof item !== "object" || item === null) return WORKFLOW_TARGET;
  const record = item as Record<string, unknown>;
  if (node >= 0) {
    return typeof record.id === "string" ? { kind: "node", nodeId: record.id } : WORKFLOW_TARGET;
  }
  const { from, to } = record;
  return typeof from === "string" && typeof to === "string"
    ? { kind: "edge", index: edge, from, to }
    : WORKFLOW_TARGET;
}

/** True for the wrapper errors Ajv adds on top of the precise ones (`if`/`then` mismatch). */
function isNoise(error: ErrorObject): boolean {
  return error.keyword === "if";
}

/**
 * How many `STRUCTURE_INVALID` diagnostics a document lists; the rest are counted in one more
 * diagnostic (`data.keyword` `"too-many"`). 100,000 invalid nodes would otherwise make 100,000
 * diagnostics, each with its sentence and, from text, its location: the output itself was most
 * of the cost of parsing such a document, and no reader goes past the first screenful.
 * `UNKNOWN_PROPERTY` warnings are all listed: importers act on each one.
 */
export const MAX_STRUCTURE_ERRORS = 1_000;

/** The diagnostic of one error, once its pointer, property and code are known. */
function diagnosticOf(
  error: ErrorObject,
  code: string,
  path: string,
  property: string | undefined,
  root: unknown,
  documentKind: string,
): Diagnostic {
  const params = error.params as Record<string, unknown>;
  const data: Record<string, unknown> = { keyword: error.keyword };
  if (property === undefined) {
    // `data` is there when a validator is verbose (the parsers' are not); else walk to the value.
    const value = "data" in error ? error.data : valueAt(root, error.instancePath);
    data.actual = typeName(value);
  }
  if (property !== undefined) data.property = property;
  if (params.type !== undefined) data.expected = params.type;
  if (params.allowedValues !== undefined) data.expected = params.allowedValues;
  if (params.allowedValue !== undefined) data.expected = params.allowedValue;
  if (params.limit !== undefined) data.limit = params.limit;
  if (params.pattern !== undefined) data.pattern = params.pattern;
  return {
    code,
    severity: code === UNKNOWN_PROPERTY ? "warning" : "error",
    message: parseMessage({ keyword: error.keyword, path, documentKind, data }),
    target: targetOf(root, path),
    path,
    data,
  };
}

/**
 * Converts Ajv errors on `root` into diagnostics, in Ajv's (document) order, deduplicated within
 * each run (see `SchemaCheck`), with at most {@link MAX_STRUCTURE_ERRORS} structural errors listed.
 */
export function ajvErrorsToDiagnostics(
  runs: readonly (readonly ErrorObject[])[],
  root: unknown,
  documentKind: string,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  let listed = 0;
  let unlisted = 0;
  for (const run of runs) {
    // Most runs are one invalid node's single error, which needs no set.
    const seen = run.length > 1 ? new Set<string>() : undefined;
    for (const error of run) {
      if (isNoise(error)) continue;
      let path = error.instancePath;
      let property: string | undefined;
      if (error.keyword === "required" || error.keyword === "additionalProperties") {
        const params = error.params as Record<string, unknown>;
        property = String(params.missingProperty ?? params.additionalProperty);
        path = `${path}/${escapePointerToken(property)}`;
      }
      const code = error.keyword === "additionalProperties" ? UNKNOWN_PROPERTY : STRUCTURE_INVALID;
      if (seen !== undefined) {
        const key = `${code} ${path} ${error.keyword}`;
        if (seen.has(key)) continue;
        seen.add(key);
      }
      if (code === STRUCTURE_INVALID) {
        if (listed === MAX_STRUCTURE_ERRORS) {
          unlisted += 1;
          continue;
        }
        listed += 1;
      }
      out.push(diagnosticOf(error, code, path, property, root, documentKind));
    }
  }
  if (unlisted > 0) {
    out.push({
      code: STRUCTURE_INVALID,
      severity: "error",
      message: tooManyErrorsMessage(documentKind, unlisted, MAX_STRUCTURE_ERRORS),
      target: WORKFLOW_TARGET,
      path: "",
      data: { keyword: "too-many", count: unlisted, limit: MAX_STRUCTURE_ERRORS },
    });
  }
  return out;
}
