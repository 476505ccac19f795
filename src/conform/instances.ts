/**
 * Process instances as their element records show them, kept compactly until the end of the
 * input (the agent runs that ran in an instance may come in another file, before or after its
 * records): which agent tasks began and how that shows, which gates completed, in what order,
 * and how the instance ended. A record of an element type the approved process does not give
 * that element is of another version of the process: it deviates, and counts for nothing.
 * The gate checks over these facts are in instance-gates.ts.
 */
import type { ApprovedModel, ApprovedProcess } from "./approved.js";
import type { Deviation } from "./deviation.js";
import type { ElementEvent, EventAt } from "./types.js";

/** When an agent task began: its arrival order and its record's place. */
export interface Activation {
  readonly order: number;
  readonly at: EventAt;
}

/** One instance's record, in arrival order. */
export interface Instance {
  readonly key: string;
  readonly process: string;
  readonly approved: ApprovedProcess | undefined;
  /** The last activation record of each agent task. */
  readonly activated: Map<string, Activation>;
  /**
   * Each agent task whose last beginning was not recorded: a record of it (completed,
   * terminated) came with no activation open, so it had begun before that record, unseen.
   */
  readonly unseen: Map<string, Activation & { readonly intent: string }>;
  /** Open activations of each agent task (a multi-instance body and its inner instances nest). */
  readonly running: Map<string, number>;
  /** When each gate completed: the arrival order, and the record's own time when it has one. */
  readonly gateDone: Map<string, { readonly order: number; readonly time?: number }[]>;
  /** The elements already reported as of another type (each once). */
  readonly foreign: Set<string>;
  /** Whether the records hold the process's own activation: whether they show its beginning. */
  started: boolean;
  /**
   * The instance's first record of the process itself (a gate span's decision is none: it shows
   * one gate, not where the instance's records begin); `undefined` while there is none.
   */
  first: EventAt | undefined;
  order: number;
  end: { readonly at: EventAt; readonly order: number } | undefined;
  readonly deviations: Deviation[];
}

/**
 * Every instance seen, by key and then by process id, and the approved processes. An instance is
 * its key *and* its process (`bpmnProcessId`): Zeebe keys repeat across clusters, so a record of
 * the same key for another process is another instance, and never completes a gate of this one.
 */
export interface Instances {
  readonly byKey: Map<string, Map<string, Instance>>;
  readonly model: ApprovedModel;
}

/** Every instance seen, in the order their first records arrived. */
export function allInstances(instances: Instances): Instance[] {
  return [...instances.byKey.values()].flatMap((byProcess) => [...byProcess.values()]);
}

/** The element type of a gate decided on a span of its own (`agentflow.gate.element`): no BPMN type. */
const GATE_DECISION = "GATE";

const processOf = (model: ApprovedModel, id: string): ApprovedProcess | undefined =>
  model.processes.find((p) => p.processIds.includes(id));

function newInstance(instances: Instances, event: ElementEvent): Instance {
  const approved = processOf(instances.model, event.process);
  const instance: Instance = {
    key: event.instance,
    process: event.process,
    approved,
    activated: new Map(),
    unseen: new Map(),
    running: new Map(),
    gateDone: new Map(),
    foreign: new Set(),
    started: false,
    first: undefined,
    order: 0,
    end: undefined,
    deviations: [],
  };
  if (approved === undefined) {
    const approvedIds = instances.model.processes.flatMap((p) => p.processIds).join(", ");
    instance.deviations.push({
      class: "VERSION_UNAPPROVED",
      run: event.instance,
      at: event.at,
      data: {
        kind: "process",
        name: event.process,
        approved: approvedIds === "" ? "none" : approvedIds,
      },
    });
  }
  return instance;
}

/**
 * Whether the record's element type contradicts the approved process: the process element's
 * records name the process itself, and an element's records carry the types Zeebe gives its
 * BPMN type. A contradiction is reported once per element, as another version of the process.
 */
function foreignType(instance: Instance, approved: ApprovedProcess, event: ElementEvent): boolean {
  if (event.elementType === GATE_DECISION) return false;
  const types = approved.elementTypes?.get(event.element);
  const wrong =
    event.elementType === "PROCESS"
      ? event.element !== event.process
      : types !== undefined && !types.includes(event.elementType);
  if (!wrong) return false;
  if (!instance.foreign.has(event.element)) {
    instance.foreign.add(event.element);
    instance.deviations.push({
      class: "VERSION_UNAPPROVED",
      run: event.instance,
      at: event.at,
      node: event.element,
      data: {
        kind: "process",
        name: event.process,
        element: event.element,
        recorded: event.elementType,
        approved: types?.join(" or ") ?? "no process element",
      },
    });
  }
  return true;
}

/** An agent task's record: how it began (seen or not), and how many of its activations are open. */
function pushTask(instance: Instance, event: ElementEvent, order: number): void {
  const open = instance.running.get(event.element) ?? 0;
  if (event.state === "activated") {
    instance.activated.set(event.element, { order, at: event.at });
    instance.unseen.delete(event.element);
    instance.running.set(event.element, open + 1);
    return;
  }
  if (open > 0) {
    instance.running.set(event.element, open - 1);
    return;
  }
  // It ran, and its records do not show it beginning: it began before this record, unseen.
  const intent = event.state === "completed" ? "completion" : "termination";
  instance.unseen.set(event.element, { order, at: event.at, intent });
}

/** Takes one element record. */
export function pushElement(instances: Instances, event: ElementEvent): void {
  let byProcess = instances.byKey.get(event.instance);
  if (byProcess === undefined) {
    byProcess = new Map();
    instances.byKey.set(event.instance, byProcess);
  }
  let instance = byProcess.get(event.process);
  if (instance === undefined) {
    instance = newInstance(instances, event);
    byProcess.set(event.process, instance);
  }
  const order = ++instance.order;
  if (event.elementType !== GATE_DECISION) instance.first ??= event.at;
  const approved = instance.approved;
  if (approved === undefined || foreignType(instance, approved, event)) return;
  if (event.elementType === "PROCESS") {
    if (event.state === "activated") instance.started = true;
    else instance.end = { at: event.at, order };
    return;
  }
  if (!approved.elements.has(event.element)) {
    if (event.state === "activated") {
      instance.deviations.push({
        class: "NODE_UNKNOWN",
        run: event.instance,
        at: event.at,
        node: event.element,
        data: { node: event.element, in: `process ${event.process}` },
      });
    }
    return;
  }
  if (approved.tasks.some((t) => t.elementId === event.element)) pushTask(instance, event, order);
  if (event.state === "completed") {
    const list = instance.gateDone.get(event.element) ?? [];
    list.push(event.time === undefined ? { order } : { order, time: event.time });
    instance.gateDone.set(event.element, list);
  }
}
