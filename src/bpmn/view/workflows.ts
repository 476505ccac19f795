/**
 * The `workflow` subjects of an agent task (docs/policies.md): every workflow it runs, each judged
 * by the packs' `workflow` rules on its own facts — the ref's workflow, each delegate it hands
 * work to (direct and transitive), the workflow a Camunda AI agent runs as derived from the
 * BPMN — and, for each that could not be read, a stand-in whose facts are unknown, so that a rule
 * is undecided on it rather than skipped. Validating the ref's workflow judges its delegates by
 * their own rules (DELEGATE_INVALID): the promotion decision is no less strict.
 */
import type { AgentWorkflow } from "../../model/index.js";
import { parseRef } from "../../model/index.js";
import type { ToolFacts, WorkflowFacts } from "../../policy/index.js";
// The fact alone, not the policy index: the engine chunk must not import the pack compiler.
import { UNKNOWN_TOOL } from "../../policy/facts.js";
import { readWorkflow } from "../../validate/view.js";
import { workflowFactsOf } from "../analysis.js";
import type { AgentTaskFacts } from "../analysis.js";
import { DERIVED_VERSION, derivedWorkflowId } from "../camunda/index.js";
import type { Runs } from "./runs.js";
import { camundaRuns } from "./runs.js";

/**
 * The facts of a workflow document the task runs (its own, or a delegate's under `via`), its
 * tools' terms from what the gate looked up for that document's tool nodes.
 */
function documentFacts(
  task: AgentTaskFacts,
  workflow: AgentWorkflow,
  via: string | undefined,
  justifiedLevel: number | null,
): WorkflowFacts {
  const terms = new Map<string, { effect: string; authorization: string | undefined }>();
  for (const dep of task.resolution.dependencies) {
    if (dep.kind === "tool" && dep.via === via && dep.effect !== undefined) {
      terms.set(dep.ref, { effect: dep.effect, authorization: dep.authorization });
    }
  }
  const refs = workflow.nodes.map((node) =>
    node.type === "tool" ? parseRef(node.config.usesTool) : undefined,
  );
  return readWorkflow(workflow, refs, (ref) => terms.get(ref), justifiedLevel).facts;
}

/** The workflow of a btv task as facts; undefined when unread or the task is a Camunda agent. */
function ownWorkflowOf(task: AgentTaskFacts): WorkflowFacts | undefined {
  const workflow = task.resolution.workflow;
  if (workflow === undefined || task.resolution.resolution === "derived") return undefined;
  return documentFacts(task, workflow, undefined, task.justifiedLevel ?? null);
}

/** Each delegate the task's workflow resolved, direct and transitive, as facts of its own. */
function delegateWorkflowsOf(task: AgentTaskFacts): WorkflowFacts[] {
  return (task.resolution.delegates ?? []).map(({ ref, workflow }) =>
    documentFacts(task, workflow, ref, workflowFactsOf(workflow).justifiedLevel),
  );
}

/**
 * The workflow a Camunda AI agent runs, derived from the BPMN (`camunda.<element id>@1.0.0`):
 * its nodes and levels as derived, and what it runs as read — the tools and model (null where
 * the BPMN does not say), the limits as its budget. Beside a btv ref too, as a subject of its
 * own: the engine runs it whatever the ref's workflow says.
 */
function derivedWorkflowOf(task: AgentTaskFacts): WorkflowFacts | undefined {
  const camunda = task.resolution.camunda ?? task.resolution;
  const workflow = camunda.workflow;
  const runs = camundaRuns(task);
  if (workflow === undefined || camunda.resolution !== "derived" || runs === undefined) {
    return undefined;
  }
  const justified = camunda.derived?.level ?? null;
  const read = readWorkflow(workflow, [], () => undefined, justified).facts;
  const model = runs.models?.[0] ?? null;
  return {
    ...read,
    // The derived model node names the model as written (a FEEL expression, or "unknown").
    nodes: read.nodes?.map((node) => (node.type === "llm" ? { ...node, model } : node)) ?? null,
    tools: runs.tools,
    models: runs.models,
    budget: runs.budget,
    unread: runs.unread,
  };
}

/** A workflow of which only the name is known: every other fact unknown. */
function unknownWorkflow(id: string, version: string): WorkflowFacts {
  return {
    id,
    version,
    name: null,
    level: null,
    justifiedLevel: null,
    nodes: null,
    tools: null,
    models: null,
    budget: null,
    delegates: null,
    unread: ["name", "budget"],
  };
}

/** The stand-ins of the refs in `refs` that parse, each once (in `seen`). */
function standIns(refs: readonly (string | undefined)[], seen: Set<string>): WorkflowFacts[] {
  const out: WorkflowFacts[] = [];
  for (const ref of refs) {
    const parsed = parseRef(ref);
    // A ref that names no workflow (AGENT_REF_INVALID, a delegate edge's invalid `to`) names no
    // subject either; the workflow that writes it fails its own validation.
    if (!parsed.ok || seen.has(parsed.canonical)) continue;
    seen.add(parsed.canonical);
    out.push(unknownWorkflow(parsed.ref.id, parsed.ref.version));
  }
  return out;
}

/**
 * The workflows an agent task runs that could not be read, each a subject whose every fact but
 * its id and version is unknown, so that a `workflow` rule is undecided on it — never skipped
 * because nothing could be read: the one a btv task names (or, declaring its agent twice, each
 * it names), each delegate that could not be read (or was past the bound), or, for a Camunda
 * agent the BPMN says nothing of (an external agent, an A2A client), `camunda.<element
 * id>@1.0.0`, as a derived one would be named.
 */
function unreadWorkflowsOf(task: AgentTaskFacts): WorkflowFacts[] {
  const seen = new Set<string>();
  if (task.resolution.workflow !== undefined) {
    const failed = task.resolution.dependencies.filter(
      (d) => d.kind === "delegate" && d.failure !== undefined,
    );
    return standIns(
      failed.map((d) => d.ref),
      seen,
    );
  }
  if (task.declaration.source === "camunda") {
    return [unknownWorkflow(derivedWorkflowId(task.node.id), DERIVED_VERSION)];
  }
  const declared = task.declaration.declarations ?? [task.declaration];
  return standIns(
    declared.map((d) => d.ref),
    seen,
  );
}

/**
 * Every `workflow` subject of an agent task: the ref's workflow (or its unread stand-in), the
 * derived one beside or instead of it, and each delegate (or its unread stand-in).
 */
export function workflowSubjectsOf(task: AgentTaskFacts): readonly WorkflowFacts[] {
  // Read once per task: the packs judge these and the waivers name them, each document's facts
  // a walk of its nodes.
  const known = SUBJECTS.get(task);
  if (known !== undefined) return known;
  const out: WorkflowFacts[] = [];
  for (const workflow of [ownWorkflowOf(task), derivedWorkflowOf(task)]) {
    if (workflow !== undefined) out.push(workflow);
  }
  out.push(...delegateWorkflowsOf(task), ...unreadWorkflowsOf(task));
  SUBJECTS.set(task, out);
  return out;
}

/** {@link workflowSubjectsOf} by task, for the analysis's lifetime. */
const SUBJECTS = new WeakMap<AgentTaskFacts, readonly WorkflowFacts[]>();

/**
 * The `tool` subjects of an agent task: each tool known to be called, and, when what it calls
 * is not all known (its workflow, a delegate or a Camunda tool container could not be read: its
 * `tools` fact is null), the tool of unknown identity ({@link UNKNOWN_TOOL}), so that every
 * `tool` rule is undecided (or assumes the strictest effect) on the task, as a `workflow` rule is
 * on an unread workflow, never skipped.
 */
export function toolSubjectsOf(known: readonly ToolFacts[] | null, runs: Runs): ToolFacts[] {
  const out = [...(known ?? [])];
  if (runs.tools === null) out.push(UNKNOWN_TOOL);
  return out;
}
