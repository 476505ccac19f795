/**
 * Checkpoint tuples as a checkpointer saved them (`list()` gives them newest first). A thread's
 * checkpoints are held until they form a chain, from one with nothing left to run back to the
 * first, then read in step order: the nodes that ran in step k are those whose `versions_seen`
 * changed from checkpoint k-1 to k (or `metadata.writes`, which LangGraph before 1.0 saved), and
 * their output is the writes pending on checkpoint k-1. What runs next is the `branch:to:<node>`
 * channels a v4 checkpoint holds.
 */
import type { EventAt, RunEvent } from "../types.js";
import { epochMs, own } from "./langgraph-json.js";
import { isObject } from "./shared.js";
import type { LgTuple } from "./langgraph-records.js";
import { HeldRun } from "./langgraph-run.js";
import { unknownOf } from "./langgraph-steps.js";

interface Held {
  readonly tuple: LgTuple;
  readonly at: EventAt;
}

interface Thread {
  readonly held: Map<string, Held>;
  /** Checkpoints waiting for their parent, by the parent's id. */
  readonly waiting: Map<string, number>;
  terminal: boolean;
}

const INTERNAL = /^(__.*__|branch:.*|start:.*|join:.*)$/;

/** The nodes a checkpoint has left to run. */
function pending(t: LgTuple): string[] {
  const out: string[] = [];
  for (const k of Object.keys(t.channelValues))
    if (k.startsWith("branch:to:")) out.push(k.slice("branch:to:".length));
    else if (k === "__start__") out.push(k);
  return out;
}

function seenChanged(prev: LgTuple, cur: LgTuple): string[] {
  const out: string[] = [];
  for (const [node, seen] of Object.entries(cur.versionsSeen)) {
    if (node === "__input__" || node === "__start__") continue;
    if (JSON.stringify(seen) !== JSON.stringify(own(prev.versionsSeen, node))) out.push(node);
  }
  return out;
}

/** The writes pending on `t`, by task id, without LangGraph's own channels. */
function writesByTask(t: LgTuple): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const [task, channel, value] of t.pendingWrites) {
    if (INTERNAL.test(channel)) continue;
    const writes = out.get(task) ?? {};
    Object.defineProperty(writes, channel, { value, enumerable: true, writable: true });
    out.set(task, writes);
  }
  return out;
}

function special(t: LgTuple, channel: string): unknown {
  return t.pendingWrites.find((w) => w[1] === channel)?.[2];
}

/** One step (k-1 → k) of a thread into the run. */
function stepInto(run: HeldRun, prev: Held, cur: Held): void {
  const step = cur.tuple.step;
  if (cur.tuple.source !== "loop") {
    run.event(
      unknownOf(
        run.id,
        cur.at,
        `A checkpoint of source '${String(cur.tuple.source)}' (a state edited by hand, not a node that ran).`,
      ),
      step,
    );
    return;
  }
  const writes = cur.tuple.writes;
  if (writes !== undefined) {
    for (const [name, update] of Object.entries(writes)) run.update(name, update, cur.at);
    return;
  }
  const nodes = seenChanged(prev.tuple, cur.tuple);
  const byTask = [...writesByTask(prev.tuple).values()];
  if (nodes.length === 1 && byTask.length <= 1) {
    run.update(nodes[0] ?? "", byTask[0] ?? {}, cur.at);
    return;
  }
  for (const name of nodes) run.update(name, null, cur.at);
  if (nodes.length > 1)
    run.event(
      unknownOf(
        run.id,
        cur.at,
        `Nodes ${nodes.join(", ")} ran in one step; their writes cannot be told apart, so no output is read.`,
        "ambiguous",
      ),
      step,
    );
}

function errorText(error: unknown): string {
  if (typeof error === "string") return error;
  const message = isObject(error) ? own(error, "message") : undefined;
  return typeof message === "string" ? message : "an error";
}

/** What the last checkpoint of a chain says: an error or interrupt pending on its next node. */
function lastInto(run: HeldRun, last: Held): void {
  const next = pending(last.tuple);
  const error = special(last.tuple, "__error__");
  const name = next.length === 1 ? next[0] : undefined;
  if (error !== undefined && name !== undefined) {
    run.event(
      unknownOf(run.id, last.at, `Node '${name}' failed: ${errorText(error)}.`),
      last.tuple.step,
    );
    run.ended = { status: "failed", at: last.at };
  } else if (special(last.tuple, "__interrupt__") !== undefined)
    run.event(
      unknownOf(
        run.id,
        last.at,
        `The run paused for a human (an interrupt pending on ${next.join(", ")}).`,
      ),
      last.tuple.step,
    );
  else if (next.length === 0) {
    const time = epochMs(last.tuple.ts);
    run.ended = { status: "completed", at: last.at, ...(time === undefined ? {} : { time }) };
  }
}

/** A thread's checkpoints in step order, split into runs at each new input. */
function threadEvents(id: string, thread: Thread): RunEvent[] {
  const held = [...thread.held.values()].sort(
    (a, b) =>
      (a.tuple.step ?? 0) - (b.tuple.step ?? 0) ||
      (epochMs(a.tuple.ts) ?? 0) - (epochMs(b.tuple.ts) ?? 0) ||
      a.at.index - b.at.index,
  );
  const out: RunEvent[] = [];
  let run: HeldRun | undefined;
  let prev: Held | undefined;
  const finish = () => {
    if (run === undefined || prev === undefined) return;
    lastInto(run, prev);
    out.push(...run.events());
  };
  for (const h of held) {
    if (run === undefined || h.tuple.source === "input") {
      finish();
      run = new HeldRun(id);
      run.begin(h.at, epochMs(h.tuple.ts));
      run.metadata(h.tuple.metadata, h.at, h.tuple.step);
    } else if (prev !== undefined) stepInto(run, prev, h);
    if (h.tuple.step !== undefined) run.step = h.tuple.step;
    prev = h;
  }
  finish();
  return out;
}

/** The tuple side of the LangGraph reader. */
export function createTupleReader(): {
  push(t: LgTuple, at: EventAt): RunEvent[];
  end(): RunEvent[];
} {
  const threads = new Map<string, Thread>();
  // The last checkpoint of each thread already given: a later invocation's first one names it.
  const done = new Map<string, string>();
  return {
    push(t, at) {
      if (t.ns !== "")
        return [
          unknownOf(
            t.thread,
            at,
            `A subgraph's checkpoint (namespace ${t.ns}): conform reads the top graph.`,
          ),
        ];
      const key = t.thread ?? at.file ?? "langgraph";
      const thread = threads.get(key) ?? {
        held: new Map<string, Held>(),
        waiting: new Map<string, number>(),
        terminal: false,
      };
      threads.set(key, thread);
      if (thread.held.has(t.id))
        return [unknownOf(t.thread, at, `Checkpoint ${t.id} is in the file twice.`, "ambiguous")];
      thread.held.set(t.id, { tuple: t, at });
      const parent = t.parent;
      if (parent !== undefined && !thread.held.has(parent) && done.get(key) !== parent)
        thread.waiting.set(parent, (thread.waiting.get(parent) ?? 0) + 1);
      thread.waiting.delete(t.id);
      if (pending(t).length === 0 && t.source !== "input") thread.terminal = true;
      if (!thread.terminal || thread.waiting.size > 0) return [];
      threads.delete(key);
      const newest = [...thread.held.values()].reduce((a, b) =>
        (b.tuple.step ?? 0) > (a.tuple.step ?? 0) ? b : a,
      );
      done.set(key, newest.tuple.id);
      return threadEvents(key, thread);
    },
    end() {
      const out: RunEvent[] = [];
      for (const [key, thread] of threads) out.push(...threadEvents(key, thread));
      threads.clear();
      return out;
    },
  };
}
