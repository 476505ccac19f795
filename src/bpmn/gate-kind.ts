/**
 * Which kinds of element can be an approval gate: one the engine cannot complete until something
 * outside it acts (a person, a message, a job worker, a called process). A `<btv:gate/>` on an
 * element the engine completes by itself (a manual task or a task with no type, which Zeebe
 * completes as soon as it is reached, a gateway, a throw event, a timer, a FEEL script, a DMN
 * decision, a Camunda connector) marks a step nobody decides at, so it is not counted, whatever
 * chose it (the marker, a selector or the host's predicate).
 */
import { agentDeclaration } from "./agents.js";
import { jobTypeReading, zeebeValue } from "./camunda/zeebe.js";
import type { ModdleObject } from "./moddle.js";
import {
  boolProp,
  extensionValues,
  idOf,
  instanceOf,
  listProp,
  localTypeName,
  stringProp,
} from "./moddle.js";

/**
 * A job type run by Camunda's own connector runtime (`io.camunda:http-json:1`, the AI agent's
 * `io.camunda.agenticai:aiagent:1`): it completes the job with what it computed or fetched.
 */
const CONNECTOR_JOB = /^io\.camunda[.:]/;

/** The event definitions a catch waits on that only someone outside the engine can trigger. */
const OUTSIDE_EVENTS = ["bpmn:MessageEventDefinition", "bpmn:SignalEventDefinition"] as const;

/** A job type that is a literal of Camunda's connector runtime, as written; else `undefined`. */
function connectorJob(values: readonly ModdleObject[]): string | undefined {
  const job = jobTypeReading(values);
  return job !== undefined && !job.expression && CONNECTOR_JOB.test(job.type)
    ? job.type
    : undefined;
}

/** The local names (`timer`, `conditional`) of an event's definitions. */
function definitionNames(definitions: readonly ModdleObject[]): string {
  const names = definitions.map((d) => localTypeName(d).replace(/eventdefinition$/, ""));
  return names.length === 0 ? "no event definition" : names.join(" or ");
}

/**
 * Why a catch event completes with nobody outside the engine acting: it waits on no message or
 * signal, or (not `parallelMultiple`) one of its definitions, a timer or a condition, can
 * complete it first. `undefined` when someone must act.
 */
function catchPasses(element: ModdleObject, what: string): string | undefined {
  const definitions = listProp(element, "eventDefinitions");
  const outside = (d: ModdleObject): boolean => OUTSIDE_EVENTS.some((t) => instanceOf(d, t));
  const waits = boolProp(element, "parallelMultiple")
    ? definitions.some(outside)
    : definitions.length > 0 && definitions.every(outside);
  if (waits) return undefined;
  return `${what} with ${definitionNames(definitions)}, which the engine completes with nobody deciding`;
}

/**
 * Whether an element inside a sub-process (or a called process) waits for someone outside the
 * engine: what {@link passesThrough} counts as a gate, looked at without its loop. A call
 * activity in there is taken as waiting, unread: following calls would walk call chains (and
 * cycles) the gate's own reading does not need.
 */
function waits(element: ModdleObject): boolean {
  return instanceOf(element, "bpmn:CallActivity") || passesThrough(element) === undefined;
}

/**
 * The id of the process a call activity calls, when it is written as a literal: the
 * `zeebe:calledElement processId` Camunda 8 runs, else BPMN's own `calledElement`. `undefined`
 * for a FEEL expression (`=…`: known when the process runs) or none.
 */
function calledProcessId(element: ModdleObject): string | undefined {
  const zeebe = zeebeValue(extensionValues(element), "calledelement");
  const id =
    (zeebe === undefined ? undefined : stringProp(zeebe, "processId")) ??
    stringProp(element, "calledElement");
  const text = id?.trim();
  return text === undefined || text === "" || text.startsWith("=") ? undefined : text;
}

/** The process of this id among the element's own definitions, if the document holds it. */
function processInDocument(element: ModdleObject, id: string): ModdleObject | undefined {
  let root: ModdleObject | undefined = element;
  // Up the `$parent` chain: as deep as the document nests, walked without recursion.
  while (root !== undefined && !instanceOf(root, "bpmn:Definitions")) {
    const parent: unknown = root.$parent;
    root = typeof parent === "object" && parent !== null ? (parent as ModdleObject) : undefined;
  }
  if (root === undefined) return undefined;
  return listProp(root, "rootElements").find(
    (candidate) => instanceOf(candidate, "bpmn:Process") && idOf(candidate) === id,
  );
}

/**
 * Why a call activity completes with nobody deciding: the process it calls is in the same
 * document and nothing in it waits for anyone. A process the document does not hold, or one
 * named by an expression, is the modeller's declaration that it is the approval, and counts.
 */
function callPasses(element: ModdleObject): string | undefined {
  const id = calledProcessId(element);
  const called = id === undefined ? undefined : processInDocument(element, id);
  if (called === undefined || contentWaits(called)) return undefined;
  return `a call activity of the process "${id ?? ""}" in this document, with nothing in it that waits for anyone, so it completes with nobody deciding`;
}

/**
 * Whether a sub-process holds, at any depth, a flow element that waits for someone other than
 * an agent: a sub-process whose content all completes by itself passes like one task. Event
 * sub-processes and boundary events are left out, as they run only when their own trigger fires.
 * Iterative: the depth is the document's.
 */
function contentWaits(subProcess: ModdleObject): boolean {
  const stack = [...listProp(subProcess, "flowElements")];
  for (let element = stack.pop(); element !== undefined; element = stack.pop()) {
    if (!instanceOf(element, "bpmn:FlowNode")) continue;
    if (instanceOf(element, "bpmn:SubProcess")) {
      if (boolProp(element, "triggeredByEvent")) continue;
      if (connectorJob(extensionValues(element)) !== undefined) continue;
      stack.push(...listProp(element, "flowElements"));
      continue;
    }
    if (instanceOf(element, "bpmn:BoundaryEvent")) continue;
    // An agent is nobody's approval, whatever job it runs on: a gate is a person.
    if (agentDeclaration(element, extensionValues(element)) !== undefined) continue;
    if (waits(element)) return true;
  }
  return false;
}

/**
 * Why `element` completes with nobody deciding, as the end of a sentence that starts with its id
 * (`a manual task, which …`); `undefined` when the engine waits for someone outside it: a user
 * task, a receive task, a message or signal catch, a task a job worker other than Camunda's
 * connector runtime completes (or whose job type is known only at run time), a call activity
 * (unless the process it calls is in the document and holds none of these), or a sub-process
 * holding one of these.
 */
export function passesThrough(element: ModdleObject): string | undefined {
  if (instanceOf(element, "bpmn:UserTask") || instanceOf(element, "bpmn:ReceiveTask")) {
    return undefined;
  }
  if (instanceOf(element, "bpmn:CallActivity")) return callPasses(element);
  const values = extensionValues(element);
  const connector = connectorJob(values);
  if (connector !== undefined) {
    return `run by Camunda's connector runtime (job type "${connector}"), which completes it with nobody deciding`;
  }
  if (instanceOf(element, "bpmn:SubProcess")) {
    if (jobTypeReading(values) !== undefined || contentWaits(element)) return undefined;
    return "a sub-process with nothing in it that waits for anyone (no user task, receive task, message or signal catch, job worker or call activity), so it completes with nobody deciding";
  }
  if (instanceOf(element, "bpmn:Gateway")) {
    return "a gateway, which routes the token with nobody deciding";
  }
  if (instanceOf(element, "bpmn:ManualTask")) {
    return "a manual task, which the engine completes as soon as it is reached";
  }
  if (instanceOf(element, "bpmn:ScriptTask")) {
    return jobTypeReading(values) === undefined
      ? "a script task, which the engine runs to its result with nobody deciding"
      : undefined;
  }
  if (instanceOf(element, "bpmn:BusinessRuleTask")) {
    return zeebeValue(values, "calleddecision") !== undefined &&
      jobTypeReading(values) === undefined
      ? "a business rule task that evaluates a DMN decision, with nobody deciding"
      : undefined;
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
  if (instanceOf(element, "bpmn:CatchEvent")) return catchPasses(element, "a catch event");
  return undefined;
}
