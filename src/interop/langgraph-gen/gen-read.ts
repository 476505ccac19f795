/**
 * Readers shared by the `langgraph-gen` import: its refusal, and own-property field checks that
 * declare every key they do not read.
 */
import { pointer } from "../../model/index.js";
import { describeValue, own } from "../json.js";
import type { InteropWarning } from "../types.js";
import { refusal } from "../types.js";
import { dropped } from "../warnings.js";
import { LANGGRAPH_GEN_FORMAT_ID } from "./gen-types.js";

/** The spec's refusal: an ImportError of format `langgraph-gen` at `path`. */
export const fail = refusal(LANGGRAPH_GEN_FORMAT_ID);

/** A non-empty string field of `obj`, or a refusal at `at`. */
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

/** An array field of `doc`, or a refusal at its path. */
export function requireArray(
  doc: Readonly<Record<string, unknown>>,
  key: string,
): readonly unknown[] {
  const value = own(doc, key);
  if (!Array.isArray(value))
    throw fail(pointer(key), `'${key}' must be an array, found ${describeValue(value)}`);
  return value;
}

/** Declares every key of `obj` outside `known` as dropped, at its path under `at`. */
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
    warnings.push(dropped(pointer(...at, key), message, { key }));
  }
}
