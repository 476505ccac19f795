/**
 * One agent instance's records turned into run events: the run starts (with its process link),
 * each model call (ASSISTANT item) is an llm step, each tool result (TOOL_RESULT item) a tool
 * step with the arguments the model gave, CONFIGURATION items set the identity the next model
 * calls carry, and a COMPLETED instance ends the run. Items are taken in the engine's creation
 * order (`historyItemKey`), whatever order the file holds them in.
 */
import { sha256 } from "../../model/index.js";
import type { RecordedObject, RunEvent, StepEvent, StepIdentity, UnknownEvent } from "../types.js";
import type { AgentInstance, HistoryItem, ToolCall } from "./camunda-items.js";
import { costOf, jsonObject, notText } from "./shared.js";

/** What the reader holds of one open run. */
export interface HeldRun {
  instance?: AgentInstance;
  readonly items: HistoryItem[];
  /** The `historyItemKey`s held, to tell a repeated item (overlapping pages) from a new one. */
  readonly keys: Set<string>;
}

interface Identity {
  model?: string;
  provider?: string;
  promptSha256?: string;
}

const byCreation = (a: HistoryItem, b: HistoryItem): number => {
  const ka = BigInt(a.key);
  const kb = BigInt(b.key);
  if (ka !== kb) return ka < kb ? -1 : 1;
  return (a.produced ?? 0) - (b.produced ?? 0) || a.at.index - b.at.index;
};

const str = (object: RecordedObject, key: string): string | undefined => {
  const value = object[key];
  return typeof value === "string" && value !== "" ? value : undefined;
};

function unknown(run: string, item: HistoryItem, reason: string, cls: UnknownEvent["class"]) {
  const event: UnknownEvent = { kind: "unknown", run, reason, class: cls, at: item.at };
  return event;
}

function costs(annotation: RecordedObject): Record<string, number> | undefined {
  const cost: Record<string, number> = {};
  for (const [key, value] of Object.entries(annotation)) {
    const read = costOf(key, value);
    if (typeof read === "object") cost[read.code] = read.amount;
  }
  return Object.keys(cost).length === 0 ? undefined : cost;
}

/** The output a step recorded: one OBJECT block, else `agentflow.node.output` (JSON text). */
function outputOf(item: HistoryItem): RecordedObject | "ambiguous" | undefined {
  if (item.objects.length > 1) return "ambiguous";
  if (item.objects[0] !== undefined) return item.objects[0];
  const read = annotatedOutput(item);
  return typeof read === "string" ? undefined : read;
}

/** `agentflow.node.output` as read, or why it cannot be; `undefined` when there is none. */
function annotatedOutput(item: HistoryItem): RecordedObject | string | undefined {
  const value = item.annotation["agentflow.node.output"];
  return value === undefined ? undefined : jsonObject(value);
}

/**
 * An `agentflow.node.output` that is no JSON object, and a cost that cannot be read, each said
 * as a record that could not be read (as the OTLP and LangGraph readers say them): dropped
 * silently, a routing decision would be taken on no output, a budget judged on part of the
 * spending. The step itself is still read, without them.
 */
function unreadableKeys(run: string, item: HistoryItem): UnknownEvent[] {
  const node = str(item.annotation, "agentflow.node.id");
  const of = node === undefined ? `the ${item.role} item` : `node '${node}'`;
  const found: UnknownEvent[] = [];
  const read = item.objects.length > 0 ? undefined : annotatedOutput(item);
  if (typeof read === "string")
    found.push(
      unknown(run, item, `agentflow.node.output of ${of} is unreadable: ${read}.`, "unknown"),
    );
  for (const [key, value] of Object.entries(item.annotation)) {
    const cost = costOf(key, value);
    if (typeof cost === "string") found.push(unknown(run, item, `${cost}, on ${of}.`, "unknown"));
  }
  return found;
}

/** agentflow's keys that name what a check compares: present, they must be text. */
const TEXT_KEYS = [
  "agentflow.node.id",
  "agentflow.workflow",
  "agentflow.prompt.ref",
  "agentflow.prompt.sha256",
];

/**
 * What of an item (or of the agent instance) is recorded and cannot be read: its fields of the
 * wrong shape, and agentflow's text keys that are not text. Each is a record not read, never an
 * absent field: a model given as an object would otherwise leave the model calls unchecked.
 */
function unreadFields(
  run: string,
  read: HistoryItem | AgentInstance,
  what: string,
): UnknownEvent[] {
  const found = read.unread.map(({ field, why }) => ({
    kind: "unknown" as const,
    run,
    class: "unknown" as const,
    reason: `${field} of ${what} ${why}.`,
    at: read.at,
  }));
  if (read.shape === "item") {
    for (const key of TEXT_KEYS) {
      const value = read.annotation[key];
      const why = value === undefined ? undefined : notText(value);
      if (why !== undefined)
        found.push({
          kind: "unknown",
          run,
          class: "unknown",
          reason: `${key} of ${what} ${why}.`,
          at: read.at,
        });
    }
  }
  return found;
}

function identityOf(current: Identity, item: HistoryItem): StepIdentity | undefined {
  const promptRef = str(item.annotation, "agentflow.prompt.ref");
  const digest = current.promptSha256 ?? str(item.annotation, "agentflow.prompt.sha256");
  const identity: StepIdentity = {
    ...(current.model === undefined ? {} : { model: current.model }),
    ...(current.provider === undefined ? {} : { provider: current.provider }),
    ...(promptRef === undefined ? {} : { promptRef }),
    ...(digest === undefined ? {} : { promptSha256: digest }),
  };
  return Object.keys(identity).length === 0 ? undefined : identity;
}

function step(run: string, item: HistoryItem, nodeType: "llm" | "tool"): StepEvent | UnknownEvent {
  const output = outputOf(item);
  if (output === "ambiguous") {
    const reason = `The ${item.role} item holds ${item.objects.length} OBJECT blocks, so which is the output is ambiguous.`;
    return unknown(run, item, reason, "ambiguous");
  }
  const node = str(item.annotation, "agentflow.node.id");
  const cost = costs(item.annotation);
  const end = item.produced;
  const start = end === undefined || item.durationMs === undefined ? end : end - item.durationMs;
  return {
    kind: "step",
    run,
    nodeType,
    ...(node === undefined ? {} : { node }),
    // A DISCARDED item was produced by a job activation that failed and was retried; a status
    // not read is said beside the step, read as committed (the stricter reading).
    status: item.commitStatus === "DISCARDED" ? "error" : "ok",
    ...(output === undefined ? {} : { output }),
    ...(item.tokens === undefined ? {} : { tokens: item.tokens }),
    ...(item.tokensPartial === true ? { tokensPartial: true } : {}),
    ...(cost === undefined ? {} : { cost }),
    ...(start === undefined ? {} : { start }),
    ...(end === undefined ? {} : { end }),
    at: item.at,
  };
}

const toolOf = (call: ToolCall): string => call.elementId ?? call.name;

/** Whether two records of one call name the same tool: its name, and its element where both say. */
const sameTool = (a: ToolCall, b: ToolCall): boolean =>
  a.name === b.name &&
  (a.elementId === undefined || b.elementId === undefined || a.elementId === b.elementId);

/**
 * The tool step a TOOL_RESULT item means. A result naming another tool than the call it answers
 * is not read: which tool ran is then not known, and taking either could hide the other.
 */
function toolStep(run: string, item: HistoryItem, call: ToolCall, asked?: Asked): RunEvent {
  if (asked !== undefined && !sameTool(asked.call, call)) {
    const reason = `The TOOL_RESULT item answers call '${call.id}' as tool '${toolOf(call)}', but the call asked for tool '${toolOf(asked.call)}', so which tool ran is ambiguous.`;
    return unknown(run, item, reason, "ambiguous");
  }
  const base = step(run, item, "tool");
  if (base.kind === "unknown") return base;
  const args = call.args ?? asked?.call.args;
  const start = asked?.item.produced ?? base.start;
  return {
    ...base,
    tool: toolOf(call),
    ...(args === undefined ? {} : { args }),
    ...(start === undefined ? {} : { start }),
  };
}

interface Asked {
  readonly item: HistoryItem;
  readonly call: ToolCall;
}

/**
 * A CONFIGURATION item sets what the next model calls carry. A field it records and cannot read
 * leaves that field unknown from here on, rather than the value before it: the calls after it
 * are not checked against a model the configuration may have changed.
 */
function configure(current: Identity, item: HistoryItem): void {
  const unread = new Set(item.unread.map((u) => u.field));
  if (item.model !== undefined) current.model = item.model;
  else if (unread.has("model")) delete current.model;
  if (item.provider !== undefined) current.provider = item.provider;
  else if (unread.has("provider")) delete current.provider;
  if (item.systemPrompt !== undefined) current.promptSha256 = sha256(item.systemPrompt);
  else if (unread.has("systemPrompt")) delete current.promptSha256;
}

/** A dispatched tool call no TOOL_RESULT answers: it ran, or may have, with no result. */
function unanswered(run: string, item: HistoryItem, call: ToolCall): StepEvent {
  const at = item.produced;
  return {
    kind: "step",
    run,
    nodeType: "tool",
    tool: toolOf(call),
    status: "error",
    ...(call.args === undefined ? {} : { args: call.args }),
    ...(at === undefined ? {} : { start: at }),
    at: item.at,
  };
}

function assistant(run: string, item: HistoryItem, current: Identity, answered: Set<string>) {
  const base = step(run, item, "llm");
  if (base.kind === "unknown") return [base];
  const identity = identityOf(current, item);
  const events: RunEvent[] = [{ ...base, ...(identity === undefined ? {} : { identity }) }];
  // A call of an item that may have committed (its status unread too) may have run.
  if (item.commitStatus === "PENDING" || item.commitStatus === "DISCARDED") return events;
  for (const call of item.toolCalls) {
    if (!answered.has(call.id)) events.push(unanswered(run, item, call));
  }
  return events;
}

function toolResult(run: string, item: HistoryItem, asked: Map<string, Asked>): RunEvent {
  const [call, ...more] = item.toolCalls;
  if (call === undefined) {
    return unknown(run, item, "The TOOL_RESULT item names no tool call.", "unknown");
  }
  if (more.length > 0) {
    const reason = `The TOOL_RESULT item names ${item.toolCalls.length} tool calls, so which one it answers is ambiguous.`;
    return unknown(run, item, reason, "ambiguous");
  }
  return toolStep(run, item, call, asked.get(call.id));
}

function startOf(run: string, held: HeldRun, first: HistoryItem | undefined): RunEvent[] {
  const instance = held.instance;
  const at = instance?.at ?? first?.at;
  if (at === undefined) return [];
  const workflows = new Set(
    held.items.flatMap((i) => str(i.annotation, "agentflow.workflow") ?? []),
  );
  const time = instance?.created ?? first?.produced;
  const link = instance?.processInstanceKey;
  const events: RunEvent[] = [
    {
      kind: "run-start",
      run,
      ...(workflows.size === 1 ? { workflow: [...workflows][0] ?? "" } : {}),
      ...(time === undefined ? {} : { time }),
      ...(link === undefined
        ? {}
        : {
            process: {
              instance: link,
              ...(instance?.elementId === undefined ? {} : { element: instance.elementId }),
              ...(instance?.processDefinitionId === undefined
                ? {}
                : { process: instance.processDefinitionId }),
            },
          }),
      at,
    },
  ];
  if (workflows.size > 1) {
    const reason = `The run names ${workflows.size} workflows (${[...workflows].join(", ")}), so which one it ran is ambiguous.`;
    events.push({ kind: "unknown", run, class: "ambiguous", reason, at });
  }
  if (instance !== undefined) events.push(...unreadFields(run, instance, "the agent instance"));
  return events;
}

/** The run's events, in creation order; the run ends when the instance says COMPLETED. */
export function runEvents(run: string, held: HeldRun): { events: RunEvent[]; skipped: number } {
  const items = [...held.items].sort(byCreation);
  const events = startOf(run, held, items[0]);
  const instance = held.instance;
  const current: Identity = {
    ...(instance?.model === undefined ? {} : { model: instance.model }),
    ...(instance?.provider === undefined ? {} : { provider: instance.provider }),
    ...(instance?.systemPrompt === undefined
      ? {}
      : { promptSha256: sha256(instance.systemPrompt) }),
  };
  const answered = new Set(
    items.flatMap((i) => (i.role === "TOOL_RESULT" ? i.toolCalls.map((c) => c.id) : [])),
  );
  const asked = new Map<string, Asked>();
  let skipped = 0;
  for (const item of items) {
    events.push(...unreadFields(run, item, `the ${item.role} item`));
    if (item.role === "CONFIGURATION") configure(current, item);
    else if (item.role === "USER") skipped += 1;
    else if (item.role === "ASSISTANT") {
      for (const call of item.toolCalls) asked.set(call.id, { item, call });
      events.push(...unreadableKeys(run, item), ...assistant(run, item, current, answered));
    } else if (item.role === "TOOL_RESULT")
      events.push(...unreadableKeys(run, item), toolResult(run, item, asked));
    else
      events.push(
        unknown(
          run,
          item,
          `The history item's role ${item.role} is not one Camunda 8.10 defines.`,
          "unknown",
        ),
      );
  }
  if (instance?.status === "COMPLETED") {
    events.push({
      kind: "run-end",
      run,
      status: "completed",
      ...(instance.completed === undefined ? {} : { time: instance.completed }),
      at: instance.at,
    });
  }
  return { events, skipped };
}
