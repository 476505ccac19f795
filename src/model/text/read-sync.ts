/**
 * The synchronous readers of JSON and YAML text, the YAML support imported with them: what
 * `readDocumentText`, `locatePointers` and the text parsers' positions run.
 */

import type { SourceLocation } from "../diagnostic.js";
import type { Locator } from "./locate.js";
import { locateAll, textLocator as locatorOfText } from "./locate.js";
import { stripBom } from "./lines.js";
import type { TextFormat } from "./problems.js";
import type { ReadOptions, ReadResult } from "./read.js";
import { readBody, textFormat } from "./read.js";
import { YAML_SUPPORT } from "./yaml-support.js";

/**
 * Reads a JSON or YAML document. Never throws on a string: every problem (syntax error with its
 * position, duplicate key with its pointer, unknown tag, second document, alias bomb) is returned.
 * A leading BOM is ignored and positions are counted after it. Throws `TypeError` only on misuse
 * (`text` not a string, an unknown `format`).
 */
export function readDocumentText(text: string, options: ReadOptions = {}): ReadResult {
  return readWithLocator(text, options).result;
}

/**
 * {@link readDocumentText}, plus a locator for the same text that reuses what the read parsed.
 * Internal to the model: the text parsers place their diagnostics with it.
 */
export function readWithLocator(
  text: string,
  options: ReadOptions = {},
): { readonly result: ReadResult; readonly locate: Locator } {
  const { body, format } = textFormat(text, options);
  return readBody(body, format, YAML_SUPPORT);
}

/**
 * The 1-based line and column of the value at each JSON Pointer. A pointer that names nothing
 * (a missing member, an index past the end) gets its nearest existing ancestor's position, so
 * "missing property x in /nodes/2/config" points at that config. A pointer that is not one
 * (non-empty and not starting with `/`), or a text with no value at all, gets no entry.
 * Positions are counted after a leading BOM, columns in UTF-16 code units. A YAML alias is
 * located where it is used, and what lies inside it in its anchor. Never throws on a string.
 */
export function locatePointers(
  text: string,
  format: TextFormat,
  pointers: readonly string[],
): Map<string, SourceLocation> {
  const located = locateAll(stripBom(text), format, {}, pointers, YAML_SUPPORT);
  const found = new Map<string, SourceLocation>();
  pointers.forEach((path, i) => {
    const location = located[i];
    if (location !== undefined && !found.has(path)) found.set(path, location);
  });
  return found;
}

/** A {@link Locator} for a text not parsed yet, with its BOM, as {@link locatePointers} takes it. */
export function textLocator(text: string, format: TextFormat): Locator {
  return locatorOfText(text, format, YAML_SUPPORT);
}
