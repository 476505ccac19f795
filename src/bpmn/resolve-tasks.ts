/**
 * Resolving each agent task's workflow (registry first, the embedded snapshot as a degraded
 * fallback), validating it with the workflow rules, and looking up the effects of the tools it
 * calls. Written once as a generator of requests, driven synchronously (for the bpmnlint plugin)
 * or asynchronously (for registries that fetch).
 */
import type { AgentWorkflow, Diagnostic, ToolEffect } from "../model/index.js";
import { parseRef, parseWorkflow, parseWorkflowText } from "../model/index.js";
import { effectNeedsGate } from "../autonomy/index.js";
import type { Validator } from "../validate/index.js";
import type { AgentDeclaration } from "./agents.js";
import type { WorkflowResolution } from "./types.js";

/** A tool whose effect needs an approval gate, called by the agent's workflow. */
export interface GatedTool {
  readonly nodeId: string;
  readonly tool: string;
  readonly effect: ToolEffect;
}

/** What resolution learned about one agent task. */
export interface TaskResolution {
  readonly resolution: WorkflowResolution;
  readonly workflow: AgentWorkflow | undefined;
  /** The workflow's parse and validation diagnostics. */
  readonly diagnostics: readonly Diagnostic[];
  /** Why an embedded snapshot was not used, when there was one. */
  readonly snapshotProblem: string | undefined;
  readonly gatedTools: readonly GatedTool[];
}

/** A request the generator makes; the driver answers it (sync or async). */
export type ResolveRequest =
  | { readonly kind: "workflow"; readonly ref: string }
  | { readonly kind: "validate"; readonly workflow: AgentWorkflow }
  | { readonly kind: "tool"; readonly ref: string };

const UNRESOLVED: TaskResolution = Object.freeze({
  resolution: "unresolved",
  workflow: undefined,
  diagnostics: [],
  snapshotProblem: undefined,
  gatedTools: [],
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
  return { workflow };
}

function effectOf(contract: unknown): ToolEffect | undefined {
  if (typeof contract !== "object" || contract === null) return undefined;
  const effect = (contract as { readonly effect?: unknown }).effect;
  return typeof effect === "string" ? (effect as ToolEffect) : undefined;
}

/** Resolves one agent task, yielding requests and receiving their answers. */
export function* resolveTask(
  declaration: AgentDeclaration,
): Generator<ResolveRequest, TaskResolution, unknown> {
  const parsedRef = parseRef(declaration.ref);
  if (!parsedRef.ok) return UNRESOLVED;
  const ref = parsedRef.canonical;
  const found: unknown = yield { kind: "workflow", ref };
  let resolution: WorkflowResolution = "registry";
  let snapshotProblem: string | undefined;
  let document: unknown = found;
  if (found === undefined || found === null) {
    const snap = snapshotWorkflow(declaration, ref);
    snapshotProblem = snap.problem;
    if (snap.workflow === undefined) return { ...UNRESOLVED, snapshotProblem };
    resolution = "snapshot";
    document = snap.workflow;
  }
  const parsed = parseWorkflow(document);
  if (parsed.workflow === undefined) {
    return {
      resolution,
      workflow: undefined,
      diagnostics: parsed.diagnostics,
      snapshotProblem,
      gatedTools: [],
    };
  }
  const workflow = parsed.workflow;
  const diagnostics = (yield { kind: "validate", workflow }) as Diagnostic[];
  const gatedTools: GatedTool[] = [];
  for (const node of workflow.nodes) {
    if (node.type !== "tool") continue;
    const tool = parseRef(node.config.usesTool);
    if (!tool.ok) continue;
    const effect = effectOf(yield { kind: "tool", ref: tool.canonical });
    if (effect !== undefined && effectNeedsGate(effect)) {
      gatedTools.push({ nodeId: node.id, tool: tool.canonical, effect });
    }
  }
  return {
    resolution,
    workflow,
    diagnostics: [...parsed.diagnostics, ...diagnostics],
    snapshotProblem,
    gatedTools,
  };
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
    answer = lookup?.(request.ref);
    if (isThenable(answer)) {
      throw new TypeError(`the ${request.kind} resolver returned a promise; use evaluateGates`);
    }
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
    if (request.kind === "validate") answer = await validator.validate(request.workflow);
    else {
      const lookup =
        request.kind === "workflow" ? resolvers.resolveWorkflow : resolvers.resolveTool;
      answer = await lookup?.(request.ref);
    }
  }
}
