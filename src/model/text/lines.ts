/**
 * Offsets to 1-based line/column positions. Every position this folder reports goes through here,
 * so JSON and YAML agree on what a line and a column are.
 */

import type { SourceLocation } from "../diagnostic.js";

/**
 * Maps an offset (UTF-16 code units from the start of the text) to its 1-based line and column.
 * Offsets outside the text are clamped to it, so a position is always a real place in the text.
 */
export type LineIndex = (offset: number) => SourceLocation;

const LF = 0x0a;
const BOM = 0xfeff;

/**
 * Removes one leading U+FEFF. Editors hide a byte-order mark, so positions are counted after it:
 * what a person sees as line 1, column 1 is the first character after the mark.
 */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === BOM ? text.slice(1) : text;
}

/**
 * Offsets where each line starts. LF, CRLF and a lone CR each end a line, as in YAML 1.2. Found
 * with `indexOf`, which the engine runs far faster than a loop over every character: a 15 MB
 * JSON text on one line is scanned twice, natively.
 */
function lineStarts(text: string): number[] {
  const starts = [0];
  let lf = text.indexOf("\n");
  let cr = text.indexOf("\r");
  while (lf >= 0 || cr >= 0) {
    if (cr >= 0 && (lf < 0 || cr < lf)) {
      const start = cr + (text.charCodeAt(cr + 1) === LF ? 2 : 1);
      starts.push(start);
      if (lf >= 0 && lf < start) lf = text.indexOf("\n", start);
      cr = text.indexOf("\r", start);
    } else {
      starts.push(lf + 1);
      lf = text.indexOf("\n", lf + 1);
    }
  }
  return starts;
}

/**
 * Builds a {@link LineIndex} for `text`: one linear pass, then a binary search per query (none
 * when the offset is on the line of the previous query or the next), so locating many offsets in
 * a large text stays O((n + q) log n). Columns count UTF-16 code units, as editors and the
 * Language Server Protocol do by default.
 */
export function createLineIndex(text: string): LineIndex {
  const starts = lineStarts(text);
  const end = text.length;
  // Offsets mostly come in document order: often on the previous one's line or the next.
  let previous = 0;
  return (offset: number): SourceLocation => {
    const at = Number.isFinite(offset) ? Math.min(Math.max(Math.trunc(offset), 0), end) : 0;
    for (let line = previous; line <= previous + 1; line += 1) {
      const start = starts[line];
      if (start !== undefined && start <= at && at < (starts[line + 1] ?? Infinity)) {
        previous = line;
        return { line: line + 1, column: at - start + 1 };
      }
    }
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if ((starts[mid] ?? 0) <= at) low = mid;
      else high = mid - 1;
    }
    previous = low;
    return { line: low + 1, column: at - (starts[low] ?? 0) + 1 };
  };
}

/**
 * The 1-based line and column of `offset` in `text`, taken as given (a BOM, if present, counts
 * as a character here). Builds a line table per call: use {@link createLineIndex} for many offsets.
 */
export function lineColumnAt(text: string, offset: number): SourceLocation {
  return createLineIndex(text)(offset);
}
