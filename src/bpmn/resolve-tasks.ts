/**
 * Resolving each agent task's workflow (registry first, the embedded snapshot as a degraded
 * fallback), validating it with the workflow rules, and looking up every tool it calls and every
 * delegate it hands work to — its own and its delegates'. Written once as a generator of
 * requests, driven synchronously (for the bpmnlint plugin) or asynchronously (for registries
 * that fetch).
 *
 * Fail closed: a tool or delegate whose lookup gives no usable document (none, a resolver that
 * throws, rejects or times out, a document that is not a valid contract, one for another id), or
 * that is never looked up (a ref that cannot be parsed, a delegate past the bound), is kept as a
 * dependency with its failure (resolve-dependencies.ts), and the gate rules read its effect as
 * one that needs a gate; snapshots that disagree are a conflict (resolve-snapshots.ts). Nothing
 * a verdict depends on is dropped because it could not be read.
 */
import type { Diagnostic } from "../model/index.js";
import { contentHash, parseRef, parseWorkflow, parseWorkflowText } from "../model/index.js";
import { parseWorkflowTextAsync } from "../model/internal.js";
import type { Validator } from "../validate/index.js";
import type { AgentDeclaration } from "./agents.js";
import type { HostResolver } from "./lookup.js";
import { failedAnswer } from "./lookup.js";
import type { RegistryConflict } from "./registry-conflict.js";
import type { ResolveRequest } from "./resolve-dependencies.js";
import { dependenciesOf, lookupWorkflow } from "./resolve-dependencies.js";
import { snapshotWorkflow } from "./resolve-snapshots.js";
import type { WorkflowResolution } from "./types.js";
import type { ToolEffectsMapping } from "./camunda/index.js";
import type { TaskResolution } from "./resolution-types.js";
import { camundaResolution } from "./camunda/task-resolution.js";

export type { TaskResolution } from "./resolution-types.js";
export type { ResolveRequest } from "./resolve-dependencies.js";
export type { LookupAnswer } from "./lookup.js";

const UNRESOLVED: TaskResolution = Object.freeze({
  resolution: "unresolved",
  workflow: undefined,
  diagnostics: [],
  snapshotProblem: undefined,
  registryProblem: undefined,
  registryFailure: undefined,
  dependencies: [],
  models: [],
  conflicts: [],
});

/** Resolves one agent task, yielding requests and receiving their answers. */
export function* resolveTask(
  declaration: AgentDeclaration,
): Generator<ResolveRequest, TaskResolution, unknown> {
  // Whoever drives this, a task that declares two agents resolves to neither.
  const conflict = declarationsConflict(declaration);
  if (conflict !== undefined) return conflict;
  const parsedRef = parseRef(declaration.ref);
  if (!parsedRef.ok) return UNRESOLVED;
  const ref = parsedRef.canonical;
  const conflicts: RegistryConflict[] = [];
  const found = yield* lookupWorkflow(ref, conflicts);
  const registry = {
    registryProblem: found.failure?.detail,
    registryFailure: found.failure?.reason,
  };
  let resolution: WorkflowResolution = "registry";
  let snapshotProblem: string | undefined;
  let document: unknown = found.value;
  // A lookup that failed (threw, timed out, was aborted, answered another document) is not "not
  // found": the snapshot the process's author embedded must not stand in for it (fail closed).
  if (document === undefined && found.failure !== undefined) {
    return { ...UNRESOLVED, ...registry, conflicts };
  }
  if (document === undefined) {
    const snap = yield* snapshotWorkflow(declaration, ref, conflicts);
    snapshotProblem = snap.problem;
    if (snap.workflow === undefined) {
      return { ...UNRESOLVED, snapshotProblem, ...registry, conflicts };
    }
    resolution = "snapshot";
    document = snap.workflow;
  }
  const parsed = parseWorkflow(document);
  const base = { resolution, snapshotProblem, ...registry, conflicts };
  if (parsed.workflow === undefined) {
    return {
      ...base,
      workflow: undefined,
      diagnostics: parsed.diagnostics,
      dependencies: [],
      models: [],
    };
  }
  const workflow = parsed.workflow;
  const diagnostics = (yield { kind: "validate", workflow }) as Diagnostic[];
  const { dependencies, delegates, models } = yield* dependenciesOf(workflow, conflicts);
  return {
    ...base,
    workflow,
    diagnostics: [...parsed.diagnostics, ...diagnostics],
    dependencies,
    delegates,
    models,
  };
}

/**
 * The resolution of a task that declares its agent more than once (`btv:agentTask` twice), or
 * `undefined` for any other: never looked up, since which agent runs cannot be known. The
 * declarations are a conflict on the first one's ref, as two registry documents of one ref are:
 * AGENT_REF_CONFLICT blocks the task, and the task is judged as unresolved (its tools, models,
 * budget and level unknown), never as the first declaration alone.
 */
function declarationsConflict(declaration: AgentDeclaration): TaskResolution | undefined {
  const declared = declaration.declarations;
  if (declared === undefined) return undefined;
  const parsed = parseRef(declaration.ref);
  const ref = parsed.ok ? parsed.canonical : (declaration.ref ?? "");
  const definitions = declared.map((d) => ({
    source: `btv:agentTask at ${d.path}`,
    contentHash: contentHash({
      agentWorkflowRef: d.ref ?? null,
      autonomyLevel: d.levelText ?? null,
    }),
  }));
  return { ...UNRESOLVED, conflicts: [{ ref, definitions }] };
}

/**
 * The resolution of a task decided from the BPMN alone, or `undefined` for a task to resolve
 * (`resolveTask`): a Camunda AI agent read from the BPMN, and a task that declares its agent
 * more than once (unresolved, a conflict). For a Camunda agent nothing is looked up and the
 * derived workflow is not validated with the workflow rules (they judge documents people
 * write); the gate rules read its level and its tools' effects. A btv task on a Camunda AI
 * agent agentflow reads is resolved by its ref, and its reading joined to that resolution
 * (`withCamundaReading`, camunda/task-resolution.ts).
 */
export function derivedResolution(
  declaration: AgentDeclaration,
  mapping: ToolEffectsMapping,
): TaskResolution | undefined {
  const conflict = declarationsConflict(declaration);
  if (conflict !== undefined) return conflict;
  const agent = declaration.camunda;
  if (declaration.source !== "camunda" || agent === undefined) return undefined;
  return camundaResolution(agent, mapping);
}

/** The host's lookups. */
export interface TaskResolvers {
  /** Looks up an agent's or a delegate's workflow by `id@x.y.z`. */
  readonly resolveWorkflow?: HostResolver | undefined;
  /** Looks up a tool contract by `tool:<name>@x.y.z`. */
  readonly resolveTool?: HostResolver | undefined;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/** Drives {@link resolveTask} synchronously; a resolver that returns a promise is a TypeError. */
export function resolveTaskSync(
  declaration: AgentDeclaration,
  resolvers: TaskResolvers,
  validator: Validator,
): TaskResolution {
  const steps = resolveTask(declaration);
  let answer: unknown = undefined;
  for (;;) {
    const step = steps.next(answer);
    if (step.done === true) return step.value;
    const request = step.value;
    if (request.kind === "validate" || request.kind === "snapshot") {
      answer =
        request.kind === "validate"
          ? validator.validateSync(request.workflow)
          : parseWorkflowText(request.body);
      continue;
    }
    const lookup = request.kind === "workflow" ? resolvers.resolveWorkflow : resolvers.resolveTool;
    let value: unknown;
    try {
      value = lookup?.(request.ref);
    } catch (error) {
      answer = failedAnswer(error);
      continue;
    }
    if (isThenable(value)) {
      throw new TypeError(`the ${request.kind} resolver returned a promise; use evaluateGates`);
    }
    answer = { ok: true, value };
  }
}

/** Drives {@link resolveTask} with resolvers that may return promises. */
export async function resolveTaskAsync(
  declaration: AgentDeclaration,
  resolvers: TaskResolvers,
  validator: Validator,
): Promise<TaskResolution> {
  const steps = resolveTask(declaration);
  let answer: unknown = undefined;
  for (;;) {
    const step = steps.next(answer);
    if (step.done === true) return step.value;
    const request = step.value;
    if (request.kind === "validate" || request.kind === "snapshot") {
      answer =
        request.kind === "validate"
          ? await validator.validate(request.workflow)
          : await parseWorkflowTextAsync(request.body);
      continue;
    }
    const lookup = request.kind === "workflow" ? resolvers.resolveWorkflow : resolvers.resolveTool;
    try {
      answer = { ok: true, value: await lookup?.(request.ref) };
    } catch (error) {
      answer = failedAnswer(error);
    }
  }
}
