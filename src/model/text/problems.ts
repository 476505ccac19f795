/** What reading a text can report, and how raw offsets become the located problems callers see. */

import type { SourceLocation } from "../diagnostic.js";
import { escapePointerToken } from "../json/index.js";
import { createLineIndex } from "./lines.js";

/** The two text formats agentflow reads. */
export type TextFormat = "json" | "yaml";

/**
 * `SYNTAX_ERROR`: the text is not well-formed, or uses a construct that has no faithful JSON value
 * (an unknown tag, a collection as a key, a second document, an alias bomb).
 * `DUPLICATE_KEY`: a mapping repeats a key, so one of the values would be silently lost.
 * `NOT_JSON_DATA`: well-formed text whose value has no canonical JSON form: a lone surrogate
 * (`"\ud800"` is valid JSON syntax but not Unicode, and RFC 8785 refuses it).
 */
export type TextProblemCode = "SYNTAX_ERROR" | "DUPLICATE_KEY" | "NOT_JSON_DATA";

/** One problem in a text. Every problem is an error: a text with problems has no value. */
export interface TextProblem {
  readonly code: TextProblemCode;
  /** One sentence for a person; positions are in `location`, not repeated here. */
  readonly message: string;
  /**
   * JSON Pointer to what the problem is about: for a duplicate key, the pointer of the object
   * and the key (`/nodes/0/id`). `""` when the text has no reliable structure there (syntax errors).
   */
  readonly path: string;
  /** Where in the text (after a leading BOM), 1-based. */
  readonly location: SourceLocation;
}

/** A problem before its offset is turned into a line and column. */
export interface OffsetProblem {
  readonly code: TextProblemCode;
  readonly message: string;
  readonly path: string;
  readonly offset: number;
}

/** Locates problems and puts them in document order (stable, so equal offsets keep their order). */
export function locateProblems(text: string, problems: readonly OffsetProblem[]): TextProblem[] {
  if (problems.length === 0) return [];
  const locate = createLineIndex(text);
  return [...problems]
    .sort((a, b) => a.offset - b.offset)
    .map(({ code, message, path, offset }) => ({ code, message, path, location: locate(offset) }));
}

/** Builds a pointer from tokens without spreading them, so a very deep path cannot overflow. */
export function pointerOf(tokens: readonly (string | number)[]): string {
  let out = "";
  for (const token of tokens) out += "/" + escapePointerToken(token);
  return out;
}

const MAX_QUOTED = 60;

/** Quotes source text for a message, shortened so that a megabyte-long key cannot flood a report. */
export function quote(text: string): string {
  const shown = text.length > MAX_QUOTED ? text.slice(0, MAX_QUOTED) + "…" : text;
  return JSON.stringify(shown);
}

/** The message of a duplicate key, shared by both formats so they read the same. */
export function duplicateKeyMessage(key: string, objectPath: string): string {
  const where = objectPath === "" ? "the top-level mapping" : `the mapping at ${objectPath}`;
  return `Key ${quote(key)} appears more than once in ${where}; only one value could be kept.`;
}

/** The message of a number with no finite value: JSON has no Infinity or NaN to keep it as. */
export function nonFiniteMessage(literal: string): string {
  return `The number ${quote(literal)} has no finite value (it reads as Infinity or NaN), and JSON has no such number.`;
}
