/**
 * The gate checks over process instances' records: a task whose level requires a gate, and a
 * tool whose effect needs one, must be followed by a completed gate the static verdict relied
 * on, in the same instance, after the task began.
 */
import type { ApprovedTask } from "./approved.js";
import type { Deviation, Unverified } from "./deviation.js";
import type { Activation, Instance, Instances } from "./instances.js";
import type { GatedStep } from "./replay.js";
import type { InstanceResult } from "./results.js";
import type { ProcessLink } from "./types.js";

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

/** When an agent task last began, and whether its records show that beginning. */
interface Begin extends Activation {
  readonly recorded: boolean;
  /** For a beginning not recorded: the record that shows the task ran (its completion...). */
  readonly intent?: string;
}

function lastBegin(instance: Instance, task: ApprovedTask): Begin | undefined {
  const unseen = instance.unseen.get(task.elementId);
  if (unseen !== undefined) return { ...unseen, recorded: false };
  const activation = instance.activated.get(task.elementId);
  return activation === undefined ? undefined : { ...activation, recorded: true };
}

/**
 * The agent tasks of an instance that need a gate and have passed none of their gates since they
 * last began, each with that beginning: recorded (an activation), shown only by a later record
 * of the task, or — in an instance whose records begin after it did (no activation of the
 * process) — not shown at all, when no gate of the task completed in the records either.
 */
function* ungatedTasks(
  instance: Instance,
): Generator<{ readonly task: ApprovedTask; readonly begin: Begin | undefined }> {
  for (const task of instance.approved?.tasks ?? []) {
    if (!task.gateRequired) continue;
    const begin = lastBegin(instance, task);
    if (begin === undefined) {
      // Records of the instance that begin after it did may have missed the task: unless a gate
      // of it completed, whether it ran and passed one cannot be told. Gate spans alone are no
      // records of the instance, and say nothing of where they begin.
      const late = instance.first !== undefined && !instance.started;
      if (late && !gatePassed(instance, task, 0)) yield { task, begin };
      continue;
    }
    if (!gatePassed(instance, task, begin.order)) yield { task, begin };
  }
}

/**
 * An instance's result: its deviations, and its gate checks for the agent tasks whose level
 * requires a gate. A task that began (by its activation record) and passed no gate after is
 * `GATE_MISSING` when the instance ended, and unverified (`RUN_UNFINISHED`) when its records end
 * first. A task whose beginning the records do not show is unverified (`START_UNRECORDED`): a
 * gate passed before the first record of it cannot be placed before or after it began.
 */
export function instanceResult(instance: Instance): InstanceResult {
  const deviations = [...instance.deviations];
  const unverified: Unverified[] = [];
  const end = instance.end;
  for (const { task, begin } of ungatedTasks(instance)) {
    const node = task.elementId;
    const data = { instance: instance.key, task: node, gates: gateList(task) };
    if (begin?.recorded === true && end !== undefined) {
      deviations.push({ class: "GATE_MISSING", run: instance.key, at: end.at, node, data });
    } else if (begin?.recorded === true) {
      unverified.push({ reason: "RUN_UNFINISHED", run: instance.key, at: begin.at, node, data });
    } else {
      // Yielded without a beginning only where the instance's records have a first one.
      const at = begin?.at ?? instance.first;
      unverified.push({
        reason: "START_UNRECORDED",
        run: instance.key,
        ...(at === undefined ? {} : { at }),
        node,
        data: { ...data, seen: begin !== undefined, first: begin?.intent ?? null },
      });
    }
  }
  return {
    instance: instance.key,
    process: instance.process,
    ended: end !== undefined,
    deviations,
    unverified,
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
