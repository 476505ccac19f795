/**
 * Resolving each agent task's workflow (registry first, the embedded snapshot as a degraded
 * fallback), validating it with the workflow rules, and looking up the effects of the tools it
 * calls — its own and its delegates'. Written once as a generator of requests, driven
 * synchronously (for the bpmnlint plugin) or asynchronously (for registries that fetch). A
 * resolver that throws or rejects is a failed lookup, reported, never an exception.
 */
import type { AgentWorkflow, Diagnostic, ToolEffect } from "../model/index.js";
import { parseRef, parseWorkflow, parseWorkflowText } from "../model/index.js";
import { effectNeedsGate } from "../autonomy/index.js";
import type { Validator } from "../validate/index.js";
import { MAX_DELEGATES } from "../validate/index.js";
import type { AgentDeclaration } from "./agents.js";
import type { RegistryConflict } from "./registry-conflict.js";
import { conflictOf } from "./registry-conflict.js";
import type { WorkflowResolution } from "./types.js";

/** A tool whose effect needs an approval gate, called by the agent's workflow or a delegate. */
export interface GatedTool {
  readonly nodeId: string;
  readonly tool: string;
  readonly effect: ToolEffect;
  /** The delegate workflow that calls it (`id@x.y.z`), when not the agent's own workflow. */
  readonly via?: string;
}

/** What resolution learned about one agent task. */
export interface TaskResolution {
  readonly resolution: WorkflowResolution;
  readonly workflow: AgentWorkflow | undefined;
  /** The workflow's parse and validation diagnostics. */
  readonly diagnostics: readonly Diagnostic[];
  /** Why an embedded snapshot was not used, when there was one. */
  readonly snapshotProblem: string | undefined;
  /** Why the registry's answer was not used: it failed, or returned another workflow. */
  readonly registryProblem: string | undefined;
  readonly gatedTools: readonly GatedTool[];
  /**
   * References the registry holds different documents for, met while resolving this task: its
   * workflow, a tool it or a delegate calls, or a delegate. Each blocks the task.
   */
  readonly conflicts: readonly RegistryConflict[];
}

/** A request the generator makes; the driver answers it (sync or async). */
export type ResolveRequest =
  | { readonly kind: "workflow"; readonly ref: string }
  | { readonly kind: "validate"; readonly workflow: AgentWorkflow }
  | { readonly kind: "tool"; readonly ref: string };

/** A driver's answer to a lookup: the value, or why the resolver failed. */
export type LookupAnswer =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      readonly error: string;
      /** When the resolver failed because its registry holds different documents for the ref. */
      readonly conflict?: RegistryConflict;
    };

const UNRESOLVED: TaskResolution = Object.freeze({
  resolution: "unresolved",
  workflow: undefined,
  diagnostics: [],
  snapshotProblem: undefined,
  registryProblem: undefined,
  gatedTools: [],
  conflicts: [],
});

function snapshotWorkflow(
  declaration: AgentDeclaration,
  ref: string,
): { workflow?: AgentWorkflow; problem?: string } {
  const snapshot = declaration.snapshot;
  if (snapshot === undefined) return {};
  const parsed = parseWorkflowText(snapshot.body);
  const workflow = parsed.workflow;
  if (workflow === undefined) {
    const first = parsed.diagnostics.find((d) => d.severity === "error");
    return { problem: `the snapshot is not a valid workflow (${first?.message ?? "unreadable"})` };
  }
  const own = `${workflow.id}@${workflow.version}`;
  if (own !== ref) return { problem: `the snapshot is ${own}, not ${ref}` };
  if (snapshot.version !== undefined && snapshot.version !== workflow.version) {
    return { problem: `the snapshot is labelled version ${snapshot.version} but holds ${own}` };
  }
  return { workflow };
}

function effectOf(contract: unknown): ToolEffect | undefined {
  if (typeof contract !== "object" || contract === null) return undefined;
  const effect = (contract as { readonly effect?: unknown }).effect;
  return typeof effect === "string" ? (effect as ToolEffect) : undefined;
}

function identity(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { id, version } = value as { readonly id?: unknown; readonly version?: unknown };
  return typeof id === "string" && typeof version === "string" ? `${id}@${version}` : undefined;
}

/** The registry's workflow for `ref`, or why there is none usable; conflicts go to `conflicts`. */
function* lookupWorkflow(
  ref: string,
  conflicts: RegistryConflict[],
): Generator<ResolveRequest, { value?: unknown; problem?: string }, unknown> {
  const answer = (yield { kind: "workflow", ref }) as LookupAnswer;
  if (!answer.ok) {
    if (answer.conflict !== undefined) conflicts.push(answer.conflict);
    return { problem: `the registry failed: ${answer.error}` };
  }
  if (answer.value === undefined || answer.value === null) return {};
  const own = identity(answer.value);
  if (own !== undefined && own !== ref) {
    return { problem: `the registry returned ${own} for ${ref}` };
  }
  return { value: answer.value };
}

/** Gated tools of the workflow and, transitively, of the delegates it can resolve. */
function* gatedToolsOf(
  root: AgentWorkflow,
  conflicts: RegistryConflict[],
): Generator<ResolveRequest, GatedTool[], unknown> {
  const out: GatedTool[] = [];
  const seen = new Set([`${root.id}@${root.version}`]);
  const queue: { workflow: AgentWorkflow; via: string | undefined }[] = [
    { workflow: root, via: undefined },
  ];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const { workflow, via } = next;
    for (const node of workflow.nodes) {
      if (node.type !== "tool") continue;
      const tool = parseRef(node.config.usesTool);
      if (!tool.ok) continue;
      const answer = (yield { kind: "tool", ref: tool.canonical }) as LookupAnswer;
      if (!answer.ok && answer.conflict !== undefined) conflicts.push(answer.conflict);
      const effect = answer.ok ? effectOf(answer.value) : undefined;
      if (effect !== undefined && effectNeedsGate(effect)) {
        out.push({
          nodeId: node.id,
          tool: tool.canonical,
          effect,
          ...(via === undefined ? {} : { via }),
        });
      }
    }
    for (const edge of workflow.edges) {
      const ref = edge.edgeType === "delegate" ? parseRef(edge.to) : undefined;
      if (ref?.ok !== true || seen.has(ref.canonical) || seen.size > MAX_DELEGATES) continue;
      seen.add(ref.canonical);
      const found = yield* lookupWorkflow(ref.canonical, conflicts);
      const delegate = found.value === undefined ? undefined : parseWorkflow(found.value).workflow;
      if (delegate !== undefined) queue.push({ workflow: delegate, via: ref.canonical });
    }
  }
  return out;
}

/** Resolves one agent task, yielding requests and receiving their answers. */
export function* resolveTask(
  declaration: AgentDeclaration,
): Generator<ResolveRequest, TaskResolution, unknown> {
  const parsedRef = parseRef(declaration.ref);
  if (!parsedRef.ok) return UNRESOLVED;
  const ref = parsedRef.canonical;
  const conflicts: RegistryConflict[] = [];
  const found = yield* lookupWorkflow(ref, conflicts);
  const registryProblem = found.problem;
  let resolution: WorkflowResolution = "registry";
  let snapshotProblem: string | undefined;
  let document: unknown = found.value;
  if (document === undefined) {
    const snap = snapshotWorkflow(declaration, ref);
    snapshotProblem = snap.problem;
    if (snap.workflow === undefined) {
      return { ...UNRESOLVED, snapshotProblem, registryProblem, conflicts };
    }
    resolution = "snapshot";
    document = snap.workflow;
  }
  const parsed = parseWorkflow(document);
  const base = { resolution, snapshotProblem, registryProblem, conflicts };
  if (parsed.workflow === undefined) {
    return { ...base, workflow: undefined, diagnostics: parsed.diagnostics, gatedTools: [] };
  }
  const workflow = parsed.workflow;
  const diagnostics = (yield { kind: "validate", workflow }) as Diagnostic[];
  const gatedTools = yield* gatedToolsOf(workflow, conflicts);
  return { ...base, workflow, diagnostics: [...parsed.diagnostics, ...diagnostics], gatedTools };
}

/** The host's lookups. */
export interface TaskResolvers {
  readonly resolveWorkflow?: (ref: string) => unknown;
  readonly resolveTool?: (ref: string) => unknown;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

function failure(error: unknown): LookupAnswer {
  const message = error instanceof Error ? error.message : String(error);
  const conflict = conflictOf(error);
  return conflict === undefined
    ? { ok: false, error: message }
    : { ok: false, error: message, conflict };
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
    if (request.kind === "validate") {
      answer = validator.validateSync(request.workflow);
      continue;
    }
    const lookup = request.kind === "workflow" ? resolvers.resolveWorkflow : resolvers.resolveTool;
    let value: unknown;
    try {
      value = lookup?.(request.ref);
    } catch (error) {
      answer = failure(error);
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
    if (request.kind === "validate") {
      answer = await validator.validate(request.workflow);
      continue;
    }
    const lookup = request.kind === "workflow" ? resolvers.resolveWorkflow : resolvers.resolveTool;
    try {
      answer = { ok: true, value: await lookup?.(request.ref) };
    } catch (error) {
      answer = failure(error);
    }
  }
}
