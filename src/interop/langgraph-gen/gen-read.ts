/**
 * Readers shared by the `langgraph-gen` import: errors and warnings with their source pointer,
 * own-property field checks, and the deterministic mapping of spec names onto agentflow ids.
 */
import { pointer } from "../../model/index.js";
import { wantedId } from "../ids.js";
import { describeValue, own } from "../json.js";
import type { InteropWarning } from "../types.js";
import { FIELD_DROPPED } from "../types.js";
import { LangGraphGenImportError } from "./gen-types.js";

/** Every importer allocates ids the same way (`end` is reserved for "the run ends"). */
export { allocateId } from "../ids.js";

export function fail(path: string, reason: string, elementId?: string): LangGraphGenImportError {
  return new LangGraphGenImportError(
    elementId === undefined ? { path, reason } : { path, reason, elementId },
  );
}

export function warn(
  code: string,
  path: string,
  message: string,
  data: Record<string, unknown>,
): InteropWarning {
  return { code, message, path, data };
}

/**
 * The id a spec name would take before clashes: the name itself when it is an agentflow id,
 * else invalid characters become `-` (the importers' one mapper, `../ids.ts`).
 */
export function baseId(raw: string): string {
  return wantedId(raw, "n-");
}

export function requireString(
  obj: Readonly<Record<string, unknown>>,
  key: string,
  at: string,
): string {
  const value = own(obj, key);
  if (typeof value !== "string" || value === "") {
    throw fail(at, `'${key}' must be a non-empty string, found ${describeValue(value)}`);
  }
  return value;
}

export function requireArray(
  doc: Readonly<Record<string, unknown>>,
  key: string,
): readonly unknown[] {
  const value = own(doc, key);
  if (!Array.isArray(value))
    throw fail(pointer(key), `'${key}' must be an array, found ${describeValue(value)}`);
  return value;
}

export function dropUnknown(
  obj: Readonly<Record<string, unknown>>,
  known: ReadonlySet<string>,
  at: readonly (string | number)[],
  what: string,
  warnings: InteropWarning[],
): void {
  for (const key of Object.keys(obj)) {
    if (known.has(key)) continue;
    const message = `${what}: key '${key}' is not mapped by the langgraph-gen importer`;
    warnings.push(warn(FIELD_DROPPED, pointer(...at, key), message, { key }));
  }
}
