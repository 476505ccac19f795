/**
 * What an AI agent's tools can send that completes a wait: a signal throw or end event anywhere
 * in an agent's tool container (a tool, a step a tool's flow leads to, an element nested in
 * either), and a signal or a Send Message connector in a process a tool calls (a call activity
 * of a process the document holds, followed as deep as calls go, each process once). A call of
 * a process the document does not hold (or one named by FEEL) may send any signal or message.
 * Zeebe broadcasts a signal to every instance waiting for it, and a message published with a
 * time to live waits for its catch, so a catch such a send matches completes when the agent
 * chooses, not when someone decides. Camunda ships no connector that broadcasts a signal; its
 * Send Message connector among an agent's own tools is read in `gate-context.ts`.
 */
import { isSendMessage } from "./camunda/send-message.js";
import { staticText } from "./camunda/static-text.js";
import { jobTypeReading, templateOf, zeebeHeaders, zeebeInputs } from "./camunda/zeebe.js";
import { calledProcessId, processOf } from "./called-process.js";
import type { GateContext } from "./gate-element.js";
import type { ModdleObject } from "./moddle.js";
import { extensionValues, idOf, instanceOf, listProp, objectProp, stringProp } from "./moddle.js";

/** A send an agent may reach through its tools. */
export interface AgentSend {
  /** The agent task's element id. */
  readonly agent: string;
  /** The element of the container that holds the send (the send itself when it is one). */
  readonly tool: string;
  /** The sending element's id. */
  readonly element: string;
  /**
   * `end` or `throw` for a signal end or throw event, `connector` for a Send Message connector,
   * `call` for a call of a process the document does not hold.
   */
  readonly event: "end" | "throw" | "connector" | "call";
  /** The signal's or message's name; `undefined` when it is known only at run time. */
  readonly name: string | undefined;
  /** The call activity whose process holds the send, when the tool reached it by a call. */
  readonly through?: string;
  /**
   * The ad-hoc sub-process that may be the agent's container when the agent names it by FEEL
   * agentflow cannot read; absent when the container is known.
   */
  readonly maybeContainer?: string;
}

/** The first sends of a group: one in a container known to be an agent's, and any. */
interface FirstSends {
  known?: AgentSend;
  any?: AgentSend;
}

/** Sends of one kind, grouped so that each catch finds its match in constant time. */
interface Groups {
  readonly byName: Map<string, FirstSends>;
  readonly unnamed: FirstSends;
  readonly all: FirstSends;
}

/** What the agents' tools of a document can send: signals and messages. */
export interface AgentSends {
  readonly signals: Groups;
  readonly messages: Groups;
}

const groups = (): Groups => ({ byName: new Map(), unnamed: {}, all: {} });

/** No sends: a document without agents, or an element in none. */
export const NO_SENDS: AgentSends = { signals: groups(), messages: groups() };

function note(group: FirstSends, found: AgentSend): void {
  group.any ??= found;
  if (found.maybeContainer === undefined) group.known ??= found;
}

function add(into: Groups, found: AgentSend): void {
  note(into.all, found);
  if (found.name === undefined) {
    note(into.unnamed, found);
    return;
  }
  let group = into.byName.get(found.name);
  if (group === undefined) {
    group = {};
    into.byName.set(found.name, group);
  }
  note(group, found);
}

/** The name of the signal or message `holder` refers to; `undefined`: known at run time. */
function nameOf(holder: ModdleObject, ref: "signalRef" | "messageRef"): string | undefined {
  const target = objectProp(holder, ref);
  const name = target === undefined ? undefined : stringProp(target, "name");
  return name === undefined ? undefined : staticText(name.trim());
}

/** The agent whose tools an ad-hoc sub-process holds, and whether that is only possible. */
function ownerOf(
  element: ModdleObject,
  context: GateContext,
): { readonly agent: string; readonly maybe: boolean } | undefined {
  if (!instanceOf(element, "bpmn:AdHocSubProcess")) return undefined;
  const agent = context.toolContainers.get(idOf(element) ?? "");
  if (agent !== undefined) return { agent, maybe: false };
  const unread = context.unreadContainers[0];
  // Any ad-hoc sub-process without a job worker of its own may be such an agent's container.
  return unread !== undefined && jobTypeReading(extensionValues(element)) === undefined
    ? { agent: unread, maybe: true }
    : undefined;
}

/** The signal this element throws, when it is a throw or end event with a signal definition. */
function thrownSignal(element: ModdleObject): { readonly name: string | undefined } | undefined {
  if (
    !instanceOf(element, "bpmn:IntermediateThrowEvent") &&
    !instanceOf(element, "bpmn:EndEvent")
  ) {
    return undefined;
  }
  const definition = listProp(element, "eventDefinitions").find((d) =>
    instanceOf(d, "bpmn:SignalEventDefinition"),
  );
  return definition === undefined ? undefined : { name: nameOf(definition, "signalRef") };
}

/**
 * The message a Send Message connector element publishes: its `messageName` input as static
 * text (else known only at run time); `undefined` when the element is no such connector.
 */
function sentMessage(element: ModdleObject): { readonly name: string | undefined } | undefined {
  const values = extensionValues(element);
  const job = jobTypeReading(values);
  const template = templateOf(element, zeebeHeaders(values)).id;
  if (!isSendMessage(job?.type, template)) return undefined;
  const source = zeebeInputs(values).get("messageName");
  return { name: source === undefined ? undefined : staticText(source.trim())?.trim() };
}

interface Visit {
  readonly element: ModdleObject;
  /** The container whose tool this element is inside, with the tool; absent outside one. */
  readonly within?: {
    readonly agent: string;
    readonly container: string;
    readonly maybe: boolean;
    readonly tool: string;
    readonly through?: string;
  };
}

/**
 * What the agents' tools in these definitions can send, the first of each group in document
 * order, in one walk of the document and of the processes their tools call (iterative: as deep
 * as it nests; each called process once). Empty when no agent has a container.
 */
export function agentSends(definitions: ModdleObject, context: GateContext): AgentSends {
  if (context.toolContainers.size === 0 && context.unreadContainers.length === 0) return NO_SENDS;
  const found: AgentSends = { signals: groups(), messages: groups() };
  const followed = new Set<ModdleObject>();
  // Children are pushed last first, so that the sends come in document order.
  const stack: Visit[] = listProp(definitions, "rootElements")
    .map((element) => ({ element }))
    .reverse();
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    const { element, within } = visit;
    let children = listProp(element, "flowElements");
    let inside = within;
    if (within !== undefined) {
      const one = (event: AgentSend["event"], name: string | undefined): AgentSend => ({
        agent: within.agent,
        tool: within.tool,
        element: idOf(element) ?? "",
        event,
        name,
        ...(within.through === undefined ? {} : { through: within.through }),
        ...(within.maybe ? { maybeContainer: within.container } : {}),
      });
      const signal = thrownSignal(element);
      if (signal !== undefined) {
        const end = instanceOf(element, "bpmn:EndEvent");
        add(found.signals, one(end ? "end" : "throw", signal.name));
      }
      const message = sentMessage(element);
      if (message !== undefined) add(found.messages, one("connector", message.name));
      if (instanceOf(element, "bpmn:CallActivity")) {
        const id = calledProcessId(element);
        const called = id === undefined ? undefined : processOf(definitions, id);
        if (called === undefined) {
          // A process agentflow cannot read may send anything.
          add(found.signals, one("call", undefined));
          add(found.messages, one("call", undefined));
        } else if (!followed.has(called)) {
          followed.add(called);
          children = listProp(called, "flowElements");
          inside = { ...within, through: within.through ?? idOf(element) ?? "" };
        }
      }
    }
    const owner = ownerOf(element, context);
    for (const child of [...children].reverse()) {
      const next =
        owner === undefined
          ? inside
          : {
              agent: owner.agent,
              container: idOf(element) ?? "",
              maybe: owner.maybe,
              tool: idOf(child) ?? "",
            };
      stack.push(next === undefined ? { element: child } : { element: child, within: next });
    }
  }
  return found;
}

/** How a send is said: `(a signal throw event "X" in it)`, `(Camunda's Send Message connector)`. */
function sentHow(by: AgentSend, kind: "signal" | "message"): string {
  if (by.event === "call") {
    return `(it calls a process agentflow cannot read, which may send any ${kind})`;
  }
  const event =
    by.event === "connector"
      ? "Camunda's Send Message connector"
      : `a signal ${by.event} event${by.name === undefined ? " whose signal is known only at run time" : ""}`;
  if (by.through !== undefined) {
    return `(${event} "${by.element}" in the process its call "${by.through}" starts)`;
  }
  return by.tool === by.element ? `(${event})` : `(${event} "${by.element}" in it)`;
}

/**
 * Why an agent's tool can complete this wait on a signal or a message itself (`what` starts the
 * sentence: `a catch event`), or `undefined` when nothing the agents' tools send matches it. A
 * name known only at run time, on either side, may be the same.
 */
export function sentByAgent(
  what: string,
  holder: ModdleObject,
  kind: "signal" | "message",
  sends: AgentSends,
): string | undefined {
  const name = nameOf(holder, kind === "signal" ? "signalRef" : "messageRef");
  const of = kind === "signal" ? sends.signals : sends.messages;
  const named = name === undefined ? undefined : of.byName.get(name);
  // A container known to be an agent's says more than one that may be.
  const by =
    name === undefined
      ? (of.all.known ?? of.all.any)
      : (named?.known ?? of.unnamed.known ?? named?.any ?? of.unnamed.any);
  if (by === undefined) return undefined;
  const on =
    name === undefined ? `a ${kind} whose name is known only at run time` : `the ${kind} "${name}"`;
  const verb = kind === "signal" ? "broadcast" : "publish";
  const how = sentHow(by, kind);
  if (by.maybeContainer !== undefined) {
    return `${what} on ${on}, which the agent "${by.agent}" may ${verb} itself with "${by.tool}" ${how} of the ad-hoc sub-process "${by.maybeContainer}", which may be its tool container (it names its container by FEEL that cannot be read), so it may complete with nobody deciding`;
  }
  return `${what} on ${on}, which the agent "${by.agent}" can ${verb} itself with its tool "${by.tool}" ${how}, so it completes with nobody deciding`;
}
