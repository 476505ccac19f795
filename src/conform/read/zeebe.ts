/**
 * The reader of Zeebe's exported records (source `zeebe`): the protocol's Record JSON, one record
 * per line, as the JSON-writing exporters (a debug exporter, a Kafka or Elasticsearch export)
 * give it. Element events of a process instance are held until the instance itself completes or
 * is terminated, then given in log order (by `position`, which orders one partition's records,
 * and a process instance lives on one partition), whatever order the file holds them in.
 * docs/conform/zeebe.md gives the mapping.
 */
import type { ElementEvent, RunEvent, UnknownEvent } from "../types.js";
import type { RecordReader, RunReader, SourceRecord } from "./types.js";
import { isZeebeRecord, readZeebeRecord } from "./zeebe-record.js";

/** The Zeebe (Camunda 8) version whose Record JSON this reader follows. */
export const ZEEBE_SCHEMA_VERSION = "8.10";

interface Held {
  readonly position: number;
  readonly index: number;
  readonly event: ElementEvent;
}

/** A Zeebe reader over one file; `skipped` counts the records conform has no use for. */
export interface ZeebeRecordReader extends RecordReader {
  /** Records read and not needed (commands, other value types, transitional intents). */
  readonly skipped: number;
}

function inLogOrder(held: Held[]): ElementEvent[] {
  held.sort((a, b) => a.position - b.position || a.index - b.index);
  return held.map((h) => h.event);
}

function late(instance: string, event: ElementEvent): UnknownEvent {
  return {
    kind: "unknown",
    class: "ambiguous",
    reason: `The record of process instance ${instance} comes after the instance's end was read, so its place among the instance's events is unknown.`,
    at: event.at,
  };
}

/** A reader of one file of Zeebe records. */
export function createZeebeReader(): ZeebeRecordReader {
  const open = new Map<string, Held[]>();
  // The process and key of ended instances (a string each, not their records): a record of one
  // that arrives late is reported, not opened as a new instance that never ends.
  const closed = new Set<string>();
  let skipped = 0;
  return {
    get skipped() {
      return skipped;
    },
    push(record: SourceRecord): readonly RunEvent[] {
      const read = readZeebeRecord(record);
      if (read.kind === "skip") {
        skipped += 1;
        return [];
      }
      if (read.kind === "unknown") {
        return [{ kind: "unknown", class: "unknown", reason: read.reason, at: read.at }];
      }
      // An instance is its key and its process: keys repeat across clusters, and one's end
      // must not close (or make late) the records of another with the same key.
      const key = `${read.event.process}\u0000${read.instance}`;
      if (closed.has(key)) return [late(read.instance, read.event)];
      const held = open.get(key) ?? [];
      if (held.length === 0) open.set(key, held);
      held.push({ position: read.position, index: record.index, event: read.event });
      if (!read.closes) return [];
      open.delete(key);
      closed.add(key);
      return inLogOrder(held);
    },
    end(): readonly RunEvent[] {
      // Instances still open never ended in this file: their events say so by having no
      // completed or terminated PROCESS element.
      const events: RunEvent[] = [];
      for (const held of open.values()) events.push(...inLogOrder(held));
      open.clear();
      return events;
    },
  };
}

/** The `zeebe` source: Zeebe's exported records as JSON. */
export const zeebeReader: RunReader = {
  source: "zeebe",
  schemaVersion: ZEEBE_SCHEMA_VERSION,
  sniff: isZeebeRecord,
  create: createZeebeReader,
};
