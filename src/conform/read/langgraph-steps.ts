/**
 * One node's update as run events. A plain update is the node's structured output and one step of
 * the node that has the graph node's name as id; an update whose messages are all ToolMessages
 * (a ToolNode) is one tool step per answer, with the arguments the earlier AIMessage gave the
 * call; an update carrying `agentflow.route.*` is a decision the run recorded (a router node).
 */
import type { EventAt, RecordedObject, RunEvent, StepEvent, UnknownEvent } from "../types.js";
import type { AgentflowKeys } from "./langgraph-json.js";
import { splitAgentflow } from "./langgraph-json.js";
import { isObject, jsonObject } from "./shared.js";
import type { ToolCall } from "./langgraph-messages.js";
import { readMessages } from "./langgraph-messages.js";

/** What a step needs beyond the update: its run, place, times and the run's open tool calls. */
export interface StepContext {
  readonly run: string;
  readonly at: EventAt;
  readonly status: "ok" | "error";
  readonly start?: number;
  readonly end?: number;
  /** Tool calls asked for and not yet answered, by call id (shared by a run's steps). */
  readonly calls: Map<string, ToolCall>;
  /** Run-level agentflow keys found (`agentflow.workflow`...), filled in. */
  readonly runKeys: Record<string, string>;
}

/** An unknown event of a run. */
export function unknownOf(
  run: string | undefined,
  at: EventAt,
  reason: string,
  cls: UnknownEvent["class"] = "unknown",
): UnknownEvent {
  return { kind: "unknown", class: cls, reason, at, ...(run === undefined ? {} : { run }) };
}

function times(ctx: StepContext): { start?: number; end?: number } {
  return {
    ...(ctx.start === undefined ? {} : { start: ctx.start }),
    ...(ctx.end === undefined ? {} : { end: ctx.end }),
  };
}

/**
 * The tool steps of a tool node's answers. The update's cost goes on its first step: the budget
 * counts the run's sum. An answer naming another tool than the call it answers is not read:
 * which tool ran is then not known, and taking either could hide the other.
 */
function toolSteps(
  name: string,
  answers: NonNullable<ReturnType<typeof readMessages>>["answers"],
  keys: AgentflowKeys,
  ctx: StepContext,
): RunEvent[] {
  const node = keys.node;
  return answers.map((answer, i) => {
    const call = answer.callId === undefined ? undefined : ctx.calls.get(answer.callId);
    if (answer.callId !== undefined) ctx.calls.delete(answer.callId);
    if (answer.name !== undefined && call?.name !== undefined && answer.name !== call.name) {
      const reason = `The tool message of node '${name}' answers call '${answer.callId ?? ""}' as tool '${answer.name}', but the call asked for tool '${call.name}', so which tool ran is ambiguous.`;
      return unknownOf(ctx.run, ctx.at, reason, "ambiguous");
    }
    const tool = answer.name ?? call?.name;
    const cost = i === 0 ? keys.cost : undefined;
    const step: StepEvent = {
      kind: "step",
      run: ctx.run,
      nodeType: "tool",
      status: ctx.status === "error" ? "error" : answer.status,
      at: { ...ctx.at, ids: { ...ctx.at.ids, node: name } },
      ...(node === undefined ? {} : { node }),
      ...(tool === undefined ? {} : { tool }),
      ...(call?.args === undefined ? {} : { args: call.args }),
      ...(cost === undefined ? {} : { cost }),
      ...times(ctx),
    };
    return step;
  });
}

/** The events one node's update means. `update` is the value the stream gave for the node. */
export function updateEvents(name: string, update: unknown, ctx: StepContext): RunEvent[] {
  if (update !== null && update !== undefined && !isObject(update))
    return [unknownOf(ctx.run, ctx.at, `The update of node '${name}' is not an object.`)];
  const { keys, rest } = splitAgentflow(isObject(update) ? update : {});
  Object.assign(ctx.runKeys, keys.run);
  const node = keys.node ?? name;
  const events: RunEvent[] = keys.problems.map((problem) =>
    unknownOf(ctx.run, ctx.at, `${problem}, in the update of node '${node}'.`),
  );
  if (keys.route !== undefined || keys.next !== undefined)
    return [
      ...events,
      {
        kind: "route",
        run: ctx.run,
        node,
        at: ctx.at,
        ...(keys.route === undefined ? {} : { route: keys.route }),
        ...(keys.next === undefined ? {} : { next: keys.next }),
      },
    ];
  const messages = readMessages(rest);
  if (messages !== undefined && messages.answers.length > 0 && messages.ai + messages.others === 0)
    return [...toolSteps(name, messages.answers, keys, ctx), ...events];
  for (const call of messages?.calls ?? []) if (call.id !== undefined) ctx.calls.set(call.id, call);
  let output: RecordedObject | undefined =
    update === null || update === undefined ? undefined : rest;
  if (keys.output !== undefined) {
    const read = jsonObject(keys.output);
    if (typeof read === "string") {
      events.push(
        unknownOf(
          ctx.run,
          ctx.at,
          `agentflow.node.output of node '${node}' is unreadable: ${read}.`,
        ),
      );
      output = undefined;
    } else output = read;
  }
  let args: RecordedObject | undefined;
  if (keys.args !== undefined) {
    const read = jsonObject(keys.args);
    if (typeof read === "string")
      events.push(
        unknownOf(ctx.run, ctx.at, `agentflow.tool.args of node '${node}' is unreadable: ${read}.`),
      );
    else args = read;
  }
  const identity = { ...messages?.identity, ...keys.identity };
  const step: StepEvent = {
    kind: "step",
    run: ctx.run,
    nodeType: keys.nodeType ?? (args !== undefined ? "tool" : "llm"),
    node,
    status: ctx.status,
    at: ctx.at,
    ...(output === undefined || ctx.status === "error" ? {} : { output }),
    ...(args === undefined ? {} : { args }),
    ...(Object.keys(identity).length === 0 ? {} : { identity }),
    ...(messages?.tokens === undefined ? {} : { tokens: messages.tokens }),
    ...(keys.cost === undefined ? {} : { cost: keys.cost }),
    ...times(ctx),
  };
  return [step, ...events];
}
