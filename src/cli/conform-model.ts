/**
 * The approved model `conform` checks runs against, from an approval or from a registry.
 * From an approval, the gate runs again on the approval's recorded inputs (as `verify` does)
 * and the statement it gives must be the approved one: a run is checked against exactly what
 * was approved, or not at all (exit 2, saying what changed). From a registry, every workflow
 * there counts as approved, and the processes named are decided as `gate` decides them.
 */
import type { ApprovalStatement, StatementInput } from "../approval/index.js";
import { compareStatements, createStatement } from "../approval/index.js";
import { conflictOf, describeDefinitions, processTopology, readProcess } from "../bpmn/index.js";
import { formatRef, sha256 } from "../model/index.js";
import type { AgentTaskSummary } from "../bpmn/index.js";
import { deriveWorkflow, derivedToolRef } from "../bpmn/camunda/index.js";
import type {
  ApprovedModel,
  ApprovedProcess,
  ApprovedPrompt,
  ApprovedWorkflow,
} from "../conform/index.js";
import { embeddedWorkflow, zeebeElementTypes } from "../conform/process-shape.js";
import type { AgentWorkflow, ToolContract } from "../model/index.js";
import { regather, readApprovalFile } from "./approval-regather.js";
import { readPrompts, withPrompts } from "./conform-prompts.js";
import { readText } from "./file-read.js";
import type { GateRun } from "./gate-run.js";
import { runGatePipeline } from "./gate-run.js";
import type { CliIo } from "./io.js";
import { UsageError } from "./io.js";
import type { FolderRegistry } from "./registry.js";
import { loadFolderRegistry } from "./registry.js";

/** Where the approved model comes from, as the command line says. */
export interface ModelSource {
  readonly approval?: string | undefined;
  readonly registry?: string | undefined;
  readonly processes: readonly string[];
  readonly config?: string | boolean | undefined;
  readonly root?: string | undefined;
  /** `--prompts <dir>`: the approved prompts' texts. */
  readonly prompts?: string | undefined;
}

/** The model and the files it was built from (so that `-o` spares them). */
export interface BuiltModel {
  readonly model: ApprovedModel;
  /** What the model stands for, for the report's first line. */
  readonly basis: string;
  readonly reads: readonly string[];
}

/** An approved workflow with its tools' contracts as the registry resolves them. */
function approvedWorkflow(
  workflow: AgentWorkflow,
  registry: FolderRegistry | undefined,
): ApprovedWorkflow {
  const tools = new Map<string, ToolContract | null>();
  for (const node of workflow.nodes) {
    if (node.type !== "tool" || tools.has(node.config.usesTool)) continue;
    let found: unknown;
    try {
      found = registry?.resolve(node.config.usesTool);
    } catch {
      found = undefined; // a conflicting definition resolves to neither: unresolved
    }
    const contract = isContract(found) ? found : null;
    tools.set(node.config.usesTool, contract);
  }
  return { ref: formatRef(workflow), workflow, tools };
}

function isContract(value: unknown): value is ToolContract {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { kind?: unknown }).kind === "ToolContract"
  );
}

/** The workflow derived from a Camunda agent task, as approved: its tools read from the BPMN. */
function derivedWorkflow(
  summary: AgentTaskSummary,
  systemPrompt: string | undefined,
): ApprovedWorkflow | undefined {
  const derived = summary.derived;
  if (derived === undefined) return undefined;
  const { workflow } = deriveWorkflow({ ...derived, steps: [], flows: [] }, derived.tools);
  const derivedTools = new Map(derived.tools.map((t) => [derivedToolRef(t.id), t.effect]));
  const container = derived.container;
  if (container !== undefined && !container.found) {
    derivedTools.set(derivedToolRef(container.id), undefined);
  }
  const prompts = new Map<string, ApprovedPrompt>();
  const llm = workflow.nodes.find((n) => n.type === "llm");
  const hash = derived.systemPromptHash;
  if (llm?.type === "llm" && systemPrompt !== undefined) {
    // The BPMN fixes the text sent: a different digest is another prompt.
    prompts.set(llm.config.promptRef, { sha256: sha256(systemPrompt), exact: true });
  } else if (llm?.type === "llm" && hash !== undefined) {
    prompts.set(llm.config.promptRef, { sha256: hash.replace(/^sha256:/, ""), exact: false });
  }
  return { ref: formatRef(workflow), workflow, tools: new Map(), derivedTools, prompts };
}

/** The workflow a task's review took from a snapshot its element embeds (the registry had none). */
function snapshotWorkflow(definitions: unknown, task: AgentTaskSummary, run: GateRun) {
  if (task.resolution !== "snapshot" || task.contentHash === null) return undefined;
  const workflow = embeddedWorkflow(definitions, task.elementId, task.contentHash);
  return workflow === undefined ? undefined : approvedWorkflow(workflow, run.context.registry);
}

/** The processes a gate run decided, with their topology and each agent task's requirement. */
async function approvedProcesses(
  run: GateRun,
  only?: ReadonlySet<string>,
): Promise<{ processes: ApprovedProcess[]; derived: ApprovedWorkflow[] }> {
  const processes: ApprovedProcess[] = [];
  const derived: ApprovedWorkflow[] = [];
  for (const decided of run.decided) {
    if (!decided.readable) continue;
    if (only !== undefined && !decided.processIds.some((id) => only.has(id))) continue;
    const file = decided.checked.file;
    const { definitions } = await readProcess(await readText(file, "the process "));
    if (definitions === undefined) {
      throw new UsageError(`${file}: the process cannot be read again`);
    }
    const topology = processTopology(
      definitions,
      run.settings.gates === undefined ? {} : { gates: run.settings.gates },
    );
    const tasks = topology.tasks.map((t) => {
      const summary = decided.decision.agentTasks.find((a) => a.elementId === t.elementId);
      // Each task keeps its own workflow: two Camunda agents may derive one `id@version`.
      const own =
        summary === undefined
          ? undefined
          : (derivedWorkflow(summary, t.systemPrompt) ??
            snapshotWorkflow(definitions, summary, run));
      if (own !== undefined) derived.push(own);
      return {
        elementId: t.elementId,
        workflow: own?.ref ?? summary?.ref ?? null,
        ...(own === undefined ? {} : { resolved: own }),
        // A task the decision does not list is not known to need nothing: it needs a gate.
        gateRequired: summary === undefined || summary.requirement === "required",
        gates: t.gates,
      };
    });
    processes.push({
      processIds: topology.processIds,
      elements: new Set(topology.elements),
      elementTypes: zeebeElementTypes(definitions),
      tasks,
    });
  }
  return { processes, derived };
}

/**
 * The workflow the registry's own resolver gives for `ref`. A reference the registry holds
 * different documents for resolves to neither (the gate blocks it): a run cannot be checked
 * against it, so it is a {@link UsageError} naming the conflict, not the first definition.
 */
function resolveWorkflow(registry: FolderRegistry, ref: string): AgentWorkflow | undefined {
  let found: unknown;
  try {
    found = registry.resolvers.resolveDelegate?.(ref);
  } catch (error) {
    const conflict = conflictOf(error);
    if (conflict === undefined) throw error;
    throw new UsageError(
      `${conflict.ref} is defined with different content in ${describeDefinitions(conflict.definitions)}; the registry resolves it to neither, so runs cannot be checked against it (REGISTRY_CONFLICT: keep one definition)`,
    );
  }
  return (found as { kind?: unknown } | undefined)?.kind === "AgentWorkflow"
    ? (found as AgentWorkflow)
    : undefined;
}

/** The workflows a registry holds, every version, each as the registry resolves it. */
function registryWorkflows(registry: FolderRegistry): ApprovedWorkflow[] {
  return [...registry.workflows.values()].flatMap((versions) =>
    [...versions.values()].flatMap((first) => {
      const wf = resolveWorkflow(registry, formatRef(first));
      return wf === undefined ? [] : [approvedWorkflow(wf, registry)];
    }),
  );
}

/** The model from `--registry` (and the processes named). */
async function fromRegistry(source: ModelSource, io: CliIo, cwd: string): Promise<BuiltModel> {
  const folder = source.registry ?? "";
  if (source.processes.length === 0) {
    const registry = await loadFolderRegistry(folder);
    return {
      model: { workflows: registryWorkflows(registry), processes: [] },
      basis: `the registry ${folder}`,
      reads: registry.files,
    };
  }
  const run = await runGatePipeline(
    source.processes,
    {
      format: "text",
      registry: folder,
      ...(source.config === undefined ? {} : { config: source.config }),
    },
    io,
    { cwd },
  );
  const registry = run.context.registry;
  const { processes, derived } = await approvedProcesses(run);
  return {
    model: {
      workflows: [...(registry === undefined ? [] : registryWorkflows(registry)), ...derived],
      processes,
    },
    basis: `the registry ${folder} and ${run.decided.length} process(es)`,
    reads: run.reads.map((r) => r.path),
  };
}

/** The model an approval approved, after checking nothing it names has changed. */
async function fromApproval(
  file: string,
  source: ModelSource,
  io: CliIo,
  cwd: string,
): Promise<BuiltModel> {
  const { statement } = await readApprovalFile(file);
  const gathered = await regather(
    statement.predicate.inputs,
    // `-c` and `--no-config` are taken as `verify` takes them: a config other than the approved
    // one is drift, refused below, never silently passed over.
    {
      paths: [],
      approvalFile: file,
      root: source.root,
      config: source.config,
      registry: undefined,
    },
    io,
    cwd,
  );
  const now: StatementInput = { ...gathered.input, approver: statement.predicate.approver };
  if (gathered.input.files.length === 0) {
    throw new UsageError(`${file}: none of the files the approval approved can be found from here`);
  }
  const drift = compareStatements(statement, createStatement(now));
  if (drift.length > 0) {
    const lines = drift.map((r) => `  ${r.message}`).join("\n");
    throw new UsageError(
      `${file}: what the approval approved has changed, so runs cannot be checked against it (approve again, or restore):\n${lines}`,
    );
  }
  const registry = gathered.run.context.registry;
  const workflows = approvedRefs(statement).flatMap((ref): ApprovedWorkflow[] => {
    const found = registry === undefined ? undefined : resolveWorkflow(registry, ref);
    return found === undefined ? [] : [approvedWorkflow(found, registry)];
  });
  const ids = new Set(statement.predicate.processes.flatMap((p) => p.processIds));
  const { processes, derived } = await approvedProcesses(gathered.run, ids);
  return {
    model: { workflows: [...workflows, ...derived], processes },
    basis: `the approval ${file}`,
    reads: [file, ...gathered.run.reads.map((r) => r.path)],
  };
}

/** The workflows an approval's decisions resolved: each task's, and the delegates they name. */
function approvedRefs(statement: ApprovalStatement): string[] {
  const refs = new Set<string>();
  for (const process of statement.predicate.processes) {
    for (const task of process.agentTasks) {
      if (task.ref !== null && task.contentHash !== null) refs.add(task.ref);
      for (const dep of task.dependencies) {
        if (dep.kind === "delegate" && dep.contentHash !== null) refs.add(dep.ref);
      }
    }
  }
  return [...refs];
}

/** Builds the model the command line asks for; a mistake is a {@link UsageError}. */
export async function buildModel(source: ModelSource, io: CliIo, cwd: string): Promise<BuiltModel> {
  const built = await buildApproved(source, io, cwd);
  if (source.prompts === undefined) return built;
  const { prompts, files } = await readPrompts(source.prompts);
  return { ...built, model: withPrompts(built.model, prompts), reads: [...built.reads, ...files] };
}

async function buildApproved(source: ModelSource, io: CliIo, cwd: string): Promise<BuiltModel> {
  if ((source.approval === undefined) === (source.registry === undefined)) {
    throw new UsageError(
      "give the approved model: --approval <approval.json> or --registry <dir> (one of them)",
    );
  }
  if (source.approval !== undefined) {
    if (source.processes.length > 0) {
      throw new UsageError(
        "--approval checks against the approval's own processes: name no processes with it",
      );
    }
    return fromApproval(source.approval, source, io, cwd);
  }
  return fromRegistry(source, io, cwd);
}
