/**
 * Small readers shared by the import modules: required values with precise errors, and the
 * declaration of keys the IR importer does not map.
 */
import { pointer } from "../../model/index.js";
import { describeValue, isRecord, own } from "../json.js";
import type { InteropWarning } from "../types.js";
import { fail } from "./ir-types.js";
import { dropped } from "../warnings.js";

/** A JSON Pointer position, as path tokens. */
export type At = readonly (string | number)[];

/** A decoded object. */
export type Obj = Readonly<Record<string, unknown>>;

/** The object at `key`, or an import error at its path. */
export function needRecord(obj: Obj, key: string, at: At, elementId?: string): Obj {
  const value = own(obj, key);
  if (!isRecord(value)) {
    throw fail(
      pointer(...at, key),
      `'${key}' must be an object, found ${describeValue(value)}`,
      elementId,
    );
  }
  return value;
}

/** The array at `key`, or an import error at its path. */
export function needArray(obj: Obj, key: string, at: At, elementId?: string): readonly unknown[] {
  const value = own(obj, key);
  if (!Array.isArray(value)) {
    throw fail(
      pointer(...at, key),
      `'${key}' must be an array, found ${describeValue(value)}`,
      elementId,
    );
  }
  return value;
}

/** The non-empty string at `key`, or an import error at its path. */
export function needString(obj: Obj, key: string, at: At, elementId?: string): string {
  const value = own(obj, key);
  if (typeof value !== "string" || value === "") {
    throw fail(
      pointer(...at, key),
      `'${key}' must be a non-empty string, found ${describeValue(value)}`,
      elementId,
    );
  }
  return value;
}

/** The array at `key` as strings, or an import error at the first element that is not one. */
export function needStrings(obj: Obj, key: string, at: At, elementId?: string): readonly string[] {
  return needArray(obj, key, at, elementId).map((item, i) => {
    if (typeof item !== "string") {
      throw fail(
        pointer(...at, key, i),
        `'${key}' must hold strings, found ${describeValue(item)}`,
        elementId,
      );
    }
    return item;
  });
}

/** The element at index `i` as an object, or an import error at its path. */
export function needItem(item: unknown, at: At, what: string): Obj {
  if (!isRecord(item))
    throw fail(pointer(...at), `${what} must be an object, found ${describeValue(item)}`);
  return item;
}

/**
 * Declares every key of `obj` outside `known`: the seed says adapters ignore unknown keys, and
 * agentflow declares what it ignores.
 */
export function dropUnknown(
  obj: Obj,
  known: ReadonlySet<string>,
  at: At,
  what: string,
  warnings: InteropWarning[],
): void {
  for (const key of Object.keys(obj)) {
    if (known.has(key)) continue;
    warnings.push(
      dropped(
        pointer(...at, key),
        `${what}: key '${key}' is not part of the OpenAgentFlow IR mapping`,
        { key },
      ),
    );
  }
}
