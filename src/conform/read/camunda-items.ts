/**
 * The two record shapes of Camunda 8.10's agent instance history, as the Orchestration Cluster
 * REST API returns them (agent-instances.yaml): an agent instance (`AgentInstanceResult`) and a
 * conversation history item (`AgentInstanceHistoryItemResult`), read into plain data. A search
 * response (`{ items: [...] }`) holds several. agentflow's own keys travel in an OBJECT content
 * block whose keys all start with `agentflow.` (the history has no attribute map).
 */
import type { EventAt, RecordedObject } from "../types.js";
import type { SourceRecord } from "./types.js";
import { eventAt, isObject } from "./shared.js";
import { keyText } from "./zeebe-record.js";

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
  readonly commitStatus?: string;
  readonly produced?: number;
  /** OBJECT content blocks that are JSON objects and not agentflow's annotation. */
  readonly objects: readonly RecordedObject[];
  /** agentflow's own keys from annotation blocks (later blocks win). */
  readonly annotation: RecordedObject;
  readonly toolCalls: readonly ToolCall[];
  readonly tokens?: number;
  readonly durationMs?: number;
  readonly model?: string;
  readonly provider?: string;
  /** The system prompt's TEXT blocks joined by a newline; absent when it has none. */
  readonly systemPrompt?: string;
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
  const definition = isObject(raw.definition) ? raw.definition : {};
  const fields = {
    processInstanceKey: keyText(raw.processInstanceKey),
    elementId: text(raw.elementId),
    processDefinitionId: text(raw.processDefinitionId),
    status: text(raw.status),
    created: msOf(raw.creationDate),
    completed: msOf(raw.completionDate),
    model: text(definition.model),
    provider: text(definition.provider),
    systemPrompt: text(definition.systemPrompt),
  };
  return {
    shape: "instance",
    run,
    ...defined(fields),
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

function promptOf(blocks: unknown): string | undefined {
  if (!Array.isArray(blocks)) return undefined;
  const texts: string[] = [];
  for (const block of blocks) {
    if (isObject(block) && block.contentType === "TEXT" && typeof block.text === "string") {
      texts.push(block.text);
    }
  }
  return texts.length === 0 ? undefined : texts.join("\n");
}

function toolCallsOf(value: unknown): ToolCall[] | string {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return "toolCalls is not an array";
  const calls: ToolCall[] = [];
  for (const call of value) {
    if (
      !isObject(call) ||
      typeof call.toolCallId !== "string" ||
      typeof call.toolName !== "string"
    ) {
      return "a tool call has no toolCallId or toolName";
    }
    const elementId = text(call.elementId);
    calls.push({
      id: call.toolCallId,
      name: call.toolName,
      ...(elementId === undefined ? {} : { elementId }),
      ...(isObject(call.arguments) ? { args: call.arguments } : {}),
    });
  }
  return calls;
}

function tokensOf(metrics: unknown): { tokens?: number; durationMs?: number } {
  if (!isObject(metrics)) return {};
  const counts = [metrics.inputTokens, metrics.outputTokens].filter(
    (n): n is number => typeof n === "number" && Number.isFinite(n),
  );
  const duration = metrics.durationMs;
  return {
    ...(counts.length === 0 ? {} : { tokens: counts.reduce((a, b) => a + b, 0) }),
    ...(typeof duration === "number" && Number.isFinite(duration) ? { durationMs: duration } : {}),
  };
}

function readItem(record: SourceRecord, raw: Json, run: string): HistoryItem | Unreadable {
  const at = atOf(record, raw, ITEM_IDS, raw.producedAt);
  const key = keyText(raw.historyItemKey);
  const role = text(raw.role);
  const calls = toolCallsOf(raw.toolCalls);
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
    commitStatus: text(raw.commitStatus),
    produced: msOf(raw.producedAt),
    model: text(raw.model),
    provider: text(raw.provider),
    systemPrompt: promptOf(raw.systemPrompt),
    ...tokensOf(raw.metrics),
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
