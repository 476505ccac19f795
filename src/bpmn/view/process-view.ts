/**
 * The readable view of a process (the policy fact model's `agentTask`, `process`, `workflow` and
 * `tool` subjects, docs/policies.md), built from the shared analysis for policy packs and plugin
 * rules, and the gate engine's path predicates behind `checkGatePath`.
 */
import { neighbours } from "../../model/index.js";
import type {
  AgentTaskFacts as PolicyAgentTask,
  ElementPlace,
  GateFacts,
  GatePathRequirement,
  GatePathResult,
  ProcessFacts,
  ProcessView,
  ToolFacts,
  WorkflowFacts,
} from "../../policy/index.js";
import type { AgentTaskElement } from "../agents.js";
import type { AgentTaskFacts, GateAnalysis } from "../analysis.js";
import { nodeId } from "../process-index.js";
import { checkGatePath } from "../gate-require.js";
import type { Runs } from "./runs.js";
import { knownToolsOf, runsOf } from "./runs.js";
import type { GatesAfter } from "./gates-after.js";
import { gatesAfter } from "./gates-after.js";
import type { SubjectReading } from "./subjects.js";
import { toolSubjectsOf, workflowSubjectsOf } from "./workflows.js";

/** The facts of one agent task; `gates` is computed when first read (see gates-after.ts). */
function agentTaskFacts(
  analysis: GateAnalysis,
  task: AgentTaskFacts,
  subjects: SubjectReading,
  gateFacts: ReadonlyMap<number, GateFacts>,
  after: () => GatesAfter,
  runs: Runs,
): PolicyAgentTask & { place: ElementPlace } {
  const { index } = analysis.prepared.graph;
  const processIndex = index.containers[index.container[task.vertex] ?? -1]?.process ?? -1;
  const process = subjects.processes.get(processIndex);
  const element = subjects.elements.get(task.vertex);
  const lane = subjects.lanes.get(task.vertex);
  const levelText = task.declaration.levelText;
  const invalidLevel = levelText !== undefined && task.declaredLevel === undefined;
  // A task that declares its agent twice shows every declaration: its level is none of them.
  const declared = task.declaration.declarations;
  const joined = (pick: (d: AgentTaskElement) => string | undefined): string | undefined =>
    declared?.map((d) => pick(d) ?? "").join(" | ");
  let gates: GateFacts[] | undefined;
  const facts: Omit<PolicyAgentTask, "gates"> & { place: ElementPlace } = {
    place: { elementId: task.node.id, path: task.node.path },
    process: { id: process?.id ?? "", name: process?.name ?? null },
    element: { id: task.node.id, name: element?.name ?? null, type: element?.type ?? "" },
    lane: lane ?? null,
    ref:
      task.declaration.source === "btv"
        ? (joined((d) => d.ref) ??
          (task.ref?.ok === true ? task.ref.canonical : (task.declaration.ref ?? null)))
        : null,
    // A level the task writes but that is none is unknown, not the workflow's: the task meant another.
    level: invalidLevel ? null : (task.level ?? null),
    declaredLevel: task.declaredLevel ?? null,
    declaredLevelText: joined((d) => d.levelText) ?? levelText ?? null,
    justifiedLevel: justifiedOf(task),
    // Beside a btv ref too: the element is a Camunda AI agent, and runs as one.
    camunda: task.declaration.source === "camunda" || task.resolution.derived !== undefined,
    tools: runs.tools,
    models: runs.models,
    budget: runs.budget,
    gateStatus: task.gate.status,
    // Lanes that do not nest both list it: which one it is in is unknown, not "none".
    unread: lane === null ? [...runs.unread, "lane"] : runs.unread,
  };
  return Object.defineProperty(facts, "gates", {
    enumerable: true,
    get: () =>
      (gates ??= after()(task.vertex).flatMap((node) => {
        const gate = gateFacts.get(node);
        return gate === undefined ? [] : [gate];
      })),
  }) as PolicyAgentTask & { place: ElementPlace };
}

/**
 * The level a task's graph justifies. Beside a btv ref, the agent the BPMN draws runs too: the
 * least level coherent with both is the higher of theirs (unknown when either is), or a harmless
 * ref would lower what a pack reads of the agent that runs.
 */
function justifiedOf(task: AgentTaskFacts): number | null {
  const own = task.justifiedLevel ?? null;
  const resolution = task.resolution;
  if (resolution.resolution === "derived" || resolution.camunda === undefined) return own;
  const read = resolution.derived?.level;
  return own === null || read === undefined ? null : Math.max(own, read);
}

/**
 * The flow nodes after a vertex: its successors, looking through the vertices that are no flow
 * node (a sub-process's exit and hub) to the flow nodes beyond them. Iterative, O(V+E).
 */
function flowNodesAfter(analysis: GateAnalysis, start: number): number[] {
  const { graph } = analysis.prepared;
  const nodeCount = graph.index.elements.length;
  const seen = new Uint8Array(graph.kinds.length);
  const out: number[] = [];
  const queue = [...neighbours(graph.successors, start)];
  for (const v of queue) {
    if (seen[v] === 1) continue;
    seen[v] = 1;
    if (v < nodeCount) out.push(v);
    else queue.push(...neighbours(graph.successors, v));
  }
  return out;
}

/** The view's readable questions about the flow, by element id. */
function flowQuestions(analysis: GateAnalysis): Pick<ProcessView, "next" | "reaches"> {
  const { graph } = analysis.prepared;
  const { index } = graph;
  const vertexOf = new Map<string, number>();
  index.elements.forEach((_, i) => {
    const id = nodeId(index, i);
    if (!vertexOf.has(id)) vertexOf.set(id, i);
  });
  return {
    next(elementId) {
      const v = vertexOf.get(elementId);
      return v === undefined ? [] : flowNodesAfter(analysis, v).map((n) => nodeId(index, n));
    },
    reaches(from, to) {
      const start = vertexOf.get(from);
      const goal = vertexOf.get(to);
      if (start === undefined || goal === undefined) return false;
      const seen = new Uint8Array(graph.kinds.length);
      const queue = [...neighbours(graph.successors, start)];
      for (const v of queue) {
        if (v === goal) return true;
        if (seen[v] === 1) continue;
        seen[v] = 1;
        queue.push(...neighbours(graph.successors, v));
      }
      return false;
    },
  };
}

/** The view of the analysed definitions. */
export function processView(analysis: GateAnalysis, subjects: SubjectReading): ProcessView {
  const { prepared } = analysis;
  const gateFacts = new Map<number, GateFacts>();
  for (const { node, role } of prepared.gates) {
    const element = subjects.elements.get(node);
    gateFacts.set(node, { id: element?.id ?? "", name: element?.name ?? null, role: role ?? null });
  }
  // Built once, when a rule first reads some task's `gates`.
  let sets: GatesAfter | undefined;
  const after = (): GatesAfter => (sets ??= gatesAfter(prepared));
  const known = analysis.tasks.map(knownToolsOf);
  const runs = analysis.tasks.map((task, i) => runsOf(task, known[i] ?? null));
  const agentTasks = analysis.tasks.map((task, i) =>
    agentTaskFacts(analysis, task, subjects, gateFacts, after, runs[i] ?? runsOf(task, null)),
  );
  const vertexOf = new Map<string, number>();
  for (const task of analysis.tasks)
    if (!vertexOf.has(task.node.id)) vertexOf.set(task.node.id, task.vertex);
  const { index } = prepared.graph;
  const processes: (ProcessFacts & { place: ElementPlace })[] = [];
  for (const [container, process] of subjects.processes) {
    const inProcess = (node: number) =>
      index.containers[index.container[node] ?? -1]?.process === container;
    processes.push({
      place: { elementId: process.id, path: process.path },
      id: process.id,
      name: process.name,
      agentTasks: agentTasks.filter((_, i) => inProcess(analysis.tasks[i]?.vertex ?? -1)),
      gates: prepared.gates.flatMap((g) => {
        const gate = gateFacts.get(g.node);
        return gate !== undefined && inProcess(g.node) ? [gate] : [];
      }),
    });
  }
  const workflows: (WorkflowFacts & { place: ElementPlace })[] = [];
  const tools: (ToolFacts & { place: ElementPlace })[] = [];
  analysis.tasks.forEach((task, i) => {
    const place = agentTasks[i]?.place ?? { elementId: task.node.id, path: task.node.path };
    for (const workflow of workflowSubjectsOf(task)) workflows.push({ ...workflow, place });
    // The tools known to be called are subjects even when the task's list is unknown as a whole,
    // and then so is one tool of unknown identity (workflows.ts).
    const taskRuns = runs[i] ?? runsOf(task, known[i] ?? null);
    for (const tool of toolSubjectsOf(known[i] ?? null, taskRuns)) tools.push({ ...tool, place });
  });
  return {
    processes,
    agentTasks,
    ...flowQuestions(analysis),
    gates: [...gateFacts.values()],
    workflows,
    tools,
    checkGatePath(elementId: string, requirement: GatePathRequirement): GatePathResult {
      const vertex = vertexOf.get(elementId);
      if (vertex === undefined) {
        return {
          holds: false,
          failed: "undecidable",
          reason: `no agent task '${elementId}' in this process`,
          path: [],
        };
      }
      return checkGatePath(prepared, vertex, requirement);
    },
  };
}
