/**
 * One node's update as run events. A plain update is the node's structured output and one step of
 * the node that has the graph node's name as id; an update whose messages are all ToolMessages
 * (a ToolNode) is one tool step per answer, with the arguments the earlier AIMessage gave the
 * call; an update carrying `agentflow.route.*` is a decision the run recorded (a router node).
 * Every ToolMessage is a tool step, in whichever update it sits, and every tool call a model asked
 * for is answered by one or reported when the run ends.
 */
import type { EventAt, RecordedObject, RunEvent, StepEvent, UnknownEvent } from "../types.js";
import type { AgentflowKeys } from "./langgraph-json.js";
import { splitAgentflow } from "./langgraph-json.js";
import { isObject, jsonObject } from "./shared.js";
import type { MessagesRead, ToolAnswer, ToolCall } from "./langgraph-messages.js";
import { readMessages } from "./langgraph-messages.js";

/** A tool call a model asked for and no ToolMessage has answered yet, with where it was asked. */
export interface AskedCall {
  readonly call: ToolCall;
  /** The graph node whose update asked for it. */
  readonly node: string;
  readonly at: EventAt;
}

/** What a step needs beyond the update: its run, place, times and the run's open tool calls. */
export interface StepContext {
  readonly run: string;
  readonly at: EventAt;
  readonly status: "ok" | "error";
  readonly start?: number;
  readonly end?: number;
  /**
   * Tool calls asked for and not yet answered, by call id (shared by a run's steps); a call with
   * no id, which nothing can answer, under a key of its own. What is left when the run ends is
   * reported by {@link unansweredCalls}.
   */
  readonly calls: Map<string, AskedCall>;
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

/** Keys no call id has (NUL is no text a model gives), for calls no answer can name. */
let unnamed = 0;

/** Keeps the calls an update asked for until an answer comes (this update's, or a later one's). */
function ask(calls: readonly ToolCall[], node: string, ctx: StepContext): void {
  for (const call of calls) {
    const asked: AskedCall = { call, node, at: ctx.at };
    const own = (): string => `\u0000${String(unnamed++)}`;
    const id = call.id ?? own();
    // A call id asked again while unanswered: the earlier call stays open under a key of its own.
    const earlier = ctx.calls.get(id);
    if (earlier !== undefined) ctx.calls.set(own(), earlier);
    ctx.calls.set(id, asked);
  }
}

/**
 * The tool steps of the ToolMessages of an update: each answer is a tool that ran, whichever
 * node's update holds it. `node` names the workflow node for a ToolNode's own update
 * (`agentflow.node.id`); `cost` goes on the first step (the budget counts the run's sum). An
 * answer naming another tool than the call it answers, or naming none the records can tell, is
 * not read as a step: which tool ran is then not known, and taking one could hide the other.
 */
function toolSteps(
  name: string,
  answers: readonly ToolAnswer[],
  own: { readonly node?: string; readonly cost?: Readonly<Record<string, number>> },
  ctx: StepContext,
): RunEvent[] {
  return answers.map((answer, i) => {
    const asked = answer.callId === undefined ? undefined : ctx.calls.get(answer.callId);
    if (answer.callId !== undefined) ctx.calls.delete(answer.callId);
    const call = asked?.call;
    if (answer.name !== undefined && call !== undefined && answer.name !== call.name) {
      const reason = `The tool message of node '${name}' answers call '${answer.callId ?? ""}' as tool '${answer.name}', but the call asked for tool '${call.name}', so which tool ran is ambiguous.`;
      return unknownOf(ctx.run, ctx.at, reason, "ambiguous");
    }
    const tool = answer.nameUnread === true ? call?.name : (answer.name ?? call?.name);
    if (tool === undefined && own.node === undefined) {
      const id = answer.callId === undefined ? "" : ` (call '${answer.callId}')`;
      const reason = `A tool message of node '${name}' names no tool and answers no call the records show${id}, so which tool ran is not known.`;
      return unknownOf(ctx.run, ctx.at, reason);
    }
    const cost = i === 0 ? own.cost : undefined;
    const step: StepEvent = {
      kind: "step",
      run: ctx.run,
      nodeType: "tool",
      status: ctx.status === "error" ? "error" : answer.status,
      at: { ...ctx.at, ids: { ...ctx.at.ids, node: name } },
      ...(own.node === undefined ? {} : { node: own.node }),
      ...(tool === undefined ? {} : { tool }),
      ...(call?.args === undefined ? {} : { args: call.args }),
      ...(cost === undefined ? {} : { cost }),
      ...times(ctx),
    };
    return step;
  });
}

/**
 * The model's identity a node's step carries: agentflow's keys over what its AIMessages say. One
 * AIMessage (or several that agree) gives `identity`; several that differ give `modelCalls`, one
 * each, so that every model call is checked and none hides another.
 */
function identityOf(
  messages: MessagesRead | undefined,
  keys: AgentflowKeys,
): Pick<StepEvent, "identity" | "modelCalls"> {
  const calls = messages?.identities ?? [];
  const distinct = new Map(calls.map((c) => [JSON.stringify([c.model, c.provider]), c]));
  if (distinct.size > 1) {
    const identity = keys.identity;
    return {
      ...(Object.keys(identity).length === 0 ? {} : { identity }),
      modelCalls: [...distinct.values()],
    };
  }
  const identity = { ...[...distinct.values()][0], ...keys.identity };
  return Object.keys(identity).length === 0 ? {} : { identity };
}

/**
 * A router node's update (`agentflow.route.*`): the decision, and the tools whose answers it holds.
 * A decision is no step: model calls and spending in its update are said as records not read,
 * never dropped (no model is approved for a decision, and the budget cannot count them).
 */
function routeEvents(
  name: string,
  node: string,
  keys: AgentflowKeys,
  messages: MessagesRead | undefined,
  ctx: StepContext,
): RunEvent[] {
  const events: RunEvent[] = [
    {
      kind: "route",
      run: ctx.run,
      node,
      at: ctx.at,
      ...(keys.route === undefined ? {} : { route: keys.route }),
      ...(keys.next === undefined ? {} : { next: keys.next }),
    },
    ...toolSteps(name, messages?.answers ?? [], {}, ctx),
  ];
  if ((messages?.ai ?? 0) > 0)
    events.push(
      unknownOf(
        ctx.run,
        ctx.at,
        `The update of router node '${node}' holds ${String(messages?.ai)} AIMessage(s): a decision is no llm node, so its model calls are not checked.`,
      ),
    );
  if (keys.cost !== undefined || messages?.tokens !== undefined)
    events.push(
      unknownOf(
        ctx.run,
        ctx.at,
        `The update of router node '${node}' records spending (agentflow.cost.*, tokens): a decision is no step, so the budget cannot count it.`,
      ),
    );
  return events;
}

/**
 * The events one node's update means. `update` is the value the stream gave for the node. Every
 * tool call and answer in it is read, whatever the node: a ToolNode's update (only
 * ToolMessages) is one tool step per answer; any other update is the node's own step (or its
 * decision), followed by a tool step per ToolMessage it holds — a node that ran tools itself ran
 * them after its model asked, as the same messages split over the node's and a ToolNode's
 * updates would read.
 */
export function updateEvents(name: string, update: unknown, ctx: StepContext): RunEvent[] {
  if (update !== null && update !== undefined && !isObject(update))
    return [unknownOf(ctx.run, ctx.at, `The update of node '${name}' is not an object.`)];
  const { keys, rest } = splitAgentflow(isObject(update) ? update : {});
  Object.assign(ctx.runKeys, keys.run);
  const node = keys.node ?? name;
  const messages = readMessages(rest);
  const events: RunEvent[] = [...keys.problems, ...(messages?.problems ?? [])].map((problem) =>
    unknownOf(ctx.run, ctx.at, `${problem}, in the update of node '${node}'.`),
  );
  ask(messages?.calls ?? [], node, ctx);
  if (keys.route !== undefined || keys.next !== undefined)
    return [...routeEvents(name, node, keys, messages, ctx), ...events];
  const answers = messages?.answers ?? [];
  if (answers.length > 0 && messages !== undefined && messages.ai + messages.others === 0)
    return [
      ...toolSteps(
        name,
        answers,
        {
          ...(keys.node === undefined ? {} : { node: keys.node }),
          ...(keys.cost === undefined ? {} : { cost: keys.cost }),
        },
        ctx,
      ),
      ...events,
    ];
  // A null update is the node's record that it wrote nothing (the state stays as it was), not
  // an output that was not recorded: only an absent one leaves what the node writes unknown.
  let output: RecordedObject | undefined = update === undefined ? undefined : rest;
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
  const step: StepEvent = {
    kind: "step",
    run: ctx.run,
    nodeType: keys.nodeType ?? (args !== undefined ? "tool" : "llm"),
    ...(keys.nodeType === undefined ? { nodeTypeInferred: true } : {}),
    node,
    status: ctx.status,
    at: ctx.at,
    ...(output === undefined || ctx.status === "error" ? {} : { output }),
    ...(args === undefined ? {} : { args }),
    ...identityOf(messages, keys),
    ...(messages?.tokens === undefined ? {} : { tokens: messages.tokens }),
    ...(messages?.tokensPartial === true ? { tokensPartial: true } : {}),
    ...(keys.cost === undefined ? {} : { cost: keys.cost }),
    ...times(ctx),
  };
  return [step, ...toolSteps(name, answers, {}, ctx), ...events];
}

/**
 * The tool calls a model asked for that no ToolMessage in the run's records answers: whether the
 * tool ran is not known (a tool run outside the messages, or a record lost), so each is a record
 * not read, never dropped. Called once the run's updates are all read.
 */
export function unansweredCalls(run: string, calls: ReadonlyMap<string, AskedCall>): RunEvent[] {
  return [...calls.values()].map(({ call, node, at }) =>
    unknownOf(
      run,
      at,
      `The model of node '${node}' asked for tool '${call.name}'${call.id === undefined ? "" : ` (call '${call.id}')`}, and no tool message in the records answers it, so whether it ran is not known.`,
    ),
  );
}
