/**
 * Which approved workflow a run is checked against. A run that names its agent task (a Camunda
 * agent instance names its process and element) is checked against what that task's approved
 * process runs there; one that names only its process, against a workflow approved to run in it;
 * otherwise against the workflow it names, `--workflow`, or the only one approved. An
 * `id@version` need not name one workflow (two Camunda agents with the same element id derive the
 * same ref), so a run is never checked against the first of several: it is unverified, with the
 * candidates named. A process, agent task or workflow nobody approved there deviates.
 */
import type { ApprovedModel, ApprovedProcess, ApprovedTask, ApprovedWorkflow } from "./approved.js";
import type { FindingData } from "./deviation.js";
import { contentHash, parseRef } from "../model/index.js";
import type { ProcessLink } from "./types.js";

/** What a run is checked against, or why it is checked against nothing. */
export type Attribution =
  | { readonly kind: "workflow"; readonly workflow: ApprovedWorkflow }
  /** `VERSION_UNAPPROVED`; `name` is the workflow the result names (the run's own, when it has one). */
  | { readonly kind: "unapproved"; readonly name: string | null; readonly data: FindingData }
  | {
      readonly kind: "unverified";
      readonly reason: "WORKFLOW_UNNAMED" | "WORKFLOW_AMBIGUOUS";
      readonly name: string | null;
      readonly data: FindingData;
    };

interface Placed {
  readonly process: ApprovedProcess;
  readonly task: ApprovedTask;
}

const contents = new WeakMap<ApprovedWorkflow, string>();
let uncomparable = 0;

/** What a workflow is approved as, whole: two equal ones (one agent in two processes) are one. */
function contentOf(w: ApprovedWorkflow): string {
  let key = contents.get(w);
  if (key === undefined) {
    const entries = <T>(map: ReadonlyMap<string, T> | undefined): unknown[] =>
      [...(map ?? new Map<string, T>())].map(([k, v]) => [k, v ?? null]);
    try {
      key = contentHash({
        ref: w.ref,
        workflow: w.workflow,
        tools: entries(w.tools),
        derivedTools: entries(w.derivedTools),
        prompts: entries(w.prompts),
      });
    } catch {
      // A host's value with no JSON form is compared by identity alone.
      key = `#${String(++uncomparable)}`;
    }
    contents.set(w, key);
  }
  return key;
}

/** The workflows, each content once (the first of equal ones). */
function distinct(items: Iterable<ApprovedWorkflow>): ApprovedWorkflow[] {
  const byContent = new Map<string, ApprovedWorkflow>();
  for (const w of items) if (!byContent.has(contentOf(w))) byContent.set(contentOf(w), w);
  return [...byContent.values()];
}

const unique = <T>(items: Iterable<T>): T[] => [...new Set(items)];

/** A reference's id, or the text itself when it is no reference. */
const idOfRef = (ref: string): string => {
  const parsed = parseRef(ref);
  return parsed.ok ? parsed.ref.id : ref;
};

const where = ({ process, task }: Placed): string =>
  `${process.processIds.join("|")}/${task.elementId}`;

/** The approved workflows a task may run: its own, else those of its ref; `null` when unknown. */
function taskWorkflows(model: ApprovedModel, task: ApprovedTask): ApprovedWorkflow[] | null {
  if (task.resolved !== undefined) return [task.resolved];
  if (task.workflow === null) return null;
  return distinct(model.workflows.filter((w) => w.ref === task.workflow));
}

/** Each candidate as the agent tasks of `processes` that run it (`process/element`), else its ref. */
function describe(
  processes: readonly ApprovedProcess[],
  candidates: readonly ApprovedWorkflow[],
): string {
  return candidates
    .map((w) => {
      const at = processes.flatMap((process) =>
        process.tasks.filter((task) => task.resolved === w).map((task) => where({ process, task })),
      );
      return at.length === 0 ? w.ref : `${at.join(", ")}: ${w.ref}`;
    })
    .join("; ");
}

/** The one candidate, or the run unverified among several (described in `processes`). */
function choose(
  processes: readonly ApprovedProcess[],
  candidates: readonly ApprovedWorkflow[],
  name: string | null,
  hint?: string,
): Attribution | undefined {
  if (candidates.length === 1 && candidates[0] !== undefined) {
    return { kind: "workflow", workflow: candidates[0] };
  }
  if (candidates.length < 2) return undefined;
  const data = {
    count: candidates.length,
    candidates: describe(processes, candidates),
    ...(hint === undefined ? {} : { hint }),
  };
  return { kind: "unverified", reason: "WORKFLOW_AMBIGUOUS", name, data };
}

/** The run's workflow by its name (or none): the one approved under it, or the only one. */
function byName(model: ApprovedModel, ref: string | undefined): Attribution {
  if (ref === undefined) {
    const all = distinct(model.workflows);
    const only = all.length === 1 ? all[0] : undefined;
    if (only !== undefined) return { kind: "workflow", workflow: only };
    return {
      kind: "unverified",
      reason: "WORKFLOW_UNNAMED",
      name: null,
      data: { count: all.length },
    };
  }
  const matches = distinct(model.workflows.filter((w) => w.ref === ref));
  const chosen = choose(
    model.processes,
    matches,
    ref,
    "the run names its workflow, not its process",
  );
  if (chosen !== undefined) return chosen;
  const same = distinct(model.workflows.filter((w) => idOfRef(w.ref) === idOfRef(ref)));
  const approved = same.map((w) => w.ref).join(", ");
  return {
    kind: "unapproved",
    name: ref,
    data: { kind: "workflow", name: ref, ...(approved === "" ? {} : { approved }) },
  };
}

/** The approved workflows `w` delegates to (a delegate edge's `to` is a ref). */
function delegatesOf(model: ApprovedModel, w: ApprovedWorkflow): ApprovedWorkflow[] {
  // A host's workflow is not validated here: what is no delegate edge delegates to nothing.
  const edges: unknown = w.workflow.edges;
  const refs = new Set(
    (Array.isArray(edges) ? edges : []).flatMap((e: unknown) => {
      const edge = typeof e === "object" && e !== null ? (e as Record<string, unknown>) : {};
      const parsed = edge.edgeType === "delegate" ? parseRef(edge.to) : undefined;
      return parsed?.ok === true ? [parsed.canonical] : [];
    }),
  );
  return model.workflows.filter((d) => refs.has(d.ref));
}

/**
 * What may run in `processes`: each agent task's approved workflow and the delegates they name
 * (the workflows an approval's decisions resolve); `open`, the agent tasks with none approved.
 */
function scopeOf(
  model: ApprovedModel,
  processes: readonly ApprovedProcess[],
): { readonly workflows: ApprovedWorkflow[]; readonly open: string[] } {
  const found: ApprovedWorkflow[] = [];
  const open: string[] = [];
  for (const process of processes) {
    for (const task of process.tasks) {
      const known = taskWorkflows(model, task) ?? [];
      if (known.length === 0) open.push(where({ process, task }));
      found.push(...known);
    }
  }
  // An array's iterator sees what is pushed while it runs, so delegates of delegates are met
  // too; each workflow enters once, so this ends.
  for (const w of found) found.push(...delegatesOf(model, w).filter((d) => !found.includes(d)));
  return { workflows: distinct(found), open };
}

/**
 * The run's workflow when its link names its process `id` (of `processes`) but no agent task:
 * only a workflow approved to run there can stand. `ref` is the workflow the run names (or
 * `--workflow`); with none, the process's workflows decide, and an agent task of it with no
 * approved workflow may be the one that ran, so it counts as a candidate too.
 */
function inProcess(
  model: ApprovedModel,
  processes: readonly ApprovedProcess[],
  id: string,
  ref: string | undefined,
): Attribution {
  const { workflows, open } = scopeOf(model, processes);
  const hint = "the run names its process, not its agent task";
  if (ref !== undefined) {
    const chosen = choose(
      processes,
      workflows.filter((w) => w.ref === ref),
      ref,
      hint,
    );
    if (chosen !== undefined) return chosen;
    const refs = unique(workflows.map((w) => w.ref));
    const approved = `${refs.length === 0 ? "none" : refs.join(", ")} in process ${id}`;
    return { kind: "unapproved", name: ref, data: { kind: "workflow", name: ref, approved } };
  }
  const only = workflows[0];
  if (workflows.length === 1 && open.length === 0 && only !== undefined) {
    return { kind: "workflow", workflow: only };
  }
  if (workflows.length === 0) {
    const approved = open.length === 0 ? "no agent task" : `no workflow for ${open.join(", ")}`;
    const data = { kind: "agent task", name: `in process ${id}`, approved };
    return { kind: "unapproved", name: null, data };
  }
  const unknown = open.map((task) => `${task}: no approved workflow`);
  const candidates = [describe(processes, workflows), ...unknown].join("; ");
  const data = { count: workflows.length + open.length, candidates, hint };
  return { kind: "unverified", reason: "WORKFLOW_AMBIGUOUS", name: null, data };
}

/** The run's workflow by the agent task its link names, in the processes it may be of. */
function byTask(
  model: ApprovedModel,
  processes: readonly ApprovedProcess[],
  link: ProcessLink & { readonly element: string },
  named: string | undefined,
  fallback: string | undefined,
): Attribution {
  const of = link.process === undefined ? "" : ` of process ${link.process}`;
  const placed = processes.flatMap((process) =>
    process.tasks.filter((t) => t.elementId === link.element).map((task) => ({ process, task })),
  );
  const task = `${link.element}${of}`;
  if (placed.length === 0) {
    const tasks = processes.flatMap((process) =>
      process.tasks.map((t) => where({ process, task: t })),
    );
    const approved = tasks.length === 0 ? "no agent task" : tasks.join(", ");
    return {
      kind: "unapproved",
      name: named ?? null,
      data: { kind: "agent task", name: task, approved },
    };
  }
  const known = placed.map((p) => taskWorkflows(model, p.task));
  if (known.some((k) => k === null)) {
    // Nothing was approved for the task itself: only a workflow named outright can stand, and
    // in a known process only one approved to run there.
    const ref = named ?? fallback;
    if (ref !== undefined && link.process !== undefined) {
      return inProcess(model, processes, link.process, ref);
    }
    if (ref !== undefined) return byName(model, ref);
    const data = { kind: "agent task", name: task, approved: "no workflow known for it" };
    return { kind: "unapproved", name: null, data };
  }
  const candidates = distinct(known.flatMap((k) => k ?? []));
  const pool = named === undefined ? candidates : candidates.filter((w) => w.ref === named);
  const hint = link.process === undefined ? "the run names no process" : undefined;
  const chosen = choose(processes, pool, named ?? pool[0]?.ref ?? null, hint);
  if (chosen !== undefined) return chosen;
  const refs = unique(placed.flatMap((p) => (p.task.workflow === null ? [] : [p.task.workflow])));
  if (named === undefined) return byName(model, refs.length === 1 ? refs[0] : refs.join(", "));
  // The run names a workflow its task does not run there.
  const data = { kind: "workflow", name: named, approved: `${refs.join(", ")} at ${task}` };
  return { kind: "unapproved", name: named, data };
}

/**
 * What a run is checked against: `named` is the workflow the run names, `link` its process link,
 * `fallback` the workflow of runs that name none (`--workflow`).
 */
export function attributeRun(
  model: ApprovedModel,
  named: string | undefined,
  link: ProcessLink | undefined,
  fallback: string | undefined,
): Attribution {
  const processes = model.processes;
  let inProcesses = processes;
  // With processes approved, a run in another process ran where nothing was approved.
  if (link?.process !== undefined && processes.length > 0) {
    const id = link.process;
    inProcesses = processes.filter((p) => p.processIds.includes(id));
    if (inProcesses.length === 0) {
      const approved = unique(processes.flatMap((p) => p.processIds)).join(", ");
      return {
        kind: "unapproved",
        name: named ?? null,
        data: { kind: "process", name: id, approved: approved === "" ? "none" : approved },
      };
    }
  }
  const element = link?.element;
  if (link !== undefined && element !== undefined && processes.length > 0) {
    return byTask(model, inProcesses, { ...link, element }, named, fallback);
  }
  // A known process bounds the run to what was approved there, even with no element recorded.
  if (link?.process !== undefined && processes.length > 0) {
    return inProcess(model, inProcesses, link.process, named ?? fallback);
  }
  return byName(model, named ?? fallback);
}
