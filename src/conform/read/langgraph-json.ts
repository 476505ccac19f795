/**
 * Small readers of LangGraph's JSON values: guards, times, and agentflow's own keys in a node's
 * update. A LangGraph record is whatever `JSON.stringify` made of the stream or checkpointer, so
 * every field is checked, never assumed.
 */
import type { RecordedObject } from "../types.js";
import { costOf, dataProp, isObject, notText } from "./shared.js";

/** The value of own key `key` (never an inherited member such as `constructor`). */
export function own(obj: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}

/** An own string field, else undefined. */
export function str(obj: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const v = own(obj, key);
  return typeof v === "string" ? v : undefined;
}

/** An own finite number field, else undefined. */
export function num(obj: Readonly<Record<string, unknown>>, key: string): number | undefined {
  const v = own(obj, key);
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

/** An own object field, else undefined. */
export function obj(
  o: Readonly<Record<string, unknown>>,
  key: string,
): Readonly<Record<string, unknown>> | undefined {
  const v = own(o, key);
  return isObject(v) ? v : undefined;
}

/** Epoch milliseconds of an ISO 8601 time, or undefined when it is not one. */
export function epochMs(iso: string | undefined): number | undefined {
  if (iso === undefined) return undefined;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}

/** agentflow's keys a node's update may carry where LangGraph has no field (docs/conform/langgraph.md). */
export interface AgentflowKeys {
  node?: string;
  nodeType?: "llm" | "tool";
  /** `agentflow.node.output` as given: JSON text of the structured output (or an object). */
  output?: unknown;
  args?: unknown;
  route?: string;
  next?: string;
  identity: { promptRef?: string; promptSha256?: string };
  cost?: Record<string, number>;
  /** Why keys that decide a verdict (a cost, a name) could not be read: each is a record not read. */
  problems: string[];
  /** Run-level keys: `agentflow.workflow`, `agentflow.process.*`, `agentflow.bpmn.*`. */
  run: Record<string, string>;
}

/** The run-level agentflow keys, read wherever a run's metadata may hold them. */
export const RUN_KEYS = [
  "agentflow.workflow",
  "agentflow.process.instance",
  "agentflow.bpmn.element",
  "agentflow.bpmn.process",
];

/** Splits an update into agentflow's keys and the rest (the node's own output). */
export function splitAgentflow(update: Readonly<Record<string, unknown>>): {
  keys: AgentflowKeys;
  rest: RecordedObject;
  any: boolean;
} {
  const keys: AgentflowKeys = { identity: {}, run: {}, problems: [] };
  const rest: Record<string, unknown> = {};
  let any = false;
  for (const [k, v] of Object.entries(update)) {
    if (!k.startsWith("agentflow.")) {
      Object.defineProperty(rest, k, dataProp(v));
      continue;
    }
    any = true;
    readKey(keys, k, v);
  }
  return { keys, rest, any };
}

/** agentflow's keys whose value must be text: each names something a check compares. */
const TEXT_KEYS = new Set([
  "agentflow.node.id",
  "agentflow.node.type",
  "agentflow.route.label",
  "agentflow.route.next",
  "agentflow.prompt.ref",
  "agentflow.prompt.sha256",
  ...RUN_KEYS,
]);

function readKey(keys: AgentflowKeys, k: string, v: unknown): void {
  if (k === "agentflow.node.output") keys.output = v;
  else if (k === "agentflow.tool.args") keys.args = v;
  else if (k.startsWith("agentflow.cost")) {
    const cost = costOf(k, v);
    if (typeof cost === "string") keys.problems.push(cost);
    else if (cost !== undefined) (keys.cost ??= {})[cost.code] = cost.amount;
  } else if (TEXT_KEYS.has(k)) {
    // A text key recorded as anything else is said, never dropped as if it were absent.
    const why = notText(v);
    if (why !== undefined) keys.problems.push(`${k} ${why}`);
    else readText(keys, k, v as string);
  }
}

function readText(keys: AgentflowKeys, k: string, text: string): void {
  if (k === "agentflow.node.id") keys.node = text;
  else if (k === "agentflow.node.type") {
    if (text === "llm" || text === "tool") keys.nodeType = text;
    else keys.problems.push(`agentflow.node.type ${text} is neither llm nor tool`);
  } else if (k === "agentflow.route.label") keys.route = text;
  else if (k === "agentflow.route.next") keys.next = text;
  else if (k === "agentflow.prompt.ref") keys.identity.promptRef = text;
  else if (k === "agentflow.prompt.sha256") keys.identity.promptSha256 = text;
  else keys.run[k] = text;
}
