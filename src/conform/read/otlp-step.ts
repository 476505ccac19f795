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
import { costOf, isObject } from "./shared.js";

const NODE_OUTPUT = "agentflow.node.output";

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

/**
 * An llm step's structured output from `gen_ai.output.messages`: the JSON object its one
 * message's text holds. Several messages (choices) could each be the output: ambiguous.
 */
function outputFromMessages(value: unknown): RecordedObject | "ambiguous" | undefined {
  const messages = structured(value);
  if (!Array.isArray(messages) || messages.length === 0) return undefined;
  if (messages.length > 1) return "ambiguous";
  const only: unknown = messages[0];
  const text = isObject(only) ? textOf(only.parts) : undefined;
  return text === undefined ? undefined : objectOf(text);
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

/** Tokens (input + output) and costs (`agentflow.cost.<ISO 4217>`), with unreadable ones reported. */
function usageOf(span: Span, run: string, out: RunEvent[]): Pick<StepEvent, "tokens" | "cost"> {
  const values = span.attributes.values;
  let tokens: number | undefined;
  for (const key of ["gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens"]) {
    if (!values.has(key)) continue;
    const count = numberOf(values.get(key));
    if (count === undefined || count < 0) out.push(unknownOf(span, `${key} is not a count`, run));
    else tokens = (tokens ?? 0) + count;
  }
  const cost: Record<string, number> = {};
  for (const [key, value] of values) {
    const read = costOf(key, value);
    if (typeof read === "string") out.push(unknownOf(span, read, run));
    else if (read !== undefined) cost[read.code] = read.amount;
  }
  return {
    ...(tokens !== undefined ? { tokens } : {}),
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

/** The step's output: `agentflow.node.output`, else the tool's result or the model's one reply. */
function outputOf(
  span: Span,
  tool: boolean,
  run: string,
  out: RunEvent[],
): RecordedObject | undefined {
  const own = objectAttribute(span, NODE_OUTPUT, run, out);
  if (own !== undefined || span.attributes.values.has(NODE_OUTPUT)) return own;
  if (tool) return objectAttribute(span, "gen_ai.tool.call.result", run, out);
  const fromMessages = outputFromMessages(span.attributes.values.get("gen_ai.output.messages"));
  if (fromMessages !== "ambiguous") return fromMessages;
  const reason =
    "gen_ai.output.messages holds several choices: which one is the output is not known";
  out.push(unknownOf(span, reason, run, "ambiguous"));
  return undefined;
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
  const output = outputOf(span, tool, run, out);
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
    ...(args !== undefined ? { args } : {}),
    ...(identity !== undefined ? { identity } : {}),
    ...usage,
    ...(start !== undefined ? { start } : {}),
    ...(end !== undefined ? { end } : {}),
    at,
  };
  return [step, ...out];
}
