/**
 * Positions in the BPMN source text. moddle reports parse warnings without a position (or with a
 * 0-based one inside the message), so element ids are located in the text here: one linear scan,
 * made only when a diagnostic needs a position.
 */
import type { SourceLocation } from "../model/index.js";

/** Looks up 1-based positions by element id or by text offset. */
export interface SourceIndex {
  /** Where the element with this id is declared (its first declaration). */
  locateId(id: string): SourceLocation | undefined;
  /** The 1-based position of a 0-based text offset. */
  locateOffset(offset: number): SourceLocation;
  /**
   * The 1-based position of a position saxen reported as 0-based `line`/`column`. At the end of
   * a truncated document saxen reports line 0 and the absolute offset as the column; a column
   * past the end of its line is read that way.
   */
  locateReported(line: number, column: number): SourceLocation;
}

// Linear: no nested quantifiers, and each alternative consumes up to a fixed delimiter.
const ID_ATTRIBUTE = /\sid\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/** Builds a lazy index over `text`; nothing is scanned until the first lookup. */
export function createSourceIndex(text: string): SourceIndex {
  let starts: number[] | undefined;
  let ids: Map<string, number> | undefined;
  const locateOffset = (offset: number): SourceLocation => {
    starts ??= lineStarts(text);
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (starts[lo] ?? 0) + 1 };
  };
  return {
    locateOffset,
    locateReported(line, column) {
      starts ??= lineStarts(text);
      const start = starts[line];
      const end = starts[line + 1] ?? text.length + 1;
      if (start !== undefined && start + column < end)
        return { line: line + 1, column: column + 1 };
      return locateOffset(Math.min(Math.max(column, 0), text.length));
    },
    locateId(id) {
      if (ids === undefined) {
        ids = new Map();
        for (const match of text.matchAll(ID_ATTRIBUTE)) {
          const value = match[1] ?? match[2] ?? "";
          if (!ids.has(value)) ids.set(value, match.index);
        }
      }
      const offset = ids.get(id);
      return offset === undefined ? undefined : locateOffset(offset + 1);
    },
  };
}

/** An element name whose prefix is declared nowhere in the document. */
export interface UndeclaredPrefix {
  readonly prefix: string;
  readonly element: string;
  readonly offset: number;
}

const ELEMENT_PREFIX = /<([A-Za-z_][\w.-]*):([A-Za-z_][\w.-]*)/g;
const PREFIX_DECLARATION = /\sxmlns:([A-Za-z_][\w.-]*)\s*=/g;

/**
 * Element names with a namespace prefix that no `xmlns:` declares. bpmn-moddle accepts such a
 * document without a warning (a strict XML parser rejects it), so this is checked here. The check
 * is document-wide, not per scope: it finds prefixes declared nowhere, which is the common case.
 */
export function undeclaredPrefixes(text: string): UndeclaredPrefix[] {
  const declared = new Set(["xml"]);
  for (const match of text.matchAll(PREFIX_DECLARATION)) declared.add(match[1] ?? "");
  const seen = new Set<string>();
  const out: UndeclaredPrefix[] = [];
  for (const match of text.matchAll(ELEMENT_PREFIX)) {
    const prefix = match[1] ?? "";
    if (declared.has(prefix) || seen.has(prefix)) continue;
    seen.add(prefix);
    out.push({ prefix, element: `${prefix}:${match[2] ?? ""}`, offset: match.index });
  }
  return out;
}
