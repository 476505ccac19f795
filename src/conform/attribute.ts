/**
 * Which approved workflow a run is checked against. A run that names its agent task (a Camunda
 * agent instance names its process and element) is checked against what that task's approved
 * process runs there; otherwise against the workflow it names, `--workflow`, or the only one
 * approved. An `id@version` need not name one workflow (two Camunda agents with the same element
 * id derive the same ref), so a run is never checked against the first of several: it is
 * unverified, with the candidates named. A process or agent task nobody approved deviates.
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

/** Each candidate as the agent tasks that run it (`process/element`), else its ref. */
function describe(model: ApprovedModel, candidates: readonly ApprovedWorkflow[]): string {
  return candidates
    .map((w) => {
      const at = model.processes.flatMap((process) =>
        process.tasks.filter((task) => task.resolved === w).map((task) => where({ process, task })),
      );
      return at.length === 0 ? w.ref : `${at.join(", ")}: ${w.ref}`;
    })
    .join("; ");
}

function choose(
  model: ApprovedModel,
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
    candidates: describe(model, candidates),
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
  const chosen = choose(model, matches, ref, "the run names its workflow, not its process");
  if (chosen !== undefined) return chosen;
  const same = distinct(model.workflows.filter((w) => idOfRef(w.ref) === idOfRef(ref)));
  const approved = same.map((w) => w.ref).join(", ");
  return {
    kind: "unapproved",
    name: ref,
    data: { kind: "workflow", name: ref, ...(approved === "" ? {} : { approved }) },
  };
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
    // Nothing was approved for the task itself: only a workflow named outright can stand.
    const ref = named ?? fallback;
    if (ref !== undefined) return byName(model, ref);
    const data = { kind: "agent task", name: task, approved: "no workflow known for it" };
    return { kind: "unapproved", name: null, data };
  }
  const candidates = distinct(known.flatMap((k) => k ?? []));
  const pool = named === undefined ? candidates : candidates.filter((w) => w.ref === named);
  const hint = link.process === undefined ? "the run names no process" : undefined;
  const chosen = choose(model, pool, named ?? pool[0]?.ref ?? null, hint);
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
  return byName(model, named ?? fallback);
}
