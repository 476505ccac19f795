/**
 * A run file's text, in chunks, as records: JSON lines (each line a record, read as it comes,
 * so memory holds one line), or — when the first line is not a JSON value by itself — one JSON
 * document read whole, whose array elements (or which itself) are the records. A line that is
 * not JSON is said, with its line number, never skipped.
 */
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
      const value: unknown = JSON.parse(trimmed);
      mode = "lines";
      out.push({ value, index: index++, line: lineNo, ...where });
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
        value = JSON.parse(stripBom(document.join("\n")));
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
