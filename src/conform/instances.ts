/**
 * Process instances as their element records show them, kept compactly until the end of the
 * input (the agent runs that ran in an instance may come in another file, before or after its
 * records): which agent tasks were activated, which gates completed, in what order, and how the
 * instance ended. Then the gate checks: a task whose level requires a gate, and a tool whose
 * effect needs one, must be followed by a completed gate the static verdict relied on.
 */
import type { ApprovedModel, ApprovedProcess, ApprovedTask } from "./approved.js";
import type { Deviation, Unverified } from "./deviation.js";
import type { GatedStep } from "./replay.js";
import type { InstanceResult } from "./results.js";
import type { ElementEvent, EventAt, ProcessLink } from "./types.js";

/** One instance's record, in arrival order. */
export interface Instance {
  readonly key: string;
  readonly process: string;
  readonly approved: ApprovedProcess | undefined;
  /** Order of the last activation of each agent task. */
  readonly activated: Map<string, Activation>;
  /** When each gate completed: the arrival order, and the record's own time when it has one. */
  readonly gateDone: Map<string, { readonly order: number; readonly time?: number }[]>;
  order: number;
  end: { readonly at: EventAt; readonly order: number } | undefined;
  readonly deviations: Deviation[];
}

/** When an agent task last began: its arrival order and its record's place. */
interface Activation {
  readonly order: number;
  readonly at: EventAt;
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

const processOf = (model: ApprovedModel, id: string): ApprovedProcess | undefined =>
  model.processes.find((p) => p.processIds.includes(id));

/** Takes one element record. */
export function pushElement(instances: Instances, event: ElementEvent): void {
  let byProcess = instances.byKey.get(event.instance);
  if (byProcess === undefined) {
    byProcess = new Map();
    instances.byKey.set(event.instance, byProcess);
  }
  let instance = byProcess.get(event.process);
  if (instance === undefined) {
    const approved = processOf(instances.model, event.process);
    instance = {
      key: event.instance,
      process: event.process,
      approved,
      activated: new Map(),
      gateDone: new Map(),
      order: 0,
      end: undefined,
      deviations: [],
    };
    byProcess.set(event.process, instance);
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
  }
  const order = ++instance.order;
  const approved = instance.approved;
  if (approved === undefined) return;
  if (event.elementType === "PROCESS") {
    if (event.state !== "activated") instance.end = { at: event.at, order };
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
  if (event.state === "activated" && approved.tasks.some((t) => t.elementId === event.element)) {
    instance.activated.set(event.element, { order, at: event.at });
  }
  if (event.state === "completed") {
    const list = instance.gateDone.get(event.element) ?? [];
    list.push(event.time === undefined ? { order } : { order, time: event.time });
    instance.gateDone.set(event.element, list);
  }
}

/** Whether a gate of `task` completed after order `after` in `instance`. */
function gatePassed(instance: Instance, task: ApprovedTask, after: number): boolean {
  return task.gates.some((g) => (instance.gateDone.get(g) ?? []).some((o) => o.order > after));
}

/**
 * Whether a gate of `task` completed, by its record's own time, at or after epoch ms `since`:
 * the time the task's agent run began, by which the task had begun (records of other files
 * arrive in no time order, so only times can compare them).
 */
function gatePassedSince(instance: Instance, task: ApprovedTask, since: number): boolean {
  return task.gates.some((g) =>
    (instance.gateDone.get(g) ?? []).some((o) => o.time !== undefined && o.time >= since),
  );
}

/**
 * The agent tasks of an instance that need a gate, began, and have passed none of their gates
 * since, each with the record of its beginning: the gate deviations of an ended instance, and
 * what an unfinished one leaves open.
 */
function* ungatedTasks(
  instance: Instance,
): Generator<{ readonly task: ApprovedTask; readonly activation: Activation }> {
  for (const task of instance.approved?.tasks ?? []) {
    const activation = instance.activated.get(task.elementId);
    if (!task.gateRequired || activation === undefined) continue;
    if (!gatePassed(instance, task, activation.order)) yield { task, activation };
  }
}

/** The gate deviations of each ended instance for its agent tasks whose level requires a gate. */
function instanceGateFindings(instance: Instance): Deviation[] {
  const end = instance.end;
  if (end === undefined) return [];
  return [...ungatedTasks(instance)].map(({ task }) => ({
    class: "GATE_MISSING",
    run: instance.key,
    at: end.at,
    node: task.elementId,
    data: { instance: instance.key, task: task.elementId, gates: gateList(task) },
  }));
}

/**
 * What an instance that has not ended in the records leaves open: an agent task that needs a gate
 * began and no gate of it has been passed yet, so whether the instance will pass one cannot be
 * seen. Each such task is unverified (`RUN_UNFINISHED`), never counted as passed.
 */
function instanceUnfinished(instance: Instance): Unverified[] {
  if (instance.end !== undefined) return [];
  return [...ungatedTasks(instance)].map(({ task, activation }) => ({
    reason: "RUN_UNFINISHED",
    run: instance.key,
    at: activation.at,
    node: task.elementId,
    data: { instance: instance.key, task: task.elementId, gates: gateList(task) },
  }));
}

/** An instance's result: its deviations, its gate checks, and what its records leave open. */
export function instanceResult(instance: Instance): InstanceResult {
  return {
    instance: instance.key,
    process: instance.process,
    ended: instance.end !== undefined,
    deviations: [...instance.deviations, ...instanceGateFindings(instance)],
    unverified: instanceUnfinished(instance),
  };
}

/**
 * The instance a run's link names: by key and process; by key alone when the link names no
 * process and one process's records hold that key. Several do: the processes' ids, joined.
 */
function instanceOf(instances: Instances, link: ProcessLink): Instance | string | undefined {
  const byProcess = instances.byKey.get(link.instance);
  if (byProcess === undefined) return undefined;
  if (link.process !== undefined) return byProcess.get(link.process);
  if (byProcess.size > 1) return [...byProcess.keys()].join(", ");
  return byProcess.values().next().value;
}

const gateList = (task: ApprovedTask): string =>
  task.gates.length === 0 ? "none downstream" : task.gates.join(", ");

/**
 * The gate check of a run's tools that need a gate: the instance it ran in must have passed a
 * gate of its task after the task began (after its activation record, or, without one, at or
 * after `started`, the run's own start time). A run without a process link, whose instance's
 * records are missing or unfinished, or that cannot be placed before a gate, is unverified.
 */
export function gatedStepFindings(
  instances: Instances,
  run: string,
  link: ProcessLink | undefined,
  steps: readonly GatedStep[],
  started?: number,
): { deviations: Deviation[]; unverified: Unverified[] } {
  const deviations: Deviation[] = [];
  const unverified: Unverified[] = [];
  if (steps.length === 0) return { deviations, unverified };
  const why = (step: GatedStep, text: string): void => {
    unverified.push({
      reason: "GATE_UNOBSERVED",
      run,
      at: step.at,
      node: step.node,
      data: { node: step.node, why: text },
    });
  };
  const found = link === undefined ? undefined : instanceOf(instances, link);
  const instance = typeof found === "string" ? undefined : found;
  for (const step of steps) {
    // Approved without a process, nothing shows a gate: the run cannot be cleared, not passed.
    if (instances.model.processes.length === 0) {
      why(step, "no approved process holds a gate for it");
      continue;
    }
    if (link === undefined) {
      why(step, "the run names no process instance, so whether a gate was passed cannot be seen");
      continue;
    }
    if (typeof found === "string") {
      why(
        step,
        `records of process instance ${link.instance} are of several processes (${found}), and the run names none (agentflow.bpmn.process), so which instance it ran in cannot be told`,
      );
      continue;
    }
    if (instance?.approved === undefined) {
      const of = link.process === undefined ? "" : ` of process ${link.process}`;
      why(step, `no records of process instance ${link.instance}${of} were given`);
      continue;
    }
    const task = instance.approved.tasks.find((t) => t.elementId === link.element);
    if (task === undefined) {
      why(
        step,
        `the run's task ${link.element ?? "(unnamed)"} is no agent task of the approved process`,
      );
      continue;
    }
    const activation = instance.activated.get(task.elementId);
    if (activation === undefined && started !== undefined) {
      if (gatePassedSince(instance, task, started)) continue;
    }
    if (activation === undefined && gatePassed(instance, task, 0)) {
      // A gate completed, but whether before or after the task began cannot be told.
      why(
        step,
        `the records of process instance ${link.instance} do not show when task ${task.elementId} began, so whether a gate of it (${gateList(task)}) was passed after it cannot be seen`,
      );
      continue;
    }
    if (activation !== undefined && gatePassed(instance, task, activation.order)) continue;
    if (instance.end === undefined) {
      why(
        step,
        `process instance ${link.instance} has not ended in the records and has not passed a gate yet`,
      );
      continue;
    }
    deviations.push({
      class: "GATE_NOT_PASSED",
      run,
      at: step.at,
      node: step.node,
      data: {
        node: step.node,
        effect: step.effect,
        authorization: step.authorization,
        instance: link.instance,
        task: task.elementId,
        gates: gateList(task),
      },
    });
  }
  return { deviations, unverified };
}
