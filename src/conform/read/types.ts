/**
 * The contract every reader of recorded runs meets: it takes a source's records one at a time
 * and gives back the run events they mean, holding only what runs still open need. A reader
 * never throws on a record it cannot map: it yields an `unknown` event saying why.
 */
import type { RunEvent, RunSource } from "../types.js";

/** One record of a source: a parsed JSON value and where it was. */
export interface SourceRecord {
  readonly value: unknown;
  /** 0-based index of the record in its file. */
  readonly index: number;
  /** 1-based line, when the file is JSON lines. */
  readonly line?: number;
  /** The file as given (`-` for stdin). */
  readonly file?: string;
}

/** A reader's state over one file: records in, events out. */
export interface RecordReader {
  /** The events this record completes (often none while a run is still open). */
  push(record: SourceRecord): readonly RunEvent[];
  /** The events still held at the end of the file. */
  end(): readonly RunEvent[];
}

/** A source format's reader: how to recognise its records and how to read them. */
export interface RunReader {
  readonly source: RunSource;
  /** The published schema version the reader follows (docs/conform.md). */
  readonly schemaVersion: string;
  /** True when `value` (a file's first record) is this source's. */
  sniff(value: unknown): boolean;
  /** A reader for one file. */
  create(): RecordReader;
}
