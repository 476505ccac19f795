/**
 * The signals an AI agent's tools can broadcast: a signal throw or end event anywhere in an
 * agent's tool container (a tool, a step a tool's flow leads to, an element nested in either).
 * Zeebe broadcasts a signal to every instance waiting for it, so a signal catch that such a throw
 * matches completes when the agent chooses, not when someone decides. Camunda ships no connector
 * that broadcasts a signal (only the Send Message connector, read in `gate-context.ts`).
 */
import { staticText } from "./camunda/static-text.js";
import { jobTypeReading } from "./camunda/zeebe.js";
import type { GateContext } from "./gate-element.js";
import type { ModdleObject } from "./moddle.js";
import { extensionValues, idOf, instanceOf, listProp, objectProp, stringProp } from "./moddle.js";

/** A signal throw an agent may reach through its tools. */
export interface SignalThrow {
  /** The agent task's element id. */
  readonly agent: string;
  /** The element of the container that holds the throw (the throw itself when it is one). */
  readonly tool: string;
  /** The throw or end event's id. */
  readonly element: string;
  /** `end` for a signal end event, `throw` for an intermediate throw event. */
  readonly event: "end" | "throw";
  /** The signal's name; `undefined` when it is known only at run time (or none is given). */
  readonly name: string | undefined;
  /**
   * The ad-hoc sub-process that may be the agent's container when the agent names it by FEEL
   * agentflow cannot read; absent when the container is known.
   */
  readonly maybeContainer?: string;
}

/** The name of the signal an event definition throws or catches; `undefined`: known at run time. */
function signalName(definition: ModdleObject): string | undefined {
  const signal = objectProp(definition, "signalRef");
  const name = signal === undefined ? undefined : stringProp(signal, "name");
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
  return definition === undefined ? undefined : { name: signalName(definition) };
}

/** The first throws of a group: one in a container known to be an agent's, and any. */
interface FirstThrows {
  known?: SignalThrow;
  any?: SignalThrow;
}

/**
 * The signal throws of a document, grouped so that each catch finds the throw that matches it
 * in constant time: by the signal's name, those whose name is known only at run time, and all.
 */
export interface SignalThrows {
  readonly byName: ReadonlyMap<string, FirstThrows>;
  readonly unnamed: FirstThrows;
  readonly all: FirstThrows;
}

function note(group: FirstThrows, found: SignalThrow): void {
  group.any ??= found;
  if (found.maybeContainer === undefined) group.known ??= found;
}

interface Visit {
  readonly element: ModdleObject;
  /** The container whose tool this element is inside, with the tool; absent outside one. */
  readonly within?: {
    readonly agent: string;
    readonly container: string;
    readonly maybe: boolean;
    readonly tool: string;
  };
}

/**
 * Every signal throw inside an agent's tool container in these definitions, the first of each
 * group in document order, in one walk of the document (iterative: as deep as it nests). Empty
 * when no agent has a container.
 */
export function signalThrows(definitions: ModdleObject, context: GateContext): SignalThrows {
  const byName = new Map<string, FirstThrows>();
  const found: SignalThrows = { byName, unnamed: {}, all: {} };
  if (context.toolContainers.size === 0 && context.unreadContainers.length === 0) return found;
  // Children are pushed last first, so that the throws come in document order.
  const stack: Visit[] = listProp(definitions, "rootElements")
    .map((element) => ({ element }))
    .reverse();
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    const { element, within } = visit;
    const thrown = within === undefined ? undefined : thrownSignal(element);
    if (within !== undefined && thrown !== undefined) {
      const one: SignalThrow = {
        agent: within.agent,
        tool: within.tool,
        element: idOf(element) ?? "",
        event: instanceOf(element, "bpmn:EndEvent") ? "end" : "throw",
        name: thrown.name,
        ...(within.maybe ? { maybeContainer: within.container } : {}),
      };
      note(found.all, one);
      if (one.name === undefined) note(found.unnamed, one);
      else {
        let group = byName.get(one.name);
        if (group === undefined) {
          group = {};
          byName.set(one.name, group);
        }
        note(group, one);
      }
    }
    const owner = ownerOf(element, context);
    for (const child of [...listProp(element, "flowElements")].reverse()) {
      const next =
        owner === undefined
          ? within
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

/**
 * Why an agent's tool can complete this wait on a signal itself (`what` starts the sentence: `a
 * catch event`), or `undefined` when no throw of `throws` may broadcast the signal it waits on. A
 * name known only at run time, on either side, may be the same.
 */
export function signalled(
  what: string,
  definition: ModdleObject,
  throws: SignalThrows,
): string | undefined {
  const name = signalName(definition);
  const named = name === undefined ? undefined : throws.byName.get(name);
  // A container known to be an agent's says more than one that may be.
  const by =
    name === undefined
      ? (throws.all.known ?? throws.all.any)
      : (named?.known ?? throws.unnamed.known ?? named?.any ?? throws.unnamed.any);
  if (by === undefined) return undefined;
  const on =
    name === undefined ? "a signal whose name is known only at run time" : `the signal "${name}"`;
  const event = `a signal ${by.event} event${by.name === undefined ? " whose signal is known only at run time" : ""}`;
  const how = by.tool === by.element ? `(${event})` : `(${event} "${by.element}" in it)`;
  if (by.maybeContainer !== undefined) {
    return `${what} on ${on}, which the agent "${by.agent}" may broadcast itself with "${by.tool}" ${how} of the ad-hoc sub-process "${by.maybeContainer}", which may be its tool container (it names its container by FEEL that cannot be read), so it may complete with nobody deciding`;
  }
  return `${what} on ${on}, which the agent "${by.agent}" can broadcast itself with its tool "${by.tool}" ${how}, so it completes with nobody deciding`;
}
