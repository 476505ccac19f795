/**
 * Where a problem of a pack is in its text: the value at a place (`rules[1].when`, through the
 * model's pointer locator), and inside a `when`, the column of the FEEL problem mapped to the
 * file — for a plain or quoted scalar on one line (escapes decoded) and a literal block (`|`).
 * Elsewhere (a folded or multi-line scalar) the place is the start of the value, never a guess.
 */
import type { SourceLocation, TextFormat } from "../model/index.js";
import { locatePointers } from "../model/internal.js";

/** `rules[1].require.gates.min` → `/rules/1/require/gates/min`. */
export function pointerOfPlace(place: string): string {
  if (place === "") return "";
  return (
    "/" +
    place
      .replace(/\[(\d+)\]/g, ".$1")
      .split(".")
      .join("/")
  );
}

/** `/rules/1/require/gates/min` → `rules[1].require.gates.min`. */
export function placeOfPointer(pointer: string): string {
  let place = "";
  for (const raw of pointer.split("/").slice(1)) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (/^\d+$/.test(token)) place += `[${token}]`;
    else place += place === "" ? token : `.${token}`;
  }
  return place;
}

/** The offset of each line's start (LF, CRLF or CR ends a line). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) starts.push(i + 1);
  }
  return starts;
}

/** For each character of a one-line quoted scalar's value, its offset in the text; or undefined. */
function quotedOffsets(text: string, open: number): number[] | undefined {
  const quote = text[open];
  const offsets: number[] = [];
  for (let i = open + 1; i < text.length;) {
    const c = text[i];
    if (c === "\n" || c === "\r") return undefined;
    if (c === quote) {
      if (quote === "'" && text[i + 1] === "'") {
        offsets.push(i);
        i += 2;
        continue;
      }
      return offsets;
    }
    if (quote === '"' && c === "\\") {
      const kind = text[i + 1];
      const width = kind === "u" ? 6 : kind === "x" ? 4 : kind === "U" ? 10 : 2;
      offsets.push(i);
      if (kind === "U") offsets.push(i); // a code point beyond U+FFFF is two code units
      i += width;
      continue;
    }
    offsets.push(i);
    i += 1;
  }
  return undefined;
}

/** A located text, answering where a place and a point inside a `when` are. */
export interface PackText {
  /** The location of the value at each place asked for. */
  places(places: readonly string[]): Map<string, SourceLocation>;
  /** Where offset `offset` of the expression `expr`, the value at `start`, is in the text. */
  inside(start: SourceLocation, expr: string, offset: number): SourceLocation;
  /**
   * The plain scalar that starts at `start` as written (`1.0` of `version: 1.0 # x`, `3` of
   * `[a, 3]`): up to a blank, `,`, `]`, `}` or `#`.
   */
  token(start: SourceLocation): string;
}

/** Locations in `text` (a leading BOM is not counted, as the reader does not count it). */
export function packText(text: string, format: TextFormat): PackText {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let starts: number[] | undefined;
  const at = (offset: number): SourceLocation => {
    starts ??= lineStarts(body);
    let line = 0;
    while (line + 1 < starts.length && (starts[line + 1] ?? 0) <= offset) line += 1;
    return { line: line + 1, column: offset - (starts[line] ?? 0) + 1 };
  };
  return {
    places(places) {
      const pointers = places.map(pointerOfPlace);
      const located = locatePointers(text, format, pointers);
      const out = new Map<string, SourceLocation>();
      places.forEach((place, i) => {
        const location = located.get(pointers[i] ?? "");
        if (location !== undefined) out.set(place, location);
      });
      return out;
    },
    inside(start, expr, offset) {
      starts ??= lineStarts(body);
      const from = (starts[start.line - 1] ?? 0) + start.column - 1;
      const first = body[from];
      if (first === '"' || first === "'") {
        const offsets = quotedOffsets(body, from);
        const mapped = offsets?.length === expr.length ? offsets[offset] : undefined;
        return mapped === undefined ? start : at(mapped);
      }
      if (first === "|") {
        const exprLines = expr.split("\n");
        const before = expr.slice(0, offset).split("\n");
        const lineIndex = before.length - 1;
        const sourceLine = start.line + 1 + lineIndex;
        const lineStart = starts[sourceLine - 1];
        if (lineStart === undefined) return start;
        const firstLine = /^ */.exec(body.slice(starts[start.line] ?? 0))?.[0].length ?? 0;
        const wanted = exprLines[lineIndex] ?? "";
        if (!body.startsWith(wanted, lineStart + firstLine)) return start;
        return { line: sourceLine, column: firstLine + (before[lineIndex]?.length ?? 0) + 1 };
      }
      if (!expr.includes("\n") && body.startsWith(expr, from)) return at(from + offset);
      return start;
    },
    token(start) {
      starts ??= lineStarts(body);
      const from = (starts[start.line - 1] ?? 0) + start.column - 1;
      return /^[^\s,\]}#]*/.exec(body.slice(from, from + 256))?.[0] ?? "";
    },
  };
}
