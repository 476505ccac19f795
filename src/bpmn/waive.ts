/**
 * Waivers on a process's findings: what each finding is about (its process and element, and for
 * an agent task the workflow it runs, `id@version`), and which subjects the definitions hold, so
 * that a waiver whose element is gone is said to be stale.
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
  const workflowOf = new Map<string, string>();
  for (const task of analysis.tasks) {
    const workflow = task.resolution.workflow;
    if (workflow !== undefined && task.resolution.derived === undefined) {
      workflowOf.set(task.node.id, `${workflow.id}@${workflow.version}`);
    }
  }
  const present: SubjectsPresent = { processes, workflows: new Set(workflowOf.values()) };
  const subjectOf = (d: Diagnostic): WaiverSubject | undefined => {
    if (d.target.kind !== "bpmn-element") return undefined;
    const element = d.target.elementId;
    const process = processOf.get(element);
    if (process === undefined) return undefined;
    const workflow = workflowOf.get(element);
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
