/**
 * Small helpers the BPMN rules share for their report data: bounded previews of user text (an
 * attribute may be megabytes long) and paths into an agent task's declaration.
 */
import type { AgentTaskFacts, GateAnalysis } from "./analysis.js";
import type { GateDiscount } from "./gate-collect.js";
import { userTasksAfter } from "./gate-collect.js";
import type { ProcessIndex } from "./process-index.js";
import { nodeId } from "./process-index.js";

const PREVIEW_LENGTH = 80;

/** The text itself when short, else its start and its length, so messages stay readable. */
export function preview(text: string): string {
  if (text.length <= PREVIEW_LENGTH) return text;
  return `${text.slice(0, PREVIEW_LENGTH)}… (${text.length} characters)`;
}

/** The level for messages: the number, or `unknown` for a Camunda agent or an unreadable one. */
export function levelLabel(task: AgentTaskFacts): number | "unknown" {
  return task.level ?? "unknown";
}

/** JSON Pointer of an attribute of the task's declaring extension element. */
export function declarationPath(task: AgentTaskFacts, attribute?: string): string {
  const base = task.node.path + task.declaration.path;
  return attribute === undefined ? base : `${base}/${attribute}`;
}

/** The canonical ref of a task (a derived Camunda agent's own), or its raw text for messages. */
export function refLabel(task: AgentTaskFacts): string {
  if (task.ref?.ok === true) return task.ref.canonical;
  const derived = task.resolution.derived;
  if (derived !== undefined) return derived.workflowRef;
  return preview(task.declaration.ref ?? "");
}

/** How many undeclared user tasks a finding names: the nearest, enough to act on. */
const HINTED = 3;

/** True when flow node `node` lies in container `scope` or in one nested in it. */
function inside(index: ProcessIndex, node: number, scope: number): boolean {
  if (scope < 0) return false;
  for (let c = index.container[node] ?? -1; c >= 0; c = index.containers[c]?.parent ?? -1) {
    if (c === scope) return true;
  }
  return false;
}

/**
 * The user tasks that are not gates after an agent task — on its bypass path when it has one,
 * else anywhere downstream, but not inside the agent itself (an AI agent's tools are its own) — and the sentence that says how to declare one, for the gate
 * rules' messages (`""` when there is none: then there is nothing to hint at).
 */
export function undeclaredGates(
  analysis: GateAnalysis,
  task: AgentTaskFacts,
): { readonly userTasks: string[]; readonly hint: string } {
  const { graph, userTasks } = analysis.prepared;
  if (userTasks.length === 0) return { userTasks: [], hint: "" };
  const isUserTask = new Uint8Array(graph.kinds.length);
  for (const node of userTasks) isUserTask[node] = 1;
  const onPath = (): string[] => {
    const names = new Set(userTasks.map((n) => nodeId(graph.index, n)));
    return task.gate.bypassPath.filter((id) => names.has(id));
  };
  const ids =
    task.gate.status === "bypassed"
      ? onPath()
      : userTasksAfter(
          graph.successors,
          graph.kinds.length,
          task.vertex,
          (v) => isUserTask[v] === 1 && !inside(graph.index, v, task.node.opens),
          HINTED + 1,
        ).map((n) => nodeId(graph.index, n));
  if (ids.length === 0) return { userTasks: [], hint: "" };
  const shown = ids.slice(0, HINTED);
  const named = shown.map((id) => `"${id}"`).join(", ");
  const more = ids.length > HINTED ? " and more" : "";
  return {
    userTasks: shown,
    hint: `; the user task${ids.length === 1 ? "" : "s"} ${named}${more} after it ${ids.length === 1 ? "is" : "are"} no gate unless declared: mark one <btv:gate/>, or select it in agentflow.config.json "gates" (by candidate group, template, property or id)`,
  };
}

/**
 * For an ad-hoc sub-process (or any sub-process) that is a Camunda agent agentflow does not
 * derive: the attribute that makes it one. Nothing on such an element need say "agent" to the
 * modeller (a job worker of its own, a collection read at run time), so the finding names it.
 */
export function opaqueMarker(task: AgentTaskFacts): string | undefined {
  const { declaration } = task;
  if (declaration.source !== "camunda" || task.resolution.derived !== undefined) return undefined;
  return task.node.opens >= 0 ? declaration.marker : undefined;
}

/** How many discounted gates a finding names. */
const NAMED = 3;

const WHY: Readonly<Record<GateDiscount, (expression: string) => string>> = {
  passes: (e) => e,
  collection: (e) =>
    `multi-instance over ${e === "" ? "a collection" : `the collection ${e}`}, which may be empty, and an empty multi-instance completes at once with nobody approving`,
  cardinality: (e) =>
    `multi-instance ${e === "" ? "with no cardinality" : `with the cardinality ${e}`}, which is not a number of at least 1, so it may run no instance`,
  "test-before": () => "a loop that tests its condition before the first turn, so it may not run",
};

/**
 * The gates after an agent task that do not count (the nearest, by a breadth-first walk), and
 * the sentence that says why, for the gate rules' messages (`""` when there is none).
 */
export function discountedAfter(
  analysis: GateAnalysis,
  task: AgentTaskFacts,
): { readonly discountedGates: string[]; readonly discountHint: string } {
  const { graph, discountedGates: discounted } = analysis.prepared;
  if (discounted.length === 0) return { discountedGates: [], discountHint: "" };
  const byNode = new Map(discounted.map((d) => [d.node, d]));
  const found = userTasksAfter(
    graph.successors,
    graph.kinds.length,
    task.vertex,
    (v) => byNode.has(v),
    NAMED,
  ).flatMap((v) => {
    const d = byNode.get(v);
    return d === undefined ? [] : [d];
  });
  if (found.length === 0) return { discountedGates: [], discountHint: "" };
  const ids = found.map((d) => nodeId(graph.index, d.node));
  const why = found.map((d, i) => `"${ids[i] ?? ""}" is ${WHY[d.reason](d.expression)}`);
  return {
    discountedGates: ids,
    discountHint: `; the gate${found.length === 1 ? "" : "s"} after it do${found.length === 1 ? "es" : ""} not count: ${why.join("; ")}`,
  };
}
