/**
 * What an llm or tool span says about its step: the node or tool, the status, the structured
 * output, a tool call's arguments, the model, provider and prompt identity, tokens and costs.
 * What is present and unreadable is reported beside the step, never dropped.
 */
import { sha256 } from "../../model/index.js";
import type { RecordedObject, RunEvent, StepEvent, StepIdentity } from "../types.js";
import { attributeProblem, failed, NODE, textAttribute, unknownOf, unreadOf } from "./otlp-map.js";
import type { Span } from "./otlp-span.js";
import { nanosToMs, numberOf, objectOf, stringOf, structured } from "./otlp-value.js";
import { combineTokens, costOf, isObject } from "./shared.js";

const NODE_OUTPUT = "agentflow.node.output";
const RESULT = "gen_ai.tool.call.result";
const MESSAGES = "gen_ai.output.messages";

/** The text of a message's `text` parts, joined; `undefined` when it has none. */
function textOf(parts: unknown): string | undefined {
  if (!Array.isArray(parts)) return undefined;
  const texts: string[] = [];
  for (const part of parts as readonly unknown[]) {
    if (isObject(part) && part.type === "text" && typeof part.content === "string") {
      texts.push(part.content);
    }
  }
  return texts.length === 0 ? undefined : texts.join("");
}

/** What `gen_ai.output.messages` gives: the output, or why it gives none. */
type FromMessages =
  | { readonly output: RecordedObject }
  | { readonly ambiguous: true }
  | { readonly unread: string; readonly record: boolean };

/**
 * An llm step's structured output from `gen_ai.output.messages`: the JSON object its one
 * message's text holds. Several messages (choices) could each be the output: ambiguous. An
 * attribute that is no list of messages (JSON cut short by an attribute length limit) is a record
 * not read (`record`); a reply with no text, or whose text is no JSON object (free text, JSON in
 * prose or cut short), is read as a step whose output was not read, with why.
 */
function outputFromMessages(value: unknown): FromMessages {
  const messages = structured(value);
  if (!Array.isArray(messages)) {
    const why =
      typeof value === "string"
        ? "gen_ai.output.messages is not JSON text (it may have been cut short by an attribute length limit)"
        : "gen_ai.output.messages is not a list of messages";
    return { unread: why, record: true };
  }
  if (messages.length === 0)
    return { unread: "gen_ai.output.messages holds no message", record: false };
  if (messages.length > 1) return { ambiguous: true };
  const only: unknown = messages[0];
  const text = isObject(only) ? textOf(only.parts) : undefined;
  if (text === undefined)
    return { unread: "the reply in gen_ai.output.messages has no text part", record: false };
  const output = objectOf(text);
  if (output !== undefined) return { output };
  return {
    unread: "the reply's text in gen_ai.output.messages is not a JSON object",
    record: false,
  };
}

/**
 * The sha256 of the system instructions: of the string as recorded when it is not JSON parts,
 * else of its `text` parts' content joined with nothing (UTF-8 bytes in both cases); `false`
 * when they hold other parts (a blob, a file), whose bytes the digest cannot stand for.
 */
function instructionsDigest(value: unknown): string | false | undefined {
  if (value === undefined) return undefined;
  const parts = structured(value);
  if (Array.isArray(parts)) {
    const everyText = parts.every((part) => isObject(part) && part.type === "text");
    const text = everyText ? textOf(parts) : undefined;
    return text === undefined ? false : sha256(text);
  }
  return typeof value === "string" ? sha256(value) : false;
}

/**
 * The model's, provider's and prompt's identity. Each field reads its attribute, else its
 * fallback; an attribute recorded and unreadable is reported (the fallback is still read, and
 * the step is unverified either way).
 */
function identityOf(span: Span, run: string, out: RunEvent[]): StepIdentity | undefined {
  const values = span.attributes.values;
  const text = (key: string): string | undefined => textAttribute(span, key, run, out);
  const model = text("gen_ai.request.model") ?? text("gen_ai.response.model");
  const provider = text("gen_ai.provider.name") ?? text("gen_ai.system");
  const promptRef = text("agentflow.prompt.ref") ?? text("gen_ai.prompt.name");
  const recorded = instructionsDigest(values.get("gen_ai.system_instructions"));
  const claimed = text("agentflow.prompt.sha256")?.toLowerCase();
  if (recorded === false) {
    const reason = "gen_ai.system_instructions holds more than text parts: no digest is taken";
    out.push(unknownOf(span, reason, run));
  } else if (recorded !== undefined && claimed !== undefined && recorded !== claimed) {
    const reason = "agentflow.prompt.sha256 differs from the digest of gen_ai.system_instructions";
    out.push(unknownOf(span, reason, run, "ambiguous"));
  }
  const promptSha256 = recorded === false ? claimed : (recorded ?? claimed);
  const identity: StepIdentity = {
    ...(model !== undefined ? { model } : {}),
    ...(provider !== undefined ? { provider } : {}),
    ...(promptRef !== undefined ? { promptRef } : {}),
    ...(promptSha256 !== undefined ? { promptSha256 } : {}),
  };
  return Object.keys(identity).length === 0 ? undefined : identity;
}

/**
 * The names a span's token counts are recorded under, by what they count: the conventions' own,
 * the deprecated names they replaced, OpenLLMetry's and OpenInference's. A count recorded under
 * a name the reader did not know would leave the budget judged on no tokens.
 */
const TOKEN_NAMES = {
  input: [
    "gen_ai.usage.input_tokens",
    "gen_ai.usage.prompt_tokens",
    "llm.usage.prompt_tokens",
    "llm.token_count.prompt",
  ],
  output: [
    "gen_ai.usage.output_tokens",
    "gen_ai.usage.completion_tokens",
    "llm.usage.completion_tokens",
    "llm.token_count.completion",
  ],
  total: ["gen_ai.usage.total_tokens", "llm.usage.total_tokens", "llm.token_count.total"],
} as const;

/**
 * Tokens: input + output, or the total where that is more (or all that is recorded); where
 * several names record one count, the largest — the budget is never passed on the smaller. Only
 * input or only output, and no total, is a lower bound (`tokensPartial`).
 */
function tokensOf(
  span: Span,
  run: string,
  out: RunEvent[],
): Pick<StepEvent, "tokens" | "tokensPartial"> {
  const values = span.attributes.values;
  const largest = (keys: readonly string[]): number | undefined => {
    let found: number | undefined;
    for (const key of keys) {
      if (!values.has(key)) continue;
      const count = numberOf(values.get(key));
      if (count === undefined || count < 0) out.push(unknownOf(span, `${key} is not a count`, run));
      else found = Math.max(found ?? 0, count);
    }
    return found;
  };
  const read = combineTokens(
    largest(TOKEN_NAMES.input),
    largest(TOKEN_NAMES.output),
    largest(TOKEN_NAMES.total),
  );
  if (read === undefined) return {};
  return { tokens: read.tokens, ...(read.partial ? { tokensPartial: true } : {}) };
}

/** Tokens and costs (`agentflow.cost.<ISO 4217>`), with unreadable ones reported. */
function usageOf(
  span: Span,
  run: string,
  out: RunEvent[],
): Pick<StepEvent, "tokens" | "tokensPartial" | "cost"> {
  const cost: Record<string, number> = {};
  for (const [key, value] of span.attributes.values) {
    const read = costOf(key, value);
    if (typeof read === "string") out.push(unknownOf(span, read, run));
    else if (read !== undefined) cost[read.code] = read.amount;
  }
  return {
    ...tokensOf(span, run, out),
    ...(Object.keys(cost).length > 0 ? { cost } : {}),
  };
}

/** A JSON-object attribute, with an unknown event when it is present and not one. */
function objectAttribute(
  span: Span,
  key: string,
  run: string,
  out: RunEvent[],
): RecordedObject | undefined {
  const values = span.attributes.values;
  if (!values.has(key)) return undefined;
  const object = objectOf(values.get(key));
  if (object === undefined) out.push(unknownOf(span, `${key} is not a JSON object`, run));
  return object;
}

/** What a step recorded as its output: the output, and why none was read where something was. */
interface OutputRead {
  readonly output?: RecordedObject;
  readonly unread?: string;
}

/** The step's output: `agentflow.node.output`, else the tool's result or the model's one reply. */
function outputOf(span: Span, tool: boolean, run: string, out: RunEvent[]): OutputRead {
  const values = span.attributes.values;
  const read = (key: string): OutputRead => {
    const object = objectAttribute(span, key, run, out);
    return object !== undefined ? { output: object } : { unread: `${key} is not a JSON object` };
  };
  if (values.has(NODE_OUTPUT)) return read(NODE_OUTPUT);
  if (tool) return values.has(RESULT) ? read(RESULT) : {};
  if (!values.has(MESSAGES)) return {};
  const from = outputFromMessages(values.get(MESSAGES));
  if ("output" in from) return { output: from.output };
  if ("ambiguous" in from) {
    const reason =
      "gen_ai.output.messages holds several choices: which one is the output is not known";
    out.push(unknownOf(span, reason, run, "ambiguous"));
    return { unread: "gen_ai.output.messages holds several choices" };
  }
  if (from.record) out.push(unknownOf(span, from.unread, run));
  return { unread: from.unread };
}

/** The events of an llm or tool span: its step, after what in it cannot be read. */
export function stepEvents(span: Span, role: "llm" | "tool", run: string): RunEvent[] {
  const problem = attributeProblem(span, run);
  if (problem !== undefined) return [problem, ...unreadOf(span, run)];
  // A time or status that cannot be read is said, and the step is still read (placed by the
  // time it has, read as succeeded): its run is unverified, never conforming on a guess.
  const out: RunEvent[] = unreadOf(span, run);
  const values = span.attributes.values;
  const tool = role === "tool";
  const node = textAttribute(span, NODE, run, out);
  const toolName = tool ? textAttribute(span, "gen_ai.tool.name", run, out) : undefined;
  const args = tool
    ? values.has("gen_ai.tool.call.arguments")
      ? objectAttribute(span, "gen_ai.tool.call.arguments", run, out)
      : objectAttribute(span, "agentflow.tool.args", run, out)
    : undefined;
  const { output, unread } = outputOf(span, tool, run, out);
  const identity = tool ? undefined : identityOf(span, run, out);
  const usage = usageOf(span, run, out);
  const start = nanosToMs(span.startNanos);
  const end = nanosToMs(span.endNanos);
  const callId = tool ? stringOf(values.get("gen_ai.tool.call.id")) : undefined;
  const at =
    callId !== undefined ? { ...span.at, ids: { ...span.at.ids, toolCallId: callId } } : span.at;
  if (tool && node === undefined && toolName === undefined) {
    // A name recorded and unreadable is already said; no step can be placed without one.
    if (values.has(NODE) || values.has("gen_ai.tool.name")) return out;
    return [...out, unknownOf(span, "an execute_tool span names no tool (gen_ai.tool.name)", run)];
  }
  const step: StepEvent = {
    kind: "step",
    run,
    nodeType: role,
    ...(node !== undefined ? { node } : {}),
    ...(toolName !== undefined ? { tool: toolName } : {}),
    status: failed(span) ? "error" : "ok",
    ...(output !== undefined ? { output } : {}),
    ...(unread !== undefined ? { outputUnread: unread } : {}),
    ...(args !== undefined ? { args } : {}),
    ...(identity !== undefined ? { identity } : {}),
    ...usage,
    ...(start !== undefined ? { start } : {}),
    ...(end !== undefined ? { end } : {}),
    at,
  };
  return [step, ...out];
}
