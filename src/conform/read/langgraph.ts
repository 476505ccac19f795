/**
 * The reader of LangGraph runs (source `langgraph`): stream events as JSON lines (`updates`
 * chunks, `debug` events, `tasks` / `checkpoints` chunks, `[mode, chunk]` pairs when several
 * modes stream) and a checkpointer's checkpoint tuples. A run is a thread (`thread_id`); a stream
 * that names no thread (plain updates) is one run, named after its file. Runs are held until the
 * stream says they ended (a checkpoint with nothing next, a failed task), then given in superstep
 * order. docs/conform/langgraph.md gives the mapping.
 */
import type { EventAt, RunEvent } from "../types.js";
import { epochMs } from "./langgraph-json.js";
import { classify, looksLikeLangGraph } from "./langgraph-records.js";
import type { LgCheckpoint, LgTask, LgTaskResult } from "./langgraph-records.js";
import { HeldRun } from "./langgraph-run.js";
import { unknownOf } from "./langgraph-steps.js";
import { createTupleReader } from "./langgraph-tuples.js";
import { eventAt } from "./shared.js";
import type { RecordReader, RunReader, SourceRecord } from "./types.js";

/** The LangGraph release whose stream and checkpoint shapes this reader follows. */
export const LANGGRAPH_SCHEMA_VERSION = "langgraph-js 1.7.3 (checkpoint v4)";

/** A reader of one file of LangGraph records. */
export function createLangGraphReader(): RecordReader {
  /** Where the file's last record was: an unended run's records stop there. */
  let last: EventAt = { index: 0 };
  const runs = new Map<string, HeldRun>();
  const taskRun = new Map<string, HeldRun>();
  const tuples = createTupleReader();

  const close = (run: HeldRun): RunEvent[] => {
    for (const [key, held] of runs) if (held === run) runs.delete(key);
    for (const id of run.tasks.keys()) taskRun.delete(id);
    return run.events();
  };

  /** The run a record with no thread belongs to: the only open one, or a new one for the file. */
  const sole = (record: SourceRecord): HeldRun | undefined => {
    if (runs.size > 1) return undefined;
    const open = runs.values().next().value;
    if (open !== undefined) return open;
    const run = new HeldRun(record.file ?? "langgraph");
    runs.set("", run);
    return run;
  };

  const ambiguous = (at: EventAt, what: string): RunEvent[] => [
    unknownOf(
      undefined,
      at,
      `${what} names no thread and ${runs.size} runs are open, so its run is unknown.`,
      "ambiguous",
    ),
  ];

  const checkpoint = (c: LgCheckpoint, record: SourceRecord): RunEvent[] => {
    const ids: Record<string, string> = {};
    if (c.thread !== undefined) ids.thread_id = c.thread;
    if (c.id !== undefined) ids.checkpoint_id = c.id;
    const at = eventAt(record, c.time, ids);
    if (c.ns !== "")
      return [
        unknownOf(
          c.thread,
          at,
          `A subgraph's checkpoint (namespace ${c.ns}): conform reads the top graph.`,
        ),
      ];
    const key = c.thread ?? "";
    const out: RunEvent[] = [];
    let run = runs.get(key) ?? (c.thread === undefined ? sole(record) : undefined);
    if (run === undefined && c.thread === undefined) return ambiguous(at, "The checkpoint");
    // New input on a thread whose run did not end starts a new run (the old one never ended).
    if (run !== undefined && c.source === "input" && !run.empty) {
      out.push(...close(run));
      run = undefined;
    }
    if (run === undefined) {
      run = new HeldRun(c.thread ?? record.file ?? "langgraph");
      runs.set(key, run);
    }
    run.begin(at, epochMs(c.time));
    if (c.step !== undefined) run.step = Math.max(run.step, c.step);
    run.metadata(c.metadata, at, c.step);
    for (const t of c.tasks) taskRun.set(t.id, run);
    if (c.next.length === 0 && c.source !== "input") {
      const time = epochMs(c.time);
      run.ended = { status: "completed", at, ...(time === undefined ? {} : { time }) };
      out.push(...close(run));
    }
    return out;
  };

  const runOfTask = (id: string, record: SourceRecord): HeldRun | undefined =>
    taskRun.get(id) ?? sole(record);

  const task = (t: LgTask, record: SourceRecord): RunEvent[] => {
    const at = eventAt(record, t.time, { task_id: t.id, node: t.name });
    const run = runOfTask(t.id, record);
    if (run === undefined) return ambiguous(at, `The task of node '${t.name}'`);
    taskRun.set(t.id, run);
    const held = run.task(t.id, t.name, t.step, at);
    held.at = at;
    const start = epochMs(t.time);
    if (start !== undefined) held.start = start;
    return [];
  };

  const result = (t: LgTaskResult, record: SourceRecord): RunEvent[] => {
    const at = eventAt(record, t.time, { task_id: t.id, node: t.name });
    const run = runOfTask(t.id, record);
    if (run === undefined) return ambiguous(at, `The result of node '${t.name}'`);
    taskRun.set(t.id, run);
    const held = run.task(t.id, t.name, t.step, at);
    // A resumed task keeps its id: the interrupt it answered stays an event of its own.
    if (held.result !== undefined && held.result.interrupts > 0)
      run.event(
        unknownOf(
          run.id,
          held.result.at,
          `Node '${t.name}' was interrupted (a pause for a human): conform has no event for the pause.`,
        ),
        t.step,
      );
    const end = epochMs(t.time);
    held.result = {
      value: t.result,
      interrupts: t.interrupts,
      at,
      ...(t.error === undefined ? {} : { error: t.error }),
      ...(end === undefined ? {} : { end }),
    };
    if (t.error === undefined) return [];
    // A task that failed after its retries ends the invocation: LangGraph raises.
    run.ended = { status: "failed", at, ...(end === undefined ? {} : { time: end }) };
    return close(run);
  };

  const updates = (chunk: Readonly<Record<string, unknown>>, record: SourceRecord): RunEvent[] => {
    const out: RunEvent[] = [];
    for (const [name, value] of Object.entries(chunk)) {
      const at = eventAt(record, undefined, { node: name });
      const run = sole(record);
      if (run === undefined) {
        out.push(...ambiguous(at, `The update of node '${name}'`));
        continue;
      }
      run.begin(at, undefined);
      if (name === "__interrupt__")
        run.event(
          unknownOf(
            run.id,
            at,
            "The run paused for a human (__interrupt__): conform has no event for the pause; the resumed node's update is its step.",
          ),
          undefined,
        );
      else if (name === "__end__") {
        run.ended = { status: "completed", at };
        out.push(...close(run));
      } else if (name === "__start__")
        continue; // the run's input: the run-start stands for it
      else if (/^__.*__$/.test(name))
        run.event(
          unknownOf(run.id, at, `'${name}' is a LangGraph channel, not a node.`),
          undefined,
        );
      else run.update(name, value, at);
    }
    return out;
  };

  return {
    push(record: SourceRecord): readonly RunEvent[] {
      last = eventAt(record);
      const c = classify(record.value);
      switch (c.kind) {
        case "ignore":
          return [];
        case "bad":
        case "skip":
          return [unknownOf(undefined, eventAt(record), c.reason)];
        case "checkpoint":
          return checkpoint(c, record);
        case "task":
          return task(c, record);
        case "task-result":
          return result(c, record);
        case "updates":
          return updates(c.chunk, record);
        case "tuple":
          return tuples.push(
            c,
            eventAt(record, c.ts, {
              ...(c.thread === undefined ? {} : { thread_id: c.thread }),
              checkpoint_id: c.id,
            }),
          );
      }
    },
    end(): readonly RunEvent[] {
      // Runs still open were not said to end (a stream of updates never is): their records stop
      // at the end of the file, which is all a run-end of status `ended` claims.
      const out: RunEvent[] = [];
      for (const run of [...runs.values()]) {
        run.ended ??= { status: "ended", at: last };
        out.push(...close(run));
      }
      out.push(...tuples.end());
      return out;
    },
  };
}

/** The `langgraph` source: LangGraph stream events and checkpoint tuples as JSON. */
export const langGraphReader: RunReader = {
  source: "langgraph",
  schemaVersion: LANGGRAPH_SCHEMA_VERSION,
  sniff: looksLikeLangGraph,
  create: createLangGraphReader,
};
