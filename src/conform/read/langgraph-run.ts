/**
 * What the LangGraph reader holds of one open run of a stream: its start, its tasks (a debug or
 * `tasks` stream's task and task result, and the `updates` chunk of the same execution when
 * several modes stream), its bare updates, and how it ended. A run is given as events when the
 * stream says it ended, in superstep order (then start time, then file order).
 */
import type { EventAt, ProcessLink, RunEndEvent, RunEvent } from "../types.js";
import { RUN_KEYS, own } from "./langgraph-json.js";
import type { AskedCall } from "./langgraph-steps.js";
import { unansweredCalls, unknownOf, updateEvents } from "./langgraph-steps.js";
import { notText } from "./shared.js";

/** A task the run started, and what later records said of it. */
export interface HeldTask {
  readonly id: string;
  readonly name: string;
  readonly step?: number;
  start?: number;
  at?: EventAt;
  result?: {
    readonly value: unknown;
    readonly error?: string;
    readonly interrupts: number;
    readonly end?: number;
    readonly at: EventAt;
  };
  update?: { readonly value: unknown; readonly at: EventAt };
}

type Item =
  | {
      readonly step: number;
      readonly start: number;
      readonly index: number;
      readonly task: HeldTask;
    }
  | {
      readonly step: number;
      readonly start: number;
      readonly index: number;
      readonly name: string;
      readonly value: unknown;
      readonly at: EventAt;
    }
  | {
      readonly step: number;
      readonly start: number;
      readonly index: number;
      readonly event: RunEvent;
    };

/** One open run. */
export class HeldRun {
  readonly id: string;
  startAt: EventAt | undefined;
  startTime: number | undefined;
  /** The superstep the stream last reported: bare updates sort there. */
  step = -1;
  readonly tasks = new Map<string, HeldTask>();
  readonly runKeys: Record<string, string> = {};
  ended:
    | { readonly status: RunEndEvent["status"]; readonly at: EventAt; readonly time?: number }
    | undefined;
  private readonly items: Item[] = [];
  /** Run-level keys of the metadata already reported as unreadable. */
  private readonly unreadKeys = new Set<string>();

  constructor(id: string) {
    this.id = id;
  }

  /** True when the run holds nothing yet. */
  get empty(): boolean {
    return this.items.length === 0;
  }

  /** Notes where the run began, once. */
  begin(at: EventAt, time: number | undefined): void {
    if (this.startAt !== undefined) return;
    this.startAt = at;
    this.startTime = time;
  }

  /** A task started (or its result came without its start). */
  task(id: string, name: string, step: number | undefined, at: EventAt): HeldTask {
    const held = this.tasks.get(id);
    if (held !== undefined) return held;
    const task: HeldTask = { id, name, ...(step === undefined ? {} : { step }) };
    this.tasks.set(id, task);
    if (step !== undefined) this.step = Math.max(this.step, step);
    this.items.push({ step: step ?? this.step, start: Infinity, index: at.index, task });
    return task;
  }

  /**
   * A node's update from an `updates` chunk: the same execution as a task of this run that has
   * the node's name and no update yet (several modes streaming), else an execution of its own.
   */
  update(name: string, value: unknown, at: EventAt): void {
    for (const task of this.tasks.values()) {
      if (task.name !== name || task.update !== undefined) continue;
      task.update = { value, at };
      return;
    }
    this.items.push({ step: this.step, start: Infinity, index: at.index, name, value, at });
  }

  /**
   * Reads the run-level agentflow keys of a checkpoint's metadata (`agentflow.workflow`...). A key
   * recorded and not text is an event of its own, never taken for absent: the run would then be
   * checked against another workflow, or its process instance unseen.
   */
  metadata(
    metadata: Readonly<Record<string, unknown>>,
    at: EventAt,
    step: number | undefined,
  ): void {
    for (const k of RUN_KEYS) {
      const v = own(metadata, k);
      if (v === undefined) continue;
      const why = notText(v);
      if (why === undefined) this.runKeys[k] = v as string;
      else if (!this.unreadKeys.has(k)) {
        // Every checkpoint of a stream repeats its config's metadata: said once per run.
        this.unreadKeys.add(k);
        this.event(unknownOf(this.id, at, `${k} of the checkpoint metadata ${why}.`), step);
      }
    }
  }

  /** An event already made (an interrupt, a record with no execution), kept in its place. */
  event(event: RunEvent, step: number | undefined): void {
    this.items.push({ step: step ?? this.step, start: Infinity, index: event.at.index, event });
  }

  /** The run's events, in order, and its end when the stream said so. */
  events(): RunEvent[] {
    const runKeys = this.runKeys;
    const calls = new Map<string, AskedCall>();
    const sorted = this.items.map((item) =>
      "task" in item && item.task.start !== undefined ? { ...item, start: item.task.start } : item,
    );
    sorted.sort((a, b) => a.step - b.step || a.start - b.start || a.index - b.index);
    const body: RunEvent[] = [];
    for (const item of sorted) {
      if ("event" in item) body.push(item.event);
      else if ("task" in item) body.push(...this.taskEvents(item.task, calls));
      else body.push(...updateEvents(item.name, item.value, this.context(item.at, "ok", calls)));
    }
    body.push(...unansweredCalls(this.id, calls));
    const first = this.startAt ?? body[0]?.at ?? { index: 0 };
    const events: RunEvent[] = [
      {
        kind: "run-start",
        run: this.id,
        at: first,
        ...(this.startTime === undefined ? {} : { time: this.startTime }),
        ...workflowOf(runKeys),
      },
      ...body,
    ];
    if (this.ended !== undefined)
      events.push({
        kind: "run-end",
        run: this.id,
        status: this.ended.status,
        at: this.ended.at,
        ...(this.ended.time === undefined ? {} : { time: this.ended.time }),
      });
    return events;
  }

  private context(at: EventAt, status: "ok" | "error", calls: Map<string, AskedCall>) {
    return { run: this.id, at, status, calls, runKeys: this.runKeys };
  }

  private taskEvents(task: HeldTask, calls: Map<string, AskedCall>): RunEvent[] {
    const result = task.result;
    const at = result?.at ?? task.update?.at ?? task.at ?? { index: 0 };
    if (result !== undefined && result.interrupts > 0)
      return [
        unknownOf(
          this.id,
          at,
          `Node '${task.name}' was interrupted (a pause for a human): conform has no event for the pause; the node's update after the resume is its step.`,
        ),
      ];
    if (result === undefined && task.update === undefined)
      return [
        unknownOf(this.id, at, `Node '${task.name}' started but no result of it is in the file.`),
      ];
    const status = result?.error === undefined ? "ok" : "error";
    const value = result?.value ?? task.update?.value;
    const ctx = {
      ...this.context(at, status, calls),
      ...(task.start === undefined ? {} : { start: task.start }),
      ...(result?.end === undefined ? {} : { end: result.end }),
    };
    return updateEvents(task.name, value, ctx);
  }
}

function workflowOf(keys: Readonly<Record<string, string>>): {
  workflow?: string;
  process?: ProcessLink;
} {
  const workflow = keys["agentflow.workflow"];
  const instance = keys["agentflow.process.instance"];
  const element = keys["agentflow.bpmn.element"];
  const process = keys["agentflow.bpmn.process"];
  return {
    ...(workflow === undefined ? {} : { workflow }),
    ...(instance === undefined
      ? {}
      : {
          process: {
            instance,
            ...(element === undefined ? {} : { element }),
            ...(process === undefined ? {} : { process }),
          },
        }),
  };
}
