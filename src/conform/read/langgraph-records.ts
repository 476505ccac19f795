/**
 * What one LangGraph record is: an `updates` chunk, a debug (or `tasks` / `checkpoints` mode)
 * task, task result or checkpoint, a checkpointer's checkpoint tuple, or something conform does
 * not read. Stream lines may come bare (one stream mode), as `[mode, chunk]` (several modes), or
 * with a namespace first (`subgraphs: true`). Shapes pinned: LangGraph JS 1.7.3; Python's
 * snake_case spellings and `[channel, value]` result pairs are read too.
 */
import { num, obj, own, str } from "./langgraph-json.js";
import { isObject } from "./shared.js";

type Obj = Readonly<Record<string, unknown>>;

/** A task the graph started (debug `task`, `tasks` mode without a result). */
export interface LgTask {
  readonly kind: "task";
  readonly id: string;
  readonly name: string;
  readonly step?: number;
  readonly time?: string;
}

/** A task's result (debug `task_result`, `tasks` mode with `result`/`error`). */
export interface LgTaskResult {
  readonly kind: "task-result";
  readonly id: string;
  readonly name: string;
  readonly step?: number;
  readonly time?: string;
  /** The task's writes as an object, when it wrote any. */
  readonly result?: Obj;
  /** The error's message, when the task failed. */
  readonly error?: string;
  readonly interrupts: number;
}

/** A checkpoint event of a stream (debug `checkpoint`, `checkpoints` mode). */
export interface LgCheckpoint {
  readonly kind: "checkpoint";
  readonly thread?: string;
  readonly ns: string;
  readonly id?: string;
  readonly step?: number;
  readonly source?: string;
  readonly time?: string;
  readonly next: readonly string[];
  readonly tasks: readonly { readonly id: string; readonly name: string }[];
  /** Checkpoint metadata and the run config's metadata, merged (agentflow's run keys live there). */
  readonly metadata: Obj;
}

/** A checkpointer's checkpoint tuple (`getTuple` / `list`). */
export interface LgTuple {
  readonly kind: "tuple";
  readonly thread?: string;
  readonly ns: string;
  readonly id: string;
  readonly parent?: string;
  readonly ts?: string;
  readonly step?: number;
  readonly source?: string;
  readonly channelValues: Obj;
  readonly versionsSeen: Obj;
  /** `[taskId, channel, value]` writes pending on this checkpoint. */
  readonly pendingWrites: readonly (readonly [string, string, unknown])[];
  /** `metadata.writes` (`{node: update}`), which LangGraph before 1.0 saved. */
  readonly writes?: Obj;
  readonly metadata: Obj;
}

/** One record, classified. `skip` and `bad` become unknown events. */
export type LgRecord =
  | { readonly kind: "updates"; readonly chunk: Obj }
  | LgTask
  | LgTaskResult
  | LgCheckpoint
  | LgTuple
  | { readonly kind: "skip"; readonly reason: string }
  /** A chunk that shows no node execution (`values`, `messages`…): not needed, not reported. */
  | { readonly kind: "ignore" }
  | { readonly kind: "bad"; readonly reason: string };

const MODES = ["values", "updates", "debug", "messages", "checkpoints", "tasks", "custom", "tools"];

function configurable(config: unknown): Obj {
  return isObject(config) ? (obj(config, "configurable") ?? {}) : {};
}

/** `result` as an object: JS writes one; Python writes `[channel, value]` pairs. */
function resultObject(value: unknown): Obj | undefined {
  if (isObject(value)) return value;
  if (!Array.isArray(value)) return undefined;
  const out: Record<string, unknown> = {};
  for (const pair of value as unknown[]) {
    if (!Array.isArray(pair) || typeof pair[0] !== "string") return undefined;
    Object.defineProperty(out, pair[0], { value: pair[1], enumerable: true, writable: true });
  }
  return out;
}

function errorText(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "string") return value;
  if (isObject(value)) return str(value, "message") ?? str(value, "name") ?? "error";
  return "error";
}

function taskPayload(p: Obj, step: number | undefined, time: string | undefined): LgRecord {
  const id = str(p, "id");
  const name = str(p, "name");
  if (id === undefined || name === undefined)
    return { kind: "bad", reason: "The task has no string id and name." };
  const base = {
    id,
    name,
    ...(step === undefined ? {} : { step }),
    ...(time === undefined ? {} : { time }),
  };
  const isResult = "result" in p || "error" in p;
  if (!isResult) return { kind: "task", ...base };
  const result = resultObject(own(p, "result"));
  const error = errorText(own(p, "error"));
  const interrupts = own(p, "interrupts");
  return {
    kind: "task-result",
    ...base,
    ...(result === undefined ? {} : { result }),
    ...(error === undefined ? {} : { error }),
    interrupts: Array.isArray(interrupts) ? interrupts.length : 0,
  };
}

function checkpointPayload(p: Obj, step: number | undefined, time: string | undefined): LgRecord {
  const config = own(p, "config");
  const conf = configurable(config);
  const meta = obj(p, "metadata") ?? {};
  const runMeta = isObject(config) ? (obj(config, "metadata") ?? {}) : {};
  const next = own(p, "next");
  const tasks = own(p, "tasks");
  const s = step ?? num(meta, "step");
  const thread = str(conf, "thread_id");
  const id = str(conf, "checkpoint_id");
  const source = str(meta, "source");
  return {
    kind: "checkpoint",
    ns: str(conf, "checkpoint_ns") ?? "",
    next: Array.isArray(next) ? next.filter((n): n is string => typeof n === "string") : [],
    tasks: Array.isArray(tasks)
      ? tasks.flatMap((t) => {
          const tid = isObject(t) ? str(t, "id") : undefined;
          const tname = isObject(t) ? str(t, "name") : undefined;
          return tid !== undefined && tname !== undefined ? [{ id: tid, name: tname }] : [];
        })
      : [],
    metadata: { ...runMeta, ...meta },
    ...(thread === undefined ? {} : { thread }),
    ...(id === undefined ? {} : { id }),
    ...(s === undefined ? {} : { step: s }),
    ...(source === undefined ? {} : { source }),
    ...(time === undefined ? {} : { time }),
  };
}

function debugEvent(v: Obj): LgRecord {
  const type = str(v, "type");
  const payload = obj(v, "payload");
  if (payload === undefined)
    return { kind: "bad", reason: "The debug event has no payload object." };
  const step = num(v, "step");
  const time = str(v, "timestamp");
  if (type === "checkpoint") return checkpointPayload(payload, step, time);
  if (type === "task" || type === "task_result") return taskPayload(payload, step, time);
  return {
    kind: "skip",
    reason: `The debug event type '${String(type)}' is not one conform reads.`,
  };
}

function pendingWrites(value: unknown): [string, string, unknown][] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((w: unknown) =>
    Array.isArray(w) && typeof w[0] === "string" && typeof w[1] === "string"
      ? [[w[0], w[1], w[2]] as [string, string, unknown]]
      : [],
  );
}

function tuple(v: Obj, cp: Obj): LgRecord {
  const conf = configurable(own(v, "config"));
  const parentConf = configurable(own(v, "parentConfig") ?? own(v, "parent_config"));
  const meta = obj(v, "metadata") ?? {};
  const id = str(cp, "id") ?? str(conf, "checkpoint_id");
  if (id === undefined)
    return { kind: "bad", reason: "The checkpoint tuple has no checkpoint id." };
  const thread = str(conf, "thread_id");
  const parent = str(parentConf, "checkpoint_id");
  const ts = str(cp, "ts");
  const step = num(meta, "step");
  const source = str(meta, "source");
  const writes = obj(meta, "writes");
  return {
    kind: "tuple",
    id,
    ns: str(conf, "checkpoint_ns") ?? "",
    channelValues: obj(cp, "channel_values") ?? {},
    versionsSeen: obj(cp, "versions_seen") ?? {},
    pendingWrites: pendingWrites(own(v, "pendingWrites") ?? own(v, "pending_writes")),
    metadata: meta,
    ...(thread === undefined ? {} : { thread }),
    ...(parent === undefined ? {} : { parent }),
    ...(ts === undefined ? {} : { ts }),
    ...(step === undefined ? {} : { step }),
    ...(source === undefined ? {} : { source }),
    ...(writes === undefined ? {} : { writes }),
  };
}

function chunkOf(mode: string, chunk: unknown): LgRecord {
  if (mode === "updates") {
    return isObject(chunk)
      ? { kind: "updates", chunk }
      : { kind: "bad", reason: "The updates chunk is not an object." };
  }
  if (!isObject(chunk)) return { kind: "bad", reason: `The '${mode}' chunk is not an object.` };
  if (mode === "debug") return debugEvent(chunk);
  if (mode === "tasks") return taskPayload(chunk, undefined, undefined);
  if (mode === "checkpoints") return checkpointPayload(chunk, undefined, undefined);
  // A `values` chunk repeats the state the updates built, `messages` streams tokens, `custom`
  // is the graph's own: none shows a node execution, so none is needed (docs/conform/langgraph.md).
  return { kind: "ignore" };
}

function isDebug(v: Obj): boolean {
  const type = str(v, "type");
  return (type === "task" || type === "task_result" || type === "checkpoint") && "payload" in v;
}

/** An array record: `[mode, chunk]`, `[namespace, chunk]` or `[namespace, mode, chunk]`. */
function arrayRecord(v: readonly unknown[]): LgRecord {
  const [first, second, third] = v;
  if (v.length === 2 && typeof first === "string" && MODES.includes(first))
    return chunkOf(first, second);
  if (Array.isArray(first) && first.every((s) => typeof s === "string")) {
    if (first.length > 0)
      return {
        kind: "skip",
        reason: `A subgraph's record (namespace ${first.join("|")}): conform reads the top graph, where the subgraph's node reports its update.`,
      };
    if (v.length === 3 && typeof second === "string" && MODES.includes(second))
      return chunkOf(second, third);
    if (v.length === 2)
      return isObject(second) && isDebug(second) ? debugEvent(second) : chunkOf("updates", second);
  }
  return {
    kind: "bad",
    reason: "The array is not a LangGraph [mode, chunk] or [namespace, mode, chunk] record.",
  };
}

/** Classifies one record's value. */
export function classify(value: unknown): LgRecord {
  if (Array.isArray(value)) return arrayRecord(value);
  if (!isObject(value)) return { kind: "bad", reason: "The record is not a JSON object or array." };
  const cp = obj(value, "checkpoint");
  if (cp !== undefined && "channel_values" in cp) return tuple(value, cp);
  if (isDebug(value)) return debugEvent(value);
  if (isStateSnapshot(value)) {
    return {
      kind: "skip",
      reason:
        "A StateSnapshot (getStateHistory) is not read: conform reads stream events and checkpoint tuples (a checkpointer's list()); read as updates, its keys would be taken for nodes.",
    };
  }
  return { kind: "updates", chunk: value };
}

/** `graph.getStateHistory()`'s shape: `values`, `next`, `config` (and `metadata`, `tasks`…). */
function isStateSnapshot(value: Obj): boolean {
  return "values" in value && Array.isArray(value.next) && isObject(value.config);
}

/** True when `value` looks like a LangGraph record (for sniffing a file's first record). */
export function looksLikeLangGraph(value: unknown): boolean {
  const c = classify(value);
  if (c.kind === "bad") return false;
  if (c.kind !== "updates") return true;
  // A bare updates chunk is any object: claim it only when every key could be a node name and
  // every value is a node's update (an object, null) or the interrupt list.
  const entries = Object.entries(c.chunk);
  return (
    entries.length > 0 &&
    entries.every(([k, u]) =>
      k === "__interrupt__" ? Array.isArray(u) : !/[:|]/.test(k) && (u === null || isObject(u)),
    )
  );
}
