/**
 * The readers of recorded runs, one per source, in an explicit list (no discovery): the order
 * is the order a file's first record is tried against each reader's `sniff`.
 */
import { camundaHistoryReader } from "./camunda-history.js";
import { langGraphReader } from "./langgraph.js";
import { otlpReader } from "./otlp.js";
import type { RunReader } from "./types.js";
import { zeebeReader } from "./zeebe.js";
import type { RunSource } from "../types.js";

export type { RecordReader, RunReader, SourceRecord } from "./types.js";
export type { InvalidRecord, RecordSplitter } from "./records.js";
export { createRecordSplitter } from "./records.js";

/** Every reader, most specific shape first. */
export const RUN_READERS: readonly RunReader[] = [
  otlpReader,
  zeebeReader,
  camundaHistoryReader,
  langGraphReader,
];

/**
 * The reader of a source.
 *
 * @example
 * ```ts
 * import { readerOf } from "agentflow/conform";
 *
 * const reader = readerOf("zeebe");
 * reader.source; // → "zeebe"
 * reader.create().end(); // → []
 * ```
 */
export function readerOf(source: RunSource): RunReader {
  const reader = RUN_READERS.find((r) => r.source === source);
  if (reader === undefined) throw new RangeError(`no reader for ${source}`);
  return reader;
}

/**
 * The reader whose records `value` looks like (a file's first record), if exactly one claims it.
 *
 * @example
 * ```ts
 * import { sniffReader } from "agentflow/conform";
 *
 * sniffReader({ resourceSpans: [] })?.source; // → "otlp"
 * sniffReader({ hello: "world", n: 1 }); // → undefined
 * ```
 */
export function sniffReader(value: unknown): RunReader | undefined {
  const claims = RUN_READERS.filter((r) => r.sniff(value));
  return claims.length === 1 ? claims[0] : undefined;
}
