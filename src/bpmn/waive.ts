/**
 * Waivers on a process's findings: what each finding is about (its process and element, and for
 * a finding about a workflow an agent task runs, that workflow, `id@version`), and which
 * subjects the definitions hold, so that a waiver whose element is gone is said to be stale.
 *
 * A `workflow` waiver covers what is found of the workflow itself, wherever it runs: its own
 * validation errors (AGENT_WORKFLOW_INVALID), a pack's `workflow` rules on it and a pack's `tool`
 * rules on the tools it calls — the workflow the rule judged (waiver-subjects.ts), never another
 * the task runs beside it (a delegate, the derived Camunda workflow, the tools the BPMN draws).
 * It does not cover what a process makes of the agent — the gates on its paths (AGENT_GATE_*,
 * TOOL_EFFECT_NEEDS_GATE), a pack's `agentTask` and `process` rules, a plugin's process rules:
 * a reviewed workflow is no reason for one process to let it run ungated, and every process
 * that runs it would be waived at once. Those are waived per process (and element).
 */
import type { Diagnostic } from "../model/index.js";
import type { CompiledPack, SubjectsPresent, Waiver, WaiverSubject } from "../policy/index.js";
import { applyWaivers } from "../policy/waive.js";
import type { GateAnalysis } from "./analysis.js";
import { nodeId } from "./process-index.js";
import type { TaskWorkflows } from "./waiver-subjects.js";
import { taskWorkflows } from "./waiver-subjects.js";

/** What a finding of a code is about, among the workflows of its task. */
type About = "validation" | "workflow" | "tool";

/** The codes whose findings at an agent task are about one of the workflows it runs. */
function aboutWorkflows(packs: readonly CompiledPack[]): Map<string, About> {
  const about = new Map<string, About>([["AGENT_WORKFLOW_INVALID", "validation"]]);
  for (const pack of packs) {
    for (const rule of pack.spec.rules) {
      if (rule.for === "workflow" || rule.for === "tool")
        about.set(`${pack.name}/${rule.id}`, rule.for);
    }
  }
  return about;
}

const text = (value: unknown): string | undefined =>
  typeof value === "string" ? value : undefined;

/** The workflow a finding at a task is about, as a waiver may name it; undefined: none for sure. */
function workflowOf(d: Diagnostic, about: About, task: TaskWorkflows): string | undefined {
  if (about === "validation") return task.own;
  if (about === "tool") {
    const ref = text(d.data.ref);
    return ref === undefined ? undefined : task.toolCaller.get(ref);
  }
  const id = text(d.data.id);
  const version = text(d.data.version);
  if (id === undefined || version === undefined) return undefined;
  const name = `${id}@${version}`;
  return task.named.has(name) ? name : undefined;
}

/** The findings with the waivers applied, followed by what the waivers themselves give. */
export function waiveFindings(
  diagnostics: readonly Diagnostic[],
  analysis: GateAnalysis,
  waivers: readonly Waiver[],
  today: string,
  packs: readonly CompiledPack[],
): Diagnostic[] {
  if (waivers.length === 0) return [...diagnostics];
  const { index } = analysis.prepared.graph;
  const processOf = new Map<string, string>();
  const processes = new Map<string, Set<string>>();
  index.containers.forEach((c) => {
    if (c.kind !== "process") return;
    const id = index.processIds[c.process] ?? "";
    processes.set(id, new Set());
    processOf.set(id, id);
  });
  for (let node = 0; node < index.elements.length; node++) {
    const container = index.containers[index.container[node] ?? -1];
    const process = index.processIds[container?.process ?? -1] ?? "";
    const id = nodeId(index, node);
    processes.get(process)?.add(id);
    if (!processOf.has(id)) processOf.set(id, process);
  }
  const about = aboutWorkflows(packs);
  // By element id; `undefined` for an id two agent tasks share: which one a finding is on is
  // unknown, so none of their workflows is named for sure.
  const tasks = new Map<string, TaskWorkflows | undefined>();
  const documents = new Set<string>();
  for (const task of analysis.tasks) {
    const workflows = taskWorkflows(task);
    workflows.documents.forEach((name) => documents.add(name));
    tasks.set(task.node.id, tasks.has(task.node.id) ? undefined : workflows);
  }
  const present: SubjectsPresent = { processes, workflows: documents };
  const subjectOf = (d: Diagnostic): WaiverSubject | undefined => {
    if (d.target.kind !== "bpmn-element") return undefined;
    const element = d.target.elementId;
    const process = processOf.get(element);
    if (process === undefined) return undefined;
    const kind = about.get(d.code);
    const task = tasks.get(element);
    const workflow =
      kind === undefined || task === undefined ? undefined : workflowOf(d, kind, task);
    return {
      process,
      ...(element === process ? {} : { element }),
      ...(workflow === undefined ? {} : { workflow }),
    };
  };
  const { diagnostics: marked, findings } = applyWaivers(
    diagnostics,
    waivers,
    subjectOf,
    present,
    today,
    packs,
  );
  return [...marked, ...findings];
}
