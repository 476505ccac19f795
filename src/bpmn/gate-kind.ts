/**
 * Which kinds of element can be an approval gate: one the engine cannot complete until someone
 * outside it acts (a person, a message, a job worker, a called process). A `<btv:gate/>` on an
 * element the engine completes by itself (a manual task or a task with no type, which Zeebe
 * completes as soon as it is reached, a gateway, a throw event, a timer, a FEEL script, a DMN
 * decision, a Camunda connector, outbound or inbound, a task Camunda 7 or Flowable runs inside
 * itself) marks a step nobody decides at, so it is not counted, whatever chose it (the marker, a
 * selector or the host's predicate). Nor is a message an agent's own tool can publish, a signal it
 * can broadcast, nor a sub-process some path through which waits for nobody.
 */
import { agentDeclaration } from "./agents.js";
import { opaqueMarker, runTimeCollection } from "./camunda/opaque.js";
import { jobTypeReading, zeebeValue } from "./camunda/zeebe.js";
import { engineAttributes, prefixResolver } from "./engine-attributes.js";
import { engineTaskPasses, skipPasses } from "./engine-tasks.js";
import type { ContentKind } from "./gate-content.js";
import { everyPathWaits } from "./gate-content.js";
import type { GateContext } from "./gate-element.js";
import {
  catchPasses,
  connectorPasses,
  inboundPasses,
  NO_GATE_CONTEXT,
  PASSES_NOBODY,
  published,
  WAITERS,
} from "./gate-element.js";
import type { AgentSends } from "./gate-signals.js";
import { agentSends, NO_SENDS, sentByAgent } from "./gate-signals.js";
import { calledProcessId, definitionsOf, processOf } from "./called-process.js";
import { mayRunNone } from "./loop-runs.js";
import type { ModdleObject } from "./moddle.js";
import { boolProp, extensionValues, idOf, instanceOf } from "./moddle.js";

export type { GateContext, MessagePublisher } from "./gate-element.js";
export { NO_GATE_CONTEXT } from "./gate-element.js";

/** The process of this id among the element's own definitions, if the document holds it. */
function processInDocument(element: ModdleObject, id: string): ModdleObject | undefined {
  const root = definitionsOf(element);
  return root === undefined ? undefined : processOf(root, id);
}

/** Reads what an element is as a gate, within one document's context. */
class GateKinds {
  /** Per container: whether every path through it waits. */
  private readonly content = new Map<ModdleObject, boolean>();
  /** What the agents' tools in this document can send, read at the first catch. */
  private sends: AgentSends | undefined;
  /** Where the other engines' attributes are: their prefixes resolved once per element. */
  private readonly resolve = prefixResolver();

  constructor(private readonly context: GateContext) {}

  /** How a flow node inside a container is read: an agent (or its tools) is nobody's approval. */
  readonly classify = (element: ModdleObject): ContentKind => {
    if (instanceOf(element, "bpmn:BoundaryEvent")) return "passes";
    const values = extensionValues(element);
    if (instanceOf(element, "bpmn:SubProcess") && boolProp(element, "triggeredByEvent")) {
      return "opens";
    }
    if (agentDeclaration(element, values) !== undefined) return "passes";
    if (opaqueMarker(element, values) !== undefined) return "passes";
    if (skipPasses(element, this.resolve) !== undefined) return "passes";
    // One that may run no instance waits for nobody, whatever it holds.
    if (mayRunNone(element)) return "passes";
    if (instanceOf(element, "bpmn:SubProcess")) {
      const own = this.subProcessOwn(element, values);
      return own === undefined ? "opens" : own === "waits" ? "waits" : "passes";
    }
    // A call in there is taken as waiting, unread: following calls would walk call chains (and
    // cycles) the gate's own reading does not need.
    if (instanceOf(element, "bpmn:CallActivity")) return "waits";
    return this.atomic(element, values) === undefined ? "waits" : "passes";
  };

  /**
   * What decides a sub-process before its content: why it passes (a connector, an agent's tool
   * container, an ad-hoc sub-process whose elements a collection read at run time chooses),
   * `waits` for one a job worker of its own completes, or `undefined` when its content decides.
   */
  private subProcessOwn(
    element: ModdleObject,
    values: readonly ModdleObject[],
  ): string | undefined {
    const connector = connectorPasses(element, values);
    if (connector !== undefined) return connector;
    const id = idOf(element) ?? "";
    const adHoc = instanceOf(element, "bpmn:AdHocSubProcess");
    const agent = adHoc ? this.context.toolContainers.get(id) : undefined;
    if (agent !== undefined) {
      return `the tool container of the agent "${agent}": its elements run when the agent calls them as tools, so it completes ${PASSES_NOBODY}`;
    }
    const unread = adHoc ? this.context.unreadContainers[0] : undefined;
    if (unread !== undefined && jobTypeReading(values) === undefined) {
      return `an ad-hoc sub-process that may be the tool container of the agent "${unread}", which names its container by FEEL that cannot be read, so it may complete ${PASSES_NOBODY}`;
    }
    if (jobTypeReading(values) !== undefined) return "waits";
    const collection = adHoc ? runTimeCollection(values) : undefined;
    if (collection !== undefined) {
      return `an ad-hoc sub-process whose elements the collection "${collection}" chooses at run time, so none that waits for anyone need run`;
    }
    return undefined;
  }

  /**
   * Why an element that is no sub-process or call activity completes with nobody deciding;
   * `undefined` when someone outside the engine must act.
   */
  private atomic(element: ModdleObject, values: readonly ModdleObject[]): string | undefined {
    if (instanceOf(element, "bpmn:UserTask")) return undefined;
    const inbound = inboundPasses(element, values);
    if (inbound !== undefined) return inbound;
    const connector = connectorPasses(element, values);
    if (connector !== undefined) return connector;
    const engine = engineTaskPasses(element, values, this.resolve);
    if (engine !== undefined) return engine;
    if (instanceOf(element, "bpmn:ReceiveTask")) {
      const what = "a receive task";
      return (
        published(what, element, this.context) ??
        sentByAgent(what, element, "message", this.sendsOf(element))
      );
    }
    if (instanceOf(element, "bpmn:Gateway")) {
      return `a gateway, which routes the token ${PASSES_NOBODY}`;
    }
    if (instanceOf(element, "bpmn:ManualTask")) {
      return "a manual task, which the engine completes as soon as it is reached";
    }
    if (instanceOf(element, "bpmn:ScriptTask")) {
      return jobTypeReading(values) === undefined
        ? `a script task, which the engine runs to its result ${PASSES_NOBODY}`
        : undefined;
    }
    if (instanceOf(element, "bpmn:BusinessRuleTask")) {
      // A job worker, or another engine's implementation that waits (engineTaskPasses read it).
      if (jobTypeReading(values) !== undefined) return undefined;
      if (engineAttributes(element, this.resolve).size > 0) return undefined;
      return zeebeValue(values, "calleddecision") !== undefined
        ? `a business rule task that evaluates a DMN decision, ${PASSES_NOBODY}`
        : `a business rule task with no job worker, which no engine deploys as a wait (Zeebe evaluates a DMN decision, Flowable and Activiti run Drools rules, Camunda 7 needs an implementation), so it completes ${PASSES_NOBODY}`;
    }
    if (instanceOf(element, "bpmn:ServiceTask") || instanceOf(element, "bpmn:SendTask")) {
      return undefined;
    }
    if (instanceOf(element, "bpmn:Task")) {
      return "a task with no type, which the engine completes as soon as it is reached";
    }
    if (instanceOf(element, "bpmn:ThrowEvent")) {
      return `${instanceOf(element, "bpmn:EndEvent") ? "an end" : "a throw"} event, which completes as soon as it is reached`;
    }
    if (instanceOf(element, "bpmn:CatchEvent")) {
      const what = "a catch event";
      return catchPasses(element, what, this.context, (d) =>
        sentByAgent(
          what,
          d,
          instanceOf(d, "bpmn:MessageEventDefinition") ? "message" : "signal",
          this.sendsOf(element),
        ),
      );
    }
    return undefined;
  }

  /**
   * What the agents' tools in the element's document can send: read once, since one reading
   * serves one document (its context's agents are that document's), so that a catch at every
   * level of a deep document does not walk up to the root each time.
   */
  private sendsOf(element: ModdleObject): AgentSends {
    if (this.sends === undefined) {
      const root = definitionsOf(element);
      this.sends = root === undefined ? NO_SENDS : agentSends(root, this.context);
    }
    return this.sends;
  }

  /** The agent whose tool container holds the element, at any depth; else `undefined`. */
  private toolOf(element: ModdleObject): string | undefined {
    if (this.context.toolContainers.size === 0) return undefined;
    // Up the `$parent` chain: as deep as the document nests, walked without recursion.
    for (let at: unknown = element.$parent; typeof at === "object" && at !== null;) {
      const scope = at as ModdleObject;
      if (instanceOf(scope, "bpmn:AdHocSubProcess")) {
        const agent = this.context.toolContainers.get(idOf(scope) ?? "");
        if (agent !== undefined) return agent;
      }
      at = scope.$parent;
    }
    return undefined;
  }

  /**
   * Why a call activity completes with nobody deciding: the process it calls is in the same
   * document and some path through it waits for nobody. A process the document does not hold,
   * or one named by an expression, is the modeller's declaration that it is the approval.
   */
  private callPasses(element: ModdleObject): string | undefined {
    const id = calledProcessId(element);
    const called = id === undefined ? undefined : processInDocument(element, id);
    if (called === undefined || everyPathWaits(called, this.classify, this.content)) {
      return undefined;
    }
    return `a call activity of the process "${id ?? ""}" in this document, which has a path from its start to its end past nothing that waits for anyone (${WAITERS}), so it may complete ${PASSES_NOBODY}`;
  }

  /**
   * Why `element` completes with nobody deciding, as the end of a sentence that starts with its
   * id (`a manual task, which …`); `undefined` when the engine waits for someone outside it.
   */
  readonly passesThrough = (element: ModdleObject): string | undefined => {
    const agent = this.toolOf(element);
    if (agent !== undefined) {
      return `a tool of the agent "${agent}" (in its tool container): it runs when the agent calls it, so it completes ${PASSES_NOBODY}`;
    }
    const skipped = skipPasses(element, this.resolve);
    if (skipped !== undefined) return skipped;
    if (instanceOf(element, "bpmn:CallActivity")) return this.callPasses(element);
    const values = extensionValues(element);
    if (!instanceOf(element, "bpmn:SubProcess")) return this.atomic(element, values);
    const own = this.subProcessOwn(element, values);
    if (own === "waits") return undefined;
    if (own !== undefined) return own;
    if (everyPathWaits(element, this.classify, this.content)) return undefined;
    const what = instanceOf(element, "bpmn:AdHocSubProcess")
      ? "an ad-hoc sub-process in which an element it may activate leads to its end"
      : "a sub-process with a path from its start to its end";
    return `${what} past nothing that waits for anyone (${WAITERS}), so it may complete ${PASSES_NOBODY}`;
  };
}

/**
 * A reader of why elements of one document complete with nobody deciding
 * ({@link passesThrough}), sharing what it learns of their sub-processes.
 */
export function gateKinds(
  context: GateContext = NO_GATE_CONTEXT,
): (element: ModdleObject) => string | undefined {
  return new GateKinds(context).passesThrough;
}

/**
 * Why `element` completes with nobody deciding, as the end of a sentence that starts with its id
 * (`a manual task, which …`); `undefined` when the engine waits for someone outside it: a user
 * task; a receive task or a message or signal catch that no inbound connector subscribes with,
 * whose message no agent's tool can publish and whose signal none can broadcast; a task a job
 * worker other than Camunda's connector runtime completes (or whose job type is known only at
 * run time), unless a Camunda connector template made it; a task of Camunda 7, Flowable or
 * Activiti that waits for a worker or a trigger (an external task), not one the engine runs
 * itself; a call activity (unless the process it calls is in the document and some path through
 * it waits for nobody); or a sub-process every path through which passes one of these
 * (docs/gate-paths.md). An element Flowable may skip (`skipExpression`) waits for nobody.
 */
export function passesThrough(
  element: ModdleObject,
  context: GateContext = NO_GATE_CONTEXT,
): string | undefined {
  return gateKinds(context)(element);
}
