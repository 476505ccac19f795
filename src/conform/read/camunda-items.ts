/**
 * The two record shapes of Camunda 8.10's agent instance history, as the Orchestration Cluster
 * REST API returns them (agent-instances.yaml): an agent instance (`AgentInstanceResult`) and a
 * conversation history item (`AgentInstanceHistoryItemResult`), read into plain data. A search
 * response (`{ items: [...] }`) holds several. agentflow's own keys travel in an OBJECT content
 * block whose keys all start with `agentflow.` (the history has no attribute map).
 */
import type { EventAt, RecordedObject } from "../types.js";
import type { SourceRecord } from "./types.js";
import { eventAt, isObject, notText } from "./shared.js";
import { keyText } from "./zeebe-record.js";
import { tokensOf } from "./camunda-metrics.js";
import { commitStatusOf, type CommitStatus, type Unread } from "./camunda-status.js";

/** An agent instance: the run, its process link, its definition and status. */
export interface AgentInstance {
  readonly shape: "instance";
  readonly run: string;
  readonly processInstanceKey?: string;
  readonly elementId?: string;
  readonly processDefinitionId?: string;
  readonly status?: string;
  readonly created?: number;
  readonly completed?: number;
  readonly model?: string;
  readonly provider?: string;
  readonly systemPrompt?: string;
  /** Fields recorded and unreadable (see {@link Unread}). */
  readonly unread: readonly Unread[];
  readonly at: EventAt;
}

/** One tool call of an ASSISTANT or TOOL_RESULT item. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly elementId?: string;
  readonly args?: RecordedObject;
}

/** One conversation history item. */
export interface HistoryItem {
  readonly shape: "item";
  readonly run: string;
  /** `historyItemKey`, the engine's creation order. */
  readonly key: string;
  readonly role: string;
  /** Absent when the item does not record one Camunda defines (then `unread` says so). */
  readonly commitStatus?: CommitStatus;
  readonly produced?: number;
  /** OBJECT content blocks that are JSON objects and not agentflow's annotation. */
  readonly objects: readonly RecordedObject[];
  /** agentflow's own keys from annotation blocks (later blocks win). */
  readonly annotation: RecordedObject;
  readonly toolCalls: readonly ToolCall[];
  readonly tokens?: number;
  /** Only one of `inputTokens` and `outputTokens` was recorded: `tokens` is a lower bound. */
  readonly tokensPartial?: boolean;
  readonly durationMs?: number;
  readonly model?: string;
  readonly provider?: string;
  /** The system prompt's TEXT blocks joined by a newline; absent when it has none. */
  readonly systemPrompt?: string;
  /** Fields recorded and unreadable (see {@link Unread}). */
  readonly unread: readonly Unread[];
  readonly at: EventAt;
}

/** A record that is neither shape, with why. */
export interface Unreadable {
  readonly shape: "unreadable";
  readonly run?: string;
  readonly reason: string;
  readonly at: EventAt;
}

/** What one record (or one element of a search response) is. */
export type CamundaRead = AgentInstance | HistoryItem | Unreadable;

type Json = Readonly<Record<string, unknown>>;

/** Epoch milliseconds of an ISO 8601 date-time, when it is one. */
export function msOf(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** `fields` without its undefined entries, typed as the optional fields they fill. */
function defined<T extends object>(fields: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) out[key] = value;
  return out as { [K in keyof T]?: Exclude<T[K], undefined> };
}

const text = (value: unknown): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined;

/**
 * A text field of `raw`: its text; `undefined` when it is null or absent (the API's "not set"),
 * or `""` where `empty` says the API writes that for "not set" (an instance's `definition`,
 * whose fields are required and empty once a CONFIGURATION item sets them). Anything else is
 * recorded in `unread` under `name`, never taken for absent.
 */
function textField(
  raw: Json,
  key: string,
  unread: Unread[],
  name: string = key,
  empty: "unset" | "unread" = "unread",
): string | undefined {
  const value = raw[key];
  if (value === undefined || value === null || (value === "" && empty === "unset"))
    return undefined;
  const why = notText(value);
  if (why === undefined) return value as string;
  unread.push({ field: name, why });
  return undefined;
}

/** True for a history item or an agent instance (the shapes `sniff` accepts). */
export function isCamundaShape(value: unknown): boolean {
  if (!isObject(value)) return false;
  if (Array.isArray(value.items)) return value.items.length > 0 && isCamundaShape(value.items[0]);
  if (keyText(value.agentInstanceKey) === undefined) return false;
  return "historyItemKey" in value || ("processInstanceKey" in value && "definition" in value);
}

function atOf(record: SourceRecord, raw: Json, names: readonly string[], time: unknown): EventAt {
  const ids: Record<string, string> = {};
  for (const name of names) {
    const value = keyText(raw[name]) ?? text(raw[name]);
    if (value !== undefined) ids[name] = value;
  }
  return eventAt(record, msOf(time) === undefined ? undefined : (time as string), ids);
}

const INSTANCE_IDS = ["agentInstanceKey", "processInstanceKey", "elementId"];
const ITEM_IDS = ["agentInstanceKey", "historyItemKey", "historyItemId", "elementInstanceKey"];

function readInstance(record: SourceRecord, raw: Json, run: string): AgentInstance {
  const unread: Unread[] = [];
  const definition = isObject(raw.definition) ? raw.definition : {};
  if (raw.definition !== undefined && raw.definition !== null && !isObject(raw.definition))
    unread.push({ field: "definition", why: "is not an object" });
  const processInstanceKey = keyText(raw.processInstanceKey);
  if (
    processInstanceKey === undefined &&
    raw.processInstanceKey !== undefined &&
    raw.processInstanceKey !== null
  )
    unread.push({ field: "processInstanceKey", why: "is not a key" });
  const fields = {
    processInstanceKey,
    elementId: textField(raw, "elementId", unread),
    processDefinitionId: textField(raw, "processDefinitionId", unread),
    status: textField(raw, "status", unread),
    created: msOf(raw.creationDate),
    completed: msOf(raw.completionDate),
    model: textField(definition, "model", unread, "definition.model", "unset"),
    provider: textField(definition, "provider", unread, "definition.provider", "unset"),
    systemPrompt: textField(definition, "systemPrompt", unread, "definition.systemPrompt", "unset"),
  };
  return {
    shape: "instance",
    run,
    ...defined(fields),
    unread,
    at: atOf(record, raw, INSTANCE_IDS, raw.creationDate),
  };
}

const isAnnotation = (object: Json): boolean => {
  const keys = Object.keys(object);
  return keys.length > 0 && keys.every((k) => k.startsWith("agentflow."));
};

function contentOf(blocks: unknown): { objects: RecordedObject[]; annotation: Json } {
  const objects: RecordedObject[] = [];
  let annotation: Json = {};
  if (!Array.isArray(blocks)) return { objects, annotation };
  for (const block of blocks) {
    if (!isObject(block) || block.contentType !== "OBJECT" || !isObject(block.object)) continue;
    if (isAnnotation(block.object)) annotation = { ...annotation, ...block.object };
    else objects.push(block.object);
  }
  return { objects, annotation };
}

/**
 * The system prompt's TEXT blocks joined by a newline; a prompt that is no list, or a TEXT block
 * whose text is not text, goes to `unread`.
 */
function promptOf(blocks: unknown, unread: Unread[]): string | undefined {
  if (blocks === undefined || blocks === null) return undefined;
  if (!Array.isArray(blocks)) {
    unread.push({ field: "systemPrompt", why: "is not a list of content blocks" });
    return undefined;
  }
  const texts: string[] = [];
  for (const block of blocks) {
    if (!isObject(block) || block.contentType !== "TEXT") continue;
    if (typeof block.text === "string") texts.push(block.text);
    else unread.push({ field: "systemPrompt", why: "has a TEXT block whose text is not text" });
  }
  return texts.length === 0 ? undefined : texts.join("\n");
}

function toolCallsOf(value: unknown, unread: Unread[]): ToolCall[] | string {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return "toolCalls is not an array";
  const calls: ToolCall[] = [];
  for (const [i, call] of value.entries()) {
    if (
      !isObject(call) ||
      typeof call.toolCallId !== "string" ||
      typeof call.toolName !== "string"
    ) {
      return "a tool call has no toolCallId or toolName";
    }
    // The element id names the tool the process ran: one that cannot be read is no absent one.
    const elementId = textField(call, "elementId", unread, `toolCalls[${String(i)}].elementId`);
    calls.push({
      id: call.toolCallId,
      name: call.toolName,
      ...(elementId === undefined ? {} : { elementId }),
      ...(isObject(call.arguments) ? { args: call.arguments } : {}),
    });
  }
  return calls;
}

function readItem(record: SourceRecord, raw: Json, run: string): HistoryItem | Unreadable {
  const at = atOf(record, raw, ITEM_IDS, raw.producedAt);
  const unread: Unread[] = [];
  const key = keyText(raw.historyItemKey);
  const role = text(raw.role);
  const calls = toolCallsOf(raw.toolCalls, unread);
  const cannot = (why: string): Unreadable => ({
    shape: "unreadable",
    run,
    reason: `The history item cannot be read: ${why}.`,
    at,
  });
  if (key === undefined) return cannot("historyItemKey is not a key");
  if (role === undefined) return cannot("role is missing");
  if (typeof calls === "string") return cannot(calls);
  const { objects, annotation } = contentOf(raw.content);
  const optional = {
    commitStatus: commitStatusOf(raw.commitStatus, role, unread),
    produced: msOf(raw.producedAt),
    model: textField(raw, "model", unread),
    provider: textField(raw, "provider", unread),
    systemPrompt: promptOf(raw.systemPrompt, unread),
    ...tokensOf(raw.metrics, unread),
  };
  return {
    shape: "item",
    run,
    key,
    role,
    objects,
    annotation,
    toolCalls: calls,
    ...defined(optional),
    unread,
    at,
  };
}

/** Reads one record, or the elements of a search response, in order. */
export function readCamundaRecord(record: SourceRecord): CamundaRead[] {
  const raw = record.value;
  if (isObject(raw) && Array.isArray(raw.items)) {
    return raw.items.flatMap((item: unknown) => readCamundaRecord({ ...record, value: item }));
  }
  if (!isObject(raw)) {
    const at = atOf(record, {}, [], undefined);
    return [{ shape: "unreadable", reason: "The record is not a JSON object.", at }];
  }
  const run = keyText(raw.agentInstanceKey);
  if (run === undefined) {
    const at = atOf(record, raw, ITEM_IDS, undefined);
    const reason =
      "The record has no agentInstanceKey: it is neither an agent instance nor a history item.";
    return [{ shape: "unreadable", reason, at }];
  }
  if ("historyItemKey" in raw || "role" in raw) return [readItem(record, raw, run)];
  return [readInstance(record, raw, run)];
}
