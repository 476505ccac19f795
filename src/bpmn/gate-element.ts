/**
 * What one element is as a gate, read from the element alone and the document's agents
 * (`GateContext`): a Camunda connector by its job type or its template, a receive task or catch an
 * inbound connector subscribes with, a catch whose message an agent's tool can publish (or, as
 * the caller reads it, whose signal it can broadcast). Each reading is the end of a sentence that
 * starts with the element's id (`gate-kind.ts` puts them together).
 */
import { staticText } from "./camunda/static-text.js";
import {
  inboundJob,
  jobTypeReading,
  templateOf,
  zeebeHeaders,
  zeebeProperties,
} from "./camunda/zeebe.js";
import type { ModdleObject } from "./moddle.js";
import { boolProp, instanceOf, listProp, localTypeName, objectProp, stringProp } from "./moddle.js";

/** An agent's tool that can publish a message (Camunda's Send Message connector). */
export interface MessagePublisher {
  /** The agent task's element id. */
  readonly agent: string;
  /** The tool's element id. */
  readonly tool: string;
}

/** What the gate kinds know of the document beyond one element: read from its agents. */
export interface GateContext {
  /**
   * The ad-hoc sub-processes whose elements are an AI agent's tools (an AI Agent task's container,
   * an AI Agent sub-process itself): id → agent id.
   */
  readonly toolContainers: ReadonlyMap<string, string>;
  /**
   * The agents that name their tool container by FEEL agentflow cannot read: any ad-hoc
   * sub-process may be theirs.
   */
  readonly unreadContainers: readonly string[];
  /**
   * An agent's tool that may publish a message of this name (`undefined`: a name known only at
   * run time), or `undefined` when none may.
   */
  readonly publisher: (name: string | undefined) => MessagePublisher | undefined;
}

/** Nothing known beyond the element. */
export const NO_GATE_CONTEXT: GateContext = {
  toolContainers: new Map(),
  unreadContainers: [],
  publisher: () => undefined,
};

/**
 * A job type run by Camunda's own connector runtime (`io.camunda:http-json:1`, the AI agent's
 * `io.camunda.agenticai:aiagent:1`): it completes the job with what it computed or fetched.
 */
const CONNECTOR_JOB = /^io\.camunda[.:]/;

/**
 * An element template of Camunda's connectors (`io.camunda.connectors.HttpJson.v2`, its hybrid
 * copy `…-hybrid`, which a self-managed connector runtime runs on a job type of its own, the IDP
 * connectors' `io.camunda.connector.…`, SOAP's `io.camunda:soap`), written on the element or, as
 * connectors duplicate it, in its `elementTemplateId` header.
 */
const CONNECTOR_TEMPLATE = /^io\.camunda(?:\.connectors?\.|:)/;

/** The event definitions a catch waits on that only someone outside the engine can trigger. */
const OUTSIDE_EVENTS = ["bpmn:MessageEventDefinition", "bpmn:SignalEventDefinition"] as const;

/** How every reason that an element passes ends. */
export const PASSES_NOBODY = "with nobody deciding";
/** The kinds that wait, as the reasons name them. */
export const WAITERS =
  "a user task, a receive task, a message or signal catch, a job worker or a call activity";

/** A job type that is a literal of Camunda's connector runtime, as written; else `undefined`. */
function connectorJob(values: readonly ModdleObject[]): string | undefined {
  const job = jobTypeReading(values);
  return job !== undefined && !job.expression && CONNECTOR_JOB.test(job.type)
    ? job.type
    : undefined;
}

/** Why a Camunda connector (by its job type or its template) completes by itself. */
export function connectorPasses(element: ModdleObject, values: readonly ModdleObject[]) {
  const job = connectorJob(values);
  if (job !== undefined) {
    return `run by Camunda's connector runtime (job type "${job}"), which completes it ${PASSES_NOBODY}`;
  }
  const template = templateOf(element, zeebeHeaders(values)).id;
  if (template === undefined || !CONNECTOR_TEMPLATE.test(template)) return undefined;
  return `made from Camunda's connector template "${template}", which a connector runtime runs and completes ${PASSES_NOBODY}`;
}

/** The local names (`timer`, `conditional`) of an event's definitions. */
function definitionNames(definitions: readonly ModdleObject[]): string {
  const names = definitions.map((d) => localTypeName(d).replace(/eventdefinition$/, ""));
  return names.length === 0 ? "no event definition" : names.join(" or ");
}

/** The name of a message as Zeebe correlates it; `undefined` when known only at run time. */
function messageName(holder: ModdleObject): string | undefined {
  const message = objectProp(holder, "messageRef");
  const name = message === undefined ? undefined : stringProp(message, "name");
  return name === undefined ? undefined : staticText(name.trim());
}

/** Why an agent's tool can complete this wait on a message itself, or `undefined`. */
export function published(
  what: string,
  holder: ModdleObject,
  context: GateContext,
): string | undefined {
  const name = messageName(holder);
  const by = context.publisher(name);
  if (by === undefined) return undefined;
  const on =
    name === undefined ? "a message whose name is known only at run time" : `the message "${name}"`;
  return `${what} on ${on}, which the agent "${by.agent}" can publish itself with its tool "${by.tool}" (Camunda's Send Message connector), so it completes ${PASSES_NOBODY}`;
}

/**
 * Why a catch event completes with nobody outside the engine acting: it waits on no message or
 * signal, or (not `parallelMultiple`) one of its definitions, a timer or a condition, can
 * complete it first, or an agent's tool can publish the message or broadcast the signal it waits
 * on (`sentPasses` reads a definition: why what an agent's tools send elsewhere, in a process a
 * tool calls or as a signal, completes it, else `undefined`).
 * `undefined` when someone must act.
 */
export function catchPasses(
  element: ModdleObject,
  what: string,
  context: GateContext,
  sentPasses: (definition: ModdleObject) => string | undefined = () => undefined,
): string | undefined {
  const definitions = listProp(element, "eventDefinitions");
  const outside = (d: ModdleObject): boolean => OUTSIDE_EVENTS.some((t) => instanceOf(d, t));
  const parallel = boolProp(element, "parallelMultiple");
  const waits = parallel
    ? definitions.some(outside)
    : definitions.length > 0 && definitions.every(outside);
  if (!waits) {
    return `${what} with ${definitionNames(definitions)}, which the engine completes ${PASSES_NOBODY}`;
  }
  const agents = definitions
    .filter(outside)
    .map((d) =>
      instanceOf(d, "bpmn:MessageEventDefinition")
        ? (published(what, d, context) ?? sentPasses(d))
        : sentPasses(d),
    );
  // One message or signal an agent sends completes it; with `parallelMultiple`, all must be such.
  if (parallel && agents.some((m) => m === undefined)) return undefined;
  return agents.find((m) => m !== undefined);
}

/**
 * Why a receive task or catch event that an inbound connector subscribes with completes by
 * itself: Camunda's connector runtime (a webhook, a polling loop, an A2A client waiting for the
 * remote agent's answer) correlates the message when its request or event matches.
 */
export function inboundPasses(element: ModdleObject, values: readonly ModdleObject[]) {
  if (!instanceOf(element, "bpmn:ReceiveTask") && !instanceOf(element, "bpmn:CatchEvent")) {
    return undefined;
  }
  const inbound = inboundJob(zeebeProperties(values));
  if (inbound === undefined) return undefined;
  const what = instanceOf(element, "bpmn:ReceiveTask") ? "a receive task" : "a catch event";
  return `${what} an inbound connector subscribes with (inbound.type "${inbound.type}"): Camunda's connector runtime correlates its message when a request or event matches, ${PASSES_NOBODY}`;
}
