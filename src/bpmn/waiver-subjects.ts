/**
 * Which workflow a finding at an agent task is about, as a `workflow` waiver names it: the
 * subject the pack rule judged, never merely the task's ref. A `workflow` rule judges each
 * workflow the task runs (its ref's, each delegate's, the derived Camunda one: view/workflows.ts)
 * and its finding's data names the one judged (`id`, `version`); a `tool` rule judges a tool, and
 * is about the workflow that calls it (its `ref` looked up among the task's calls). Only a
 * workflow document that was read is a subject a waiver can name: a derived Camunda workflow is
 * agentflow's reading and an unread stand-in is no document, and a name that stands for two
 * subjects at one task (a ref named like the derived workflow, a tool two workflows call) names
 * neither for sure — such findings are waived per process and element only (fail closed).
 */
import type { GateAnalysis } from "./analysis.js";
import { readFromBpmn } from "./camunda/index.js";
import { camundaTools, dependencyTool } from "./view/runs.js";
import { workflowSubjectsOf } from "./view/workflows.js";

type AgentTask = GateAnalysis["tasks"][number];

/** What waivers can name of one agent task's workflows. */
export interface TaskWorkflows {
  /** The workflow documents it runs that were read, `id@version`: its ref's and each delegate's. */
  readonly documents: ReadonlySet<string>;
  /** The documents a finding naming them is about for sure: each judged once at the task. */
  readonly named: ReadonlySet<string>;
  /** Its ref's workflow, when read: what its validation errors (AGENT_WORKFLOW_INVALID) are about. */
  readonly own: string | undefined;
  /** By a tool's `ref` as the facts give it: the document that alone calls it, if one does. */
  readonly toolCaller: ReadonlyMap<string, string>;
}

const nameOf = (w: { readonly id: string; readonly version: string }): string =>
  `${w.id}@${w.version}`;

/** The workflow names waivers can give findings at `task`. */
export function taskWorkflows(task: AgentTask): TaskWorkflows {
  const { resolution } = task;
  const own =
    resolution.workflow !== undefined && resolution.resolution !== "derived"
      ? nameOf(resolution.workflow)
      : undefined;
  const byRef = new Map<string, string>();
  for (const d of resolution.delegates ?? []) byRef.set(d.ref, nameOf(d.workflow));
  const documents = new Set([...(own === undefined ? [] : [own]), ...byRef.values()]);
  // Every subject the `workflow` rules judge here, documents or not: a name met twice is ambiguous.
  const seen = new Map<string, number>();
  for (const w of workflowSubjectsOf(task)) seen.set(nameOf(w), (seen.get(nameOf(w)) ?? 0) + 1);
  const named = new Set([...documents].filter((name) => seen.get(name) === 1));
  // `null`: a tool the BPMN draws, which the derived workflow calls (no document).
  const callers = new Map<string, Set<string | null>>();
  const call = (ref: string, caller: string | null): void => {
    const set = callers.get(ref) ?? new Set<string | null>();
    set.add(caller);
    callers.set(ref, set);
  };
  for (const dep of resolution.dependencies) {
    if (dep.kind !== "tool" || readFromBpmn(dep)) continue;
    const caller = dep.via === undefined ? own : byRef.get(dep.via);
    call(dependencyTool(dep).ref, caller ?? null);
  }
  const drawn = resolution.derived === undefined ? null : camundaTools(resolution.derived);
  for (const tool of drawn ?? []) call(tool.ref, null);
  const toolCaller = new Map<string, string>();
  for (const [ref, set] of callers) {
    const [only] = set;
    if (set.size === 1 && typeof only === "string" && named.has(only)) toolCaller.set(ref, only);
  }
  return { documents, named, own, toolCaller };
}
