/**
 * A run file's text, in chunks, as records: JSON lines (each line a record, read as it comes,
 * so memory holds one line), or one JSON document — read whole when the first line is not a
 * JSON value by itself, or written on that one line — whose array elements (or which itself)
 * are the records. A line that is not JSON is said, with its line number, never skipped. An
 * integer past 2^53 (a Zeebe key from partition 4 up) is kept as its digits, a string: read as a
 * number it would be rounded, and two process instances could read as one.
 */
import { isSafeNumber, parse as parseLossless } from "lossless-json";
import { stripBom } from "../../model/internal.js";
import type { SourceRecord } from "./types.js";

/** A record that could not be parsed, and why. */
export interface InvalidRecord {
  readonly invalid: string;
  readonly index: number;
  readonly line?: number;
  readonly file?: string;
}

/** A splitter over one file's text. */
export interface RecordSplitter {
  /** The records the chunk completes. */
  push(chunk: string): (SourceRecord | InvalidRecord)[];
  /** The records left at the end of the text. */
  end(): (SourceRecord | InvalidRecord)[];
}

const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Sixteen digits in a row: the text may hold an integer past 2^53. */
const LONG_DIGITS = /\d{16}/;

const exactNumber = (text: string): number | string =>
  isSafeNumber(text) || !/^-?\d+$/.test(text) ? Number(text) : text;

/**
 * `JSON.parse`, but with integers past 2^53 kept exact as strings. lossless-json parses only
 * text that may hold one: it is slower than the engine's parser, and most records hold none.
 */
function parseJson(text: string): unknown {
  return LONG_DIGITS.test(text) ? parseLossless(text, null, exactNumber) : JSON.parse(text);
}

/**
 * Whether a first line's value is a JSON document of records written on one line (as `jq -c`
 * and `JSON.stringify` write an array): an array of objects, or of arrays. A LangGraph stream
 * tuple (`["updates", {…}]`) holds a string, so it stays one record.
 */
function isDocument(value: unknown): value is readonly unknown[] {
  if (!Array.isArray(value)) return false;
  const items = value as readonly unknown[];
  const object = (v: unknown): boolean => typeof v === "object" && v !== null && !Array.isArray(v);
  return items.every(object) || items.every((v) => Array.isArray(v));
}

/**
 * A splitter for the file named `file` (as given; `-` for stdin).
 *
 * @example
 * ```ts
 * import { createRecordSplitter } from "agentflow/conform";
 *
 * const split = createRecordSplitter("runs.jsonl");
 * split.push('{"a":1}\n{"a"'); // → [{ value: { a: 1 }, index: 0, line: 1, file: "runs.jsonl" }]
 * split.push(":2}\n");          // → [{ value: { a: 2 }, index: 1, line: 2, file: "runs.jsonl" }]
 * ```
 */
export function createRecordSplitter(file?: string): RecordSplitter {
  let mode: "undecided" | "lines" | "document" = "undecided";
  let partial = "";
  let lineNo = 0;
  let index = 0;
  const document: string[] = [];
  const where = file === undefined ? {} : { file };

  const line = (text: string, out: (SourceRecord | InvalidRecord)[]): void => {
    lineNo++;
    if (mode === "document") {
      document.push(text);
      return;
    }
    const trimmed = text.trim();
    if (trimmed === "") return;
    try {
      const value: unknown = parseJson(trimmed);
      const records = mode === "undecided" && isDocument(value) ? value : [value];
      mode = "lines";
      for (const record of records)
        out.push({ value: record, index: index++, line: lineNo, ...where });
    } catch (error) {
      if (mode === "undecided" && (trimmed.startsWith("{") || trimmed.startsWith("["))) {
        mode = "document";
        document.push(text);
        return;
      }
      mode = "lines";
      out.push({ invalid: `not JSON: ${reason(error)}`, index: index++, line: lineNo, ...where });
    }
  };

  return {
    push(chunk) {
      const out: (SourceRecord | InvalidRecord)[] = [];
      const text = partial + chunk;
      let start = 0;
      for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", start)) {
        line(text.slice(start, nl), out);
        start = nl + 1;
      }
      partial = text.slice(start);
      return out;
    },
    end() {
      const out: (SourceRecord | InvalidRecord)[] = [];
      if (partial !== "") line(partial, out);
      partial = "";
      if (mode !== "document") return out;
      let value: unknown;
      try {
        // A line is trimmed (which drops a byte-order mark); the document must drop it too.
        value = parseJson(stripBom(document.join("\n")));
      } catch (error) {
        return [
          ...out,
          {
            invalid: `not JSON lines, nor one JSON document: ${reason(error)}`,
            index: 0,
            ...where,
          },
        ];
      }
      const values: readonly unknown[] = Array.isArray(value) ? value : [value];
      return [...out, ...values.map((v, i) => ({ value: v, index: i, ...where }))];
    },
  };
}
