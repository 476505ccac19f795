/**
 * What an agent task runs, as the policy facts say it (docs/policies.md): its tools, models and
 * budget, each null (or unread) where unknown. A btv task on a Camunda AI agent agentflow reads
 * runs what the BPMN draws whatever its ref names, so its facts join both readings: never fewer
 * tools or models than run.
 */
import { parseRef } from "../../model/index.js";
import type { BudgetFacts, KnownToolFacts, ToolFacts, UnreadFact } from "../../policy/index.js";
import { budgetFacts, toolFacts } from "../../validate/view.js";
import type { AgentTaskFacts } from "../analysis.js";
import type { Dependency } from "../dependency.js";
import type { DerivedAgent } from "../camunda/index.js";
import { readFromBpmn } from "../camunda/index.js";

/** What an agent task runs, as the `agentTask` and `workflow` facts share it. */
export interface Runs {
  readonly tools: ToolFacts[] | null;
  readonly models: string[] | null;
  readonly budget: BudgetFacts | null;
  readonly unread: UnreadFact[];
}

/**
 * A Camunda agent's tools as read; null when its tool container cannot be found (or is named
 * by a FEEL expression): then what the model may call is unknown, not nothing.
 */
export function camundaTools(derived: DerivedAgent): KnownToolFacts[] | null {
  if (derived.container !== undefined && !derived.container.found) return null;
  return derived.tools.map((tool) => ({
    ref: tool.jobType ?? tool.templateId ?? tool.id,
    id: tool.id,
    version: null,
    effect: tool.effect ?? null,
    authorization: null,
  }));
}

/** A tool a btv task's workflow or a delegate calls, as facts (the contract's terms if read). */
export function dependencyTool(dep: Dependency): KnownToolFacts {
  const terms =
    dep.effect === undefined ? undefined : { effect: dep.effect, authorization: dep.authorization };
  return toolFacts(dep.ref, parseRef(dep.ref), terms);
}

/**
 * The tools a btv task's workflow and its resolved delegates call (a ref that cannot be parsed
 * included, its effect unknown), without those read from the BPMN; null when it is unread.
 */
function workflowTools(task: AgentTaskFacts): ToolFacts[] | null {
  if (task.resolution.workflow === undefined) return null;
  const byRef = new Map<string, ToolFacts>();
  for (const dep of task.resolution.dependencies) {
    if (dep.kind !== "tool" || readFromBpmn(dep) || byRef.has(dep.ref)) continue;
    byRef.set(dep.ref, dependencyTool(dep));
  }
  return [...byRef.values()];
}

/** True when the task's resolution is the Camunda reading alone (no btv ref). */
const derivedOnly = (task: AgentTaskFacts): boolean => task.resolution.resolution === "derived";

/**
 * The tools of an agent task known to be called: its workflow's and its delegates', and the
 * Camunda agent's read from the BPMN; null when none is known (everything unread). Each known
 * tool is a `tool` subject even where the list as a whole is unknown ({@link runsOf}).
 */
export function knownToolsOf(task: AgentTaskFacts): ToolFacts[] | null {
  const derived = task.resolution.derived;
  const read = derived === undefined ? undefined : camundaTools(derived);
  if (read !== undefined && derivedOnly(task)) return read;
  const own = workflowTools(task);
  if (read === undefined || read === null) return own;
  return [...(own ?? []), ...read];
}

/**
 * Whether what the agent calls is only partly known: a delegate (its own or a delegate's) could
 * not be read, so the tools and models behind it are unknown, and a list of the rest would read
 * as complete (docs/policies.md: null = unknown).
 */
function delegateUnread(task: AgentTaskFacts): boolean {
  return task.resolution.dependencies.some((d) => d.kind === "delegate" && d.failure !== undefined);
}

/**
 * A Camunda agent's limits as a budget, with the limits that are FEEL expressions (stated, but
 * known only when the process runs) listed as unread rather than read as "not stated".
 */
function camundaBudget(derived: DerivedAgent): { budget: BudgetFacts; unread: UnreadFact[] } {
  const { maxModelCalls, maxTokensPerResponse } = derived.limits;
  const unread: UnreadFact[] = [];
  if (maxModelCalls !== undefined && maxModelCalls.value === undefined) {
    unread.push("budget.maxSteps");
  }
  if (maxTokensPerResponse !== undefined && maxTokensPerResponse.value === undefined) {
    unread.push("budget.maxTokens");
  }
  return {
    budget: {
      maxSteps: maxModelCalls?.value ?? null,
      maxTokens: maxTokensPerResponse?.value ?? null,
      maxWallTimeMs: null,
      maxCost: {},
    },
    unread,
  };
}

/**
 * What the Camunda agent read from the BPMN runs, alone: the derived workflow's facts, for a
 * task with no btv ref and beside one alike.
 */
export function camundaRuns(task: AgentTaskFacts): Runs | undefined {
  const derived = task.resolution.derived;
  if (derived === undefined) return undefined;
  const models = (task.resolution.camunda ?? task.resolution).models;
  return {
    tools: camundaTools(derived),
    models: models === null ? null : [...models],
    ...camundaBudget(derived),
  };
}

/**
 * The tools, models and budget of an agent task, each null (or unread) where unknown. Beside a
 * btv ref, the tools are the workflow's and the BPMN's (unknown when either list is), the models
 * both (resolve-tasks.ts joins them), and the budget the Camunda agent's limits: the engine
 * enforces those, not the document's.
 */
export function runsOf(task: AgentTaskFacts, known: ToolFacts[] | null): Runs {
  const workflow = task.resolution.workflow;
  const read = camundaRuns(task);
  if (read !== undefined && derivedOnly(task)) return { ...read, tools: known };
  const partial = delegateUnread(task);
  const models = task.resolution.models;
  if (read !== undefined) {
    // An unread workflow's models are unknown too, not the `[]` its resolution holds.
    const readable = workflow !== undefined && !partial;
    return {
      tools: readable && read.tools !== null ? known : null,
      models: readable && models !== null ? [...models] : null,
      budget: read.budget,
      unread: read.unread,
    };
  }
  // An unread workflow (or a task that declares two) has a budget too, but which is unknown:
  // `null` here is not "no budget stated".
  if (workflow === undefined)
    return { tools: null, models: null, budget: null, unread: ["budget"] };
  return {
    tools: partial ? null : known,
    // Its own models and its delegates' (resolve-tasks.ts); unknown when a delegate is unread.
    models: partial || models === null ? null : [...models],
    budget: budgetFacts(workflow.budget),
    unread: [],
  };
}
