/**
 * LangChain messages in a node's update (`messages` of a MessagesAnnotation state): the model's
 * identity and tokens of each AIMessage, the tool calls it asked for, and the ToolMessages that
 * answered them (a ToolNode's, or a node's that runs its tools itself). Messages come serialized as LangChain JS writes them
 * (`{lc, type: "constructor", id: [..., "AIMessage"], kwargs}`) or as plain dicts
 * (`{type: "ai" | "tool", ...}`, LangGraph Python and the Platform API).
 */
import type { RecordedObject, StepIdentity } from "../types.js";
import { obj, own, str } from "./langgraph-json.js";
import { combineTokens, isObject, notText, plain } from "./shared.js";

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
  /** The message records a `name` that cannot be read (it is not text). */
  readonly nameUnread?: true;
}

/** What a node's messages say. */
export interface MessagesRead {
  readonly calls: readonly ToolCall[];
  readonly answers: readonly ToolAnswer[];
  /** Messages that are neither AI nor tool messages (human, system...). */
  readonly others: number;
  readonly ai: number;
  /**
   * The identity each AIMessage recorded (model and provider), one per AIMessage in order: each
   * is a model call, and each is checked, not only the last.
   */
  readonly identities: readonly StepIdentity[];
  readonly tokens?: number;
  /**
   * Some AIMessage recorded no tokens, or only part of them, while another recorded some:
   * `tokens` is a lower bound.
   */
  readonly tokensPartial?: boolean;
  /** What is recorded and cannot be read (a tool call naming no tool, a model name that is a list). */
  readonly problems: readonly string[];
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

/**
 * An own text field: its text, `undefined` when absent or null. Recorded as anything else (a
 * list, an object, `""`), it is said in `problems` and read as `undefined`: never as absent
 * without a word, since the name it holds is what a check compares.
 */
function text(o: Obj, key: string, what: string, problems: string[]): string | undefined {
  const v = own(o, key);
  if (v === undefined || v === null) return undefined;
  const why = notText(v);
  if (why === undefined) return v as string;
  problems.push(`${what} ${why}`);
  return undefined;
}

function callsOf(fields: Obj, problems: string[]): ToolCall[] {
  const raw = own(fields, "tool_calls");
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    problems.push("The tool_calls of an AIMessage are not a list");
    return [];
  }
  return raw.flatMap((c: unknown) => {
    if (!isObject(c)) {
      problems.push("A tool call of an AIMessage is not an object");
      return [];
    }
    const name = text(c, "name", "The name of a tool call of an AIMessage", problems);
    if (name === undefined) {
      if (own(c, "name") === undefined || own(c, "name") === null)
        problems.push("A tool call of an AIMessage names no tool");
      return [];
    }
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

/** The names a message's token counts are recorded under, by what they count. */
const TOKEN_NAMES = {
  input: ["input_tokens", "prompt_tokens", "promptTokens"],
  output: ["output_tokens", "completion_tokens", "completionTokens"],
  total: ["total_tokens", "totalTokens"],
} as const;

/** A message's tokens, and whether they are only part of its count (input or output, no total). */
interface Tokens {
  readonly tokens: number;
  readonly partial: boolean;
}

/**
 * An AIMessage's tokens: LangChain's `usage_metadata`, else what the provider's
 * `response_metadata` holds (`tokenUsage` in LangChain JS, `token_usage` in Python, `usage`);
 * input + output, or the total where that is more; where several name one count, the largest.
 * A count that is not a number of zero or more is said in `problems`, never summed.
 */
function tokensOf(fields: Obj, problems: string[]): Tokens | undefined {
  const meta = obj(fields, "response_metadata") ?? {};
  const places: [string, Obj | undefined][] = [
    ["usage_metadata", obj(fields, "usage_metadata")],
    ["response_metadata.tokenUsage", obj(meta, "tokenUsage")],
    ["response_metadata.token_usage", obj(meta, "token_usage")],
    ["response_metadata.usage", obj(meta, "usage")],
  ];
  const largest = (names: readonly string[]): number | undefined => {
    let found: number | undefined;
    for (const [where, usage] of places) {
      for (const name of names) {
        const v = usage === undefined ? undefined : own(usage, name);
        if (v === undefined || v === null) continue;
        if (typeof v === "number" && Number.isFinite(v) && v >= 0) found = Math.max(found ?? 0, v);
        else problems.push(`The ${where}.${name} of an AIMessage is not a count`);
      }
    }
    return found;
  };
  return combineTokens(
    largest(TOKEN_NAMES.input),
    largest(TOKEN_NAMES.output),
    largest(TOKEN_NAMES.total),
  );
}

function identityOf(fields: Obj, problems: string[]): StepIdentity {
  const meta = obj(fields, "response_metadata") ?? {};
  const field = (key: string) =>
    text(meta, key, `response_metadata.${key} of an AIMessage`, problems);
  const model = field("model_name") ?? field("model");
  const provider = field("model_provider") ?? field("ls_provider");
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
  const identities: StepIdentity[] = [];
  const problems: string[] = [];
  let others = 0;
  let ai = 0;
  let tokens: number | undefined;
  let partial = false;
  for (const m of list) {
    if (!isObject(m)) {
      others += 1;
      continue;
    }
    const { type, fields } = unwrap(m);
    if (type === "ai") {
      ai += 1;
      calls.push(...callsOf(fields, problems));
      identities.push(identityOf(fields, problems));
      const t = tokensOf(fields, problems);
      if (t === undefined) partial = true;
      else {
        tokens = (tokens ?? 0) + t.tokens;
        partial ||= t.partial;
      }
    } else if (type === "tool") {
      const unread: string[] = [];
      const name = text(fields, "name", "The name of a ToolMessage", unread);
      problems.push(...unread);
      const callId = str(fields, "tool_call_id");
      answers.push({
        status: str(fields, "status") === "error" ? "error" : "ok",
        ...(name === undefined ? {} : { name }),
        ...(callId === undefined ? {} : { callId }),
        ...(unread.length > 0 ? { nameUnread: true as const } : {}),
      });
    } else others += 1;
  }
  return {
    calls,
    answers,
    others,
    ai,
    identities,
    problems,
    ...(tokens === undefined ? {} : { tokens }),
    ...(tokens !== undefined && partial ? { tokensPartial: true } : {}),
  };
}
