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
import type { ElementEvent, EventAt, ProcessLink } from "./types.js";

/** One instance's record, in arrival order. */
export interface Instance {
  readonly key: string;
  readonly process: string;
  readonly approved: ApprovedProcess | undefined;
  /** Order of the last activation of each agent task. */
  readonly activated: Map<string, { readonly order: number; readonly at: EventAt }>;
  /** Orders at which each gate completed. */
  readonly gateDone: Map<string, number[]>;
  order: number;
  end: { readonly at: EventAt; readonly order: number } | undefined;
  readonly deviations: Deviation[];
}

/** Every instance seen, by key, and the set of gates and tasks of the approved processes. */
export interface Instances {
  readonly byKey: Map<string, Instance>;
  readonly model: ApprovedModel;
}

const processOf = (model: ApprovedModel, id: string): ApprovedProcess | undefined =>
  model.processes.find((p) => p.processIds.includes(id));

/** Takes one element record. */
export function pushElement(instances: Instances, event: ElementEvent): void {
  let instance = instances.byKey.get(event.instance);
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
    instances.byKey.set(event.instance, instance);
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
    list.push(order);
    instance.gateDone.set(event.element, list);
  }
}

/** Whether a gate of `task` completed after order `after` in `instance`. */
function gatePassed(instance: Instance, task: ApprovedTask, after: number): boolean {
  return task.gates.some((g) => (instance.gateDone.get(g) ?? []).some((o) => o > after));
}

/** The gate deviations of each ended instance for its agent tasks whose level requires a gate. */
export function instanceGateFindings(instance: Instance): Deviation[] {
  const approved = instance.approved;
  const end = instance.end;
  if (approved === undefined || end === undefined) return [];
  const found: Deviation[] = [];
  for (const task of approved.tasks) {
    const activation = instance.activated.get(task.elementId);
    if (!task.gateRequired || activation === undefined) continue;
    if (gatePassed(instance, task, activation.order)) continue;
    found.push({
      class: "GATE_MISSING",
      run: instance.key,
      at: end.at,
      node: task.elementId,
      data: { instance: instance.key, task: task.elementId, gates: gateList(task) },
    });
  }
  return found;
}

const gateList = (task: ApprovedTask): string =>
  task.gates.length === 0 ? "none downstream" : task.gates.join(", ");

/**
 * The gate check of a run's tools that need a gate: the instance it ran in must have passed a
 * gate of its task after the task began. A run without a process link, or whose instance's
 * records are missing or unfinished, is unverified.
 */
export function gatedStepFindings(
  instances: Instances,
  run: string,
  link: ProcessLink | undefined,
  steps: readonly GatedStep[],
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
  const instance = link === undefined ? undefined : instances.byKey.get(link.instance);
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
    if (instance?.approved === undefined) {
      why(step, `no records of process instance ${link.instance} were given`);
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
    const activation = instance.activated.get(task.elementId)?.order ?? 0;
    if (gatePassed(instance, task, activation)) continue;
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
