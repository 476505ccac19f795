/**
 * The reader of Camunda 8.10's agent instance history (source `camunda-agent-history`): agent
 * instances and their conversation history items as the Orchestration Cluster REST API returns
 * them (`GET /agent-instances/{key}`, `POST /agent-instances/{key}/history/search`), one per line
 * or as the search responses themselves. An agent instance is a run. Its items are held until the
 * instance record says COMPLETED, then given in creation order; an instance record that comes
 * before any of its history holds the run to the end of the file. docs/conform/camunda-agent-history.md
 * gives the mapping.
 */
import type { RunEvent, UnknownEvent } from "../types.js";
import type { CamundaRead } from "./camunda-items.js";
import { isCamundaShape, readCamundaRecord } from "./camunda-items.js";
import type { HeldRun } from "./camunda-run.js";
import { runEvents } from "./camunda-run.js";
import type { RecordReader, RunReader, SourceRecord } from "./types.js";

/** The Camunda version whose agent instance API (agent-instances.yaml) this reader follows. */
export const CAMUNDA_HISTORY_SCHEMA_VERSION = "8.10";

/** A reader over one file; `skipped` counts items conform has no use for (USER prompts). */
export interface CamundaHistoryRecordReader extends RecordReader {
  readonly skipped: number;
}

function late(run: string, read: Exclude<CamundaRead, { shape: "unreadable" }>): UnknownEvent {
  return {
    kind: "unknown",
    run,
    class: "ambiguous",
    reason: `The record of agent instance ${run} comes after the instance was read as completed, so its place in the run is unknown; write the instance after its history.`,
    at: read.at,
  };
}

function duplicate(run: string, key: string, read: CamundaRead): UnknownEvent {
  return {
    kind: "unknown",
    run,
    class: "ambiguous",
    reason: `History item ${key} appears again (overlapping pages?); the repeat is not read as a second step.`,
    at: read.at,
  };
}

/** A reader of one file of agent instances and history items. */
export function createCamundaHistoryReader(): CamundaHistoryRecordReader {
  const open = new Map<string, HeldRun>();
  // Keys of the runs already given (a string each): a late record is reported, not reopened.
  const closed = new Set<string>();
  let skipped = 0;
  const flush = (run: string, held: HeldRun): RunEvent[] => {
    open.delete(run);
    const out = runEvents(run, held);
    skipped += out.skipped;
    return out.events;
  };
  const take = (read: CamundaRead): RunEvent[] => {
    if (read.shape === "unreadable") {
      const run = read.run === undefined ? {} : { run: read.run };
      return [{ kind: "unknown", class: "unknown", reason: read.reason, ...run, at: read.at }];
    }
    if (closed.has(read.run)) return [late(read.run, read)];
    let held = open.get(read.run);
    if (held === undefined) {
      held = { items: [], keys: new Set() };
      open.set(read.run, held);
    }
    if (read.shape === "item") {
      if (held.keys.has(read.key)) return [duplicate(read.run, read.key, read)];
      held.keys.add(read.key);
      held.items.push(read);
      return [];
    }
    held.instance = read;
    if (read.status !== "COMPLETED" || held.items.length === 0) return [];
    closed.add(read.run);
    return flush(read.run, held);
  };
  return {
    get skipped() {
      return skipped;
    },
    push(record: SourceRecord): readonly RunEvent[] {
      return readCamundaRecord(record).flatMap(take);
    },
    end(): readonly RunEvent[] {
      const events: RunEvent[] = [];
      for (const [run, held] of [...open]) events.push(...flush(run, held));
      return events;
    },
  };
}

/** The `camunda-agent-history` source. */
export const camundaHistoryReader: RunReader = {
  source: "camunda-agent-history",
  schemaVersion: CAMUNDA_HISTORY_SCHEMA_VERSION,
  sniff: isCamundaShape,
  create: createCamundaHistoryReader,
};
