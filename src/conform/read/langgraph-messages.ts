/**
 * LangChain messages in a node's update (`messages` of a MessagesAnnotation state): the model's
 * identity and tokens from an AIMessage, the tool calls it asked for, and the ToolMessages a
 * ToolNode answered them with. Messages come serialized as LangChain JS writes them
 * (`{lc, type: "constructor", id: [..., "AIMessage"], kwargs}`) or as plain dicts
 * (`{type: "ai" | "tool", ...}`, LangGraph Python and the Platform API).
 */
import type { RecordedObject, StepIdentity } from "../types.js";
import { num, obj, own, str } from "./langgraph-json.js";
import { isObject, plain } from "./shared.js";

type Obj = Readonly<Record<string, unknown>>;

/** A tool call an AIMessage asked for. */
export interface ToolCall {
  readonly id?: string;
  readonly name: string;
  readonly args?: RecordedObject;
}

/** A ToolMessage: a tool's answer to a call. */
export interface ToolAnswer {
  readonly name?: string;
  readonly callId?: string;
  readonly status: "ok" | "error";
}

/** What a node's messages say. */
export interface MessagesRead {
  readonly calls: readonly ToolCall[];
  readonly answers: readonly ToolAnswer[];
  /** Messages that are neither AI nor tool messages (human, system...). */
  readonly others: number;
  readonly ai: number;
  readonly identity: StepIdentity;
  readonly tokens?: number;
}

/** The message's kind (`ai`, `tool`, `human`...) and its fields. */
function unwrap(m: Obj): { type: string; fields: Obj } {
  const id = own(m, "id");
  if (own(m, "lc") !== undefined && Array.isArray(id)) {
    const cls: unknown = (id as unknown[])[id.length - 1];
    const fields = obj(m, "kwargs") ?? {};
    const type =
      cls === "AIMessage" || cls === "AIMessageChunk"
        ? "ai"
        : cls === "ToolMessage" || cls === "ToolMessageChunk"
          ? "tool"
          : String(cls);
    return { type, fields };
  }
  return { type: str(m, "type") ?? "", fields: m };
}

function callsOf(fields: Obj): ToolCall[] {
  const raw = own(fields, "tool_calls");
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((c: unknown) => {
    if (!isObject(c)) return [];
    const name = str(c, "name");
    if (name === undefined) return [];
    const args = obj(c, "args");
    const id = str(c, "id");
    return [
      {
        name,
        ...(id === undefined ? {} : { id }),
        ...(args === undefined ? {} : { args: plain(args) }),
      },
    ];
  });
}

function tokensOf(fields: Obj): number | undefined {
  const usage = obj(fields, "usage_metadata");
  if (usage === undefined) return undefined;
  const total = num(usage, "total_tokens");
  if (total !== undefined) return total;
  const input = num(usage, "input_tokens");
  const output = num(usage, "output_tokens");
  return input === undefined && output === undefined ? undefined : (input ?? 0) + (output ?? 0);
}

function identityOf(fields: Obj): StepIdentity {
  const meta = obj(fields, "response_metadata") ?? {};
  const model = str(meta, "model_name") ?? str(meta, "model");
  const provider = str(meta, "model_provider") ?? str(meta, "ls_provider");
  return {
    ...(model === undefined ? {} : { model }),
    ...(provider === undefined ? {} : { provider }),
  };
}

/** Reads the messages of an update, or undefined when it holds none. */
export function readMessages(update: Obj): MessagesRead | undefined {
  const raw = own(update, "messages");
  const list = Array.isArray(raw) ? (raw as unknown[]) : isObject(raw) ? [raw] : undefined;
  if (list === undefined || list.length === 0) return undefined;
  const calls: ToolCall[] = [];
  const answers: ToolAnswer[] = [];
  let others = 0;
  let ai = 0;
  let identity: StepIdentity = {};
  let tokens: number | undefined;
  for (const m of list) {
    if (!isObject(m)) {
      others += 1;
      continue;
    }
    const { type, fields } = unwrap(m);
    if (type === "ai") {
      ai += 1;
      calls.push(...callsOf(fields));
      identity = { ...identity, ...identityOf(fields) };
      const t = tokensOf(fields);
      if (t !== undefined) tokens = (tokens ?? 0) + t;
    } else if (type === "tool") {
      const name = str(fields, "name");
      const callId = str(fields, "tool_call_id");
      answers.push({
        status: str(fields, "status") === "error" ? "error" : "ok",
        ...(name === undefined ? {} : { name }),
        ...(callId === undefined ? {} : { callId }),
      });
    } else others += 1;
  }
  return { calls, answers, others, ai, identity, ...(tokens === undefined ? {} : { tokens }) };
}
