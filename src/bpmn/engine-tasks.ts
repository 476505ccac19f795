/**
 * What a service, send or business rule task of Camunda 7, Flowable or Activiti is as a gate.
 * These engines run most implementations inside themselves (a Java class, an expression, a
 * delegate, a DMN decision, a built-in HTTP or mail task, a connector) and complete the task with
 * nobody deciding; only an external task (or a Flowable task that waits for a trigger or a case)
 * waits for someone outside the engine.
 */
import type { EngineAttribute, PrefixResolver } from "./engine-attributes.js";
import {
  CAMUNDA_7,
  camundaConnector,
  engineAttributes,
  pick,
  UNRESOLVED,
} from "./engine-attributes.js";
import type { ModdleObject } from "./moddle.js";
import { instanceOf } from "./moddle.js";

/** The attributes that name Java code or an expression the engine calls. */
const DELEGATES = ["class", "expression", "delegateExpression"] as const;

/** Camunda 7's types (compared ignoring case, as it does) that run inside the engine. */
const CAMUNDA_7_RUNS = new Set(["mail", "shell"]);
/** Flowable's service task types that wait for someone outside the engine (compared as written). */
const FLOWABLE_WAITS = new Set(["external-worker", "external", "case"]);
/** Flowable's built-in types (compared ignoring case, as it does) that run inside the engine. */
const FLOWABLE_RUNS = new Set(["http", "mail", "mule", "camel", "shell", "dmn"]);

/** The kinds of task another engine implements. */
type TaskKind = "rule" | "send" | "service";

/** Each kind as the reasons name it: the engines are read by kind, never by this wording. */
const WHAT: Readonly<Record<TaskKind, string>> = {
  rule: "a business rule task",
  send: "a send task",
  service: "a service task",
};

/** What kind of task it is; `undefined` for any other element. */
function taskKind(element: ModdleObject): TaskKind | undefined {
  if (instanceOf(element, "bpmn:BusinessRuleTask")) return "rule";
  if (instanceOf(element, "bpmn:SendTask")) return "send";
  if (instanceOf(element, "bpmn:ServiceTask")) return "service";
  return undefined;
}

const NOBODY = "with nobody deciding";
const ANY_ENGINE = "Camunda 7, Flowable or Activiti";

/** The attribute as written, with its value; a renamed namespace says so. */
function shown(a: EngineAttribute): string {
  const text = `${a.written}="${a.value}"`;
  return a.engine === UNRESOLVED ? `${text}, in a namespace that could not be resolved` : text;
}

/** The engine an attribute is of, as the reasons name it. */
const engineOf = (a: EngineAttribute): string => (a.engine === UNRESOLVED ? ANY_ENGINE : a.engine);
const runs = (what: string, a: EngineAttribute): string =>
  `${what} ${engineOf(a)} runs inside the engine (${shown(a)}), which completes it ${NOBODY}`;
const unknownType = (what: string, a: EngineAttribute): string =>
  `${what} of a type agentflow does not know for ${engineOf(a)} (${shown(a)}): only an external task waits for a worker, so it may complete ${NOBODY}`;

/**
 * One engine's reading: why the task passes; `undefined` when the engine waits for someone
 * outside it or nothing of it is written (the same to the verdict: another engine may still run
 * the task).
 */
type Reading = string | undefined;

/** How Camunda 7 completes the task (`BpmnParse.parseServiceTaskLike`: the type decides first). */
function camunda7(
  kind: TaskKind,
  attributes: ReadonlyMap<string, readonly EngineAttribute[]>,
  engines: readonly string[],
  connector: string | undefined,
): Reading {
  const what = WHAT[kind];
  const decision = pick(attributes, "decisionRef", engines);
  if (decision !== undefined && kind === "rule") {
    return `${what} ${engineOf(decision)} evaluates as a DMN decision (${shown(decision)}), ${NOBODY}`;
  }
  const type = pick(attributes, "type", engines);
  if (type !== undefined) {
    const name = type.value.toLowerCase();
    if (name === "external") return undefined; // an external task: a worker fetches it
    return CAMUNDA_7_RUNS.has(name) ? runs(what, type) : unknownType(what, type);
  }
  for (const local of DELEGATES) {
    const delegate = pick(attributes, local, engines);
    if (delegate !== undefined) return runs(what, delegate);
  }
  if (connector !== undefined) {
    const id = connector === "" ? "its connector" : `its connector "${connector}"`;
    return `${what} ${CAMUNDA_7} runs with ${id} (camunda:connector), which completes it ${NOBODY}`;
  }
  return undefined;
}

/**
 * How Flowable (which reads Activiti's namespace as its own) completes the task: its converter
 * makes an external worker, a case or an event task of the type as written, its parser a built-in
 * task of the type in any case; a class, expression or delegate runs unless `triggerable` makes
 * it wait for a trigger. A business rule task runs Drools rules or a class, always in the engine.
 */
function flowable(
  kind: TaskKind,
  attributes: ReadonlyMap<string, readonly EngineAttribute[]>,
  engines: readonly string[],
): Reading {
  const what = WHAT[kind];
  const triggerable = pick(attributes, "triggerable", engines)?.value.toLowerCase() === "true";
  if (kind === "rule") {
    for (const local of [...DELEGATES, "rules", "ruleVariablesInput"]) {
      const a = pick(attributes, local, engines);
      if (a !== undefined) return runs(what, a);
    }
    return undefined;
  }
  const type = pick(attributes, "type", engines);
  if (type !== undefined) {
    const service = kind === "service";
    if (service && FLOWABLE_WAITS.has(type.value)) return undefined;
    // With `triggerable`, an event task waits for its reply event.
    if (service && type.value === "send-event") return triggerable ? undefined : runs(what, type);
    return FLOWABLE_RUNS.has(type.value.toLowerCase()) ? runs(what, type) : unknownType(what, type);
  }
  for (const local of DELEGATES) {
    const delegate = pick(attributes, local, engines);
    if (delegate === undefined) continue;
    return triggerable && kind === "service" ? undefined : runs(what, delegate);
  }
  return undefined;
}

/**
 * Why a service, send or business rule task of Camunda 7, Flowable or Activiti completes with
 * nobody deciding, as the end of a sentence that starts with its id; `undefined` when it waits (an
 * external task, a triggerable or case task) or no such engine's implementation is written. Every
 * engine written on it is read, and any one that runs it inside the engine decides: a gate that
 * counts when it should not is the side that fails open. A type an engine does not know is read
 * as one that runs.
 */
export function engineTaskPasses(
  element: ModdleObject,
  values: readonly ModdleObject[],
  resolve: PrefixResolver,
): string | undefined {
  const kind = taskKind(element);
  if (kind === undefined) return undefined;
  const attributes = engineAttributes(element, resolve);
  const connector = camundaConnector(values);
  if (attributes.size === 0 && connector === undefined) return undefined;
  const readings = [
    // Camunda 7 reads Activiti's namespace as its own too (its parser's alternative URI).
    camunda7(kind, attributes, [CAMUNDA_7, "Activiti"], connector),
    flowable(kind, attributes, ["Flowable", "Activiti"]),
    // A renamed namespace may be any engine's: each reading counts.
    camunda7(kind, attributes, [UNRESOLVED], undefined),
    flowable(kind, attributes, [UNRESOLVED]),
  ];
  return readings.find((r) => r !== undefined);
}

/**
 * Why Flowable (or Activiti) may skip the element: its `skipExpression`, which the engine
 * evaluates when skipping is enabled for the instance (a variable the process sets), completing
 * the element without running it. `undefined` when none is written.
 */
export function skipPasses(element: ModdleObject, resolve: PrefixResolver): string | undefined {
  const skip = pick(engineAttributes(element, resolve), "skipExpression", [
    "Flowable",
    "Activiti",
    UNRESOLVED,
  ]);
  if (skip === undefined || skip.value.trim() === "") return undefined;
  return `an element ${engineOf(skip)} skips when its skip expression holds (${shown(skip)}), so it may complete ${NOBODY}`;
}
