/**
 * Waivers on a process's findings: what each finding is about (its process and element, and for
 * a finding about the workflow an agent task runs, that workflow, `id@version`), and which
 * subjects the definitions hold, so that a waiver whose element is gone is said to be stale.
 *
 * A `workflow` waiver covers what is found of the workflow itself, wherever it runs: its own
 * validation errors (AGENT_WORKFLOW_INVALID) and a pack's `workflow` and `tool` rules. It does
 * not cover what a process makes of the agent — the gates on its paths (AGENT_GATE_*,
 * TOOL_EFFECT_NEEDS_GATE), a pack's `agentTask` and `process` rules, a plugin's process rules:
 * a reviewed workflow is no reason for one process to let it run ungated, and every process
 * that runs it would be waived at once. Those are waived per process (and element).
 */
import type { Diagnostic } from "../model/index.js";
import type { CompiledPack, SubjectsPresent, Waiver, WaiverSubject } from "../policy/index.js";
import { applyWaivers } from "../policy/waive.js";
import type { GateAnalysis } from "./analysis.js";
import { nodeId } from "./process-index.js";

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
  // The codes whose findings in a process are about the workflow a task runs.
  const aboutWorkflow = new Set(["AGENT_WORKFLOW_INVALID"]);
  for (const pack of packs) {
    for (const rule of pack.spec.rules) {
      if (rule.for === "workflow" || rule.for === "tool")
        aboutWorkflow.add(`${pack.name}/${rule.id}`);
    }
  }
  const workflowOf = new Map<string, string>();
  for (const task of analysis.tasks) {
    const workflow = task.resolution.workflow;
    // A derived Camunda agent's workflow is agentflow's reading, not a document; a btv task read
    // beside its Camunda agent keeps its ref's workflow, which is one.
    if (workflow !== undefined && task.resolution.resolution !== "derived") {
      workflowOf.set(task.node.id, `${workflow.id}@${workflow.version}`);
    }
  }
  const present: SubjectsPresent = { processes, workflows: new Set(workflowOf.values()) };
  const subjectOf = (d: Diagnostic): WaiverSubject | undefined => {
    if (d.target.kind !== "bpmn-element") return undefined;
    const element = d.target.elementId;
    const process = processOf.get(element);
    if (process === undefined) return undefined;
    const workflow = aboutWorkflow.has(d.code) ? workflowOf.get(element) : undefined;
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
