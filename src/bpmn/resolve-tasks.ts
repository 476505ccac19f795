/**
 * Resolving each agent task's workflow (registry first, the embedded snapshot as a degraded
 * fallback), validating it with the workflow rules, and looking up every tool it calls and every
 * delegate it hands work to — its own and its delegates'. Written once as a generator of
 * requests, driven synchronously (for the bpmnlint plugin) or asynchronously (for registries
 * that fetch).
 *
 * Fail closed: a tool or delegate whose lookup gives no usable document (none, a resolver that
 * throws, rejects or times out, a document that is not a valid contract, one for another id) is
 * kept as a dependency with its failure, and the gate rules read its effect as one that needs a
 * gate. Nothing a verdict depends on is dropped because it could not be read.
 */
import type { AgentWorkflow, Diagnostic, WorkflowParseResult } from "../model/index.js";
import { contentHash, parseRef, parseWorkflow, parseWorkflowText } from "../model/index.js";
import { parseWorkflowTextAsync } from "../model/internal.js";
import type { Validator } from "../validate/index.js";
import { MAX_DELEGATES } from "../validate/index.js";
import type { AgentDeclaration } from "./agents.js";
import type { Dependency, FailedLookup, LookupFailure } from "./dependency.js";
import { firstError, toolFrom, usable } from "./dependency.js";
import type { HostResolver, LookupAnswer } from "./lookup.js";
import { failedAnswer } from "./lookup.js";
import type { RegistryConflict } from "./registry-conflict.js";
import type { WorkflowResolution } from "./types.js";
import type { DerivedAgent, ToolEffectsMapping } from "./camunda/index.js";
import { resolveCamundaAgent } from "./camunda/index.js";

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
  /** The kind of {@link registryProblem}. */
  readonly registryFailure: LookupFailure | undefined;
  /** Every tool and delegate looked up, in the order met; failed lookups included. */
  readonly dependencies: readonly Dependency[];
  /**
   * References the registry holds different documents for, met while resolving this task: its
   * workflow, a tool it or a delegate calls, or a delegate. Each blocks the task.
   */
  readonly conflicts: readonly RegistryConflict[];
  /** For a Camunda AI agent: the agent derived from the BPMN (resolution `derived`). */
  readonly derived?: DerivedAgent;
}

/** A request the generator makes; the driver answers it (sync or async). */
export type ResolveRequest =
  | { readonly kind: "workflow"; readonly ref: string }
  | { readonly kind: "validate"; readonly workflow: AgentWorkflow }
  // An embedded snapshot's text, parsed by the driver: the async one loads YAML only for YAML.
  | { readonly kind: "snapshot"; readonly body: string }
  | { readonly kind: "tool"; readonly ref: string };

export type { LookupAnswer } from "./lookup.js";

const UNRESOLVED: TaskResolution = Object.freeze({
  resolution: "unresolved",
  workflow: undefined,
  diagnostics: [],
  snapshotProblem: undefined,
  registryProblem: undefined,
  registryFailure: undefined,
  dependencies: [],
  conflicts: [],
});

function* snapshotWorkflow(
  declaration: AgentDeclaration,
  ref: string,
): Generator<ResolveRequest, { workflow?: AgentWorkflow; problem?: string }, unknown> {
  const snapshot = declaration.snapshot;
  if (snapshot === undefined) return {};
  const parsed = (yield { kind: "snapshot", body: snapshot.body }) as WorkflowParseResult;
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

/** A workflow from an answer, or why there is none (a missing one has no failure). */
function* lookupWorkflow(
  ref: string,
  conflicts: RegistryConflict[],
): Generator<ResolveRequest, { value?: unknown; failure?: FailedLookup }, unknown> {
  const answer = (yield { kind: "workflow", ref }) as LookupAnswer;
  const got = usable(answer, ref, "workflow", conflicts);
  if ("value" in got) return { value: got.value };
  return got.failure.reason === "missing" ? {} : { failure: got.failure };
}

/** Every tool and delegate of the workflow and, transitively, of the delegates it can resolve. */
function* dependenciesOf(
  root: AgentWorkflow,
  conflicts: RegistryConflict[],
): Generator<ResolveRequest, Dependency[], unknown> {
  const out: Dependency[] = [];
  const seen = new Set([`${root.id}@${root.version}`]);
  const queue: { workflow: AgentWorkflow; via: string | undefined }[] = [
    { workflow: root, via: undefined },
  ];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const { workflow, via } = next;
    const where = via === undefined ? {} : { via };
    for (const node of workflow.nodes) {
      if (node.type !== "tool") continue;
      const tool = parseRef(node.config.usesTool);
      // An invalid ref is TOOL_REF_INVALID's, an error that already blocks the task.
      if (!tool.ok) continue;
      const answer = (yield { kind: "tool", ref: tool.canonical }) as LookupAnswer;
      const got = toolFrom(answer, tool.canonical, conflicts);
      const base = { kind: "tool", ref: tool.canonical, nodeId: node.id, ...where } as const;
      out.push(
        "failure" in got
          ? { ...base, failure: got.failure }
          : {
              ...base,
              contentHash: contentHash(got.contract),
              effect: got.contract.effect,
              authorization: got.contract.authorization,
            },
      );
    }
    for (const edge of workflow.edges) {
      const ref = edge.edgeType === "delegate" ? parseRef(edge.to) : undefined;
      if (ref?.ok !== true || seen.has(ref.canonical) || seen.size > MAX_DELEGATES) continue;
      seen.add(ref.canonical);
      const base = { kind: "delegate", ref: ref.canonical, nodeId: edge.from, ...where } as const;
      const found = yield* lookupWorkflow(ref.canonical, conflicts);
      if (found.value === undefined) {
        const failure = found.failure ?? {
          reason: "missing",
          detail: `no workflow ${ref.canonical} was found`,
        };
        out.push({ ...base, failure });
        continue;
      }
      const parsed = parseWorkflow(found.value);
      if (parsed.workflow === undefined) {
        const detail = `the registry's answer for ${ref.canonical} is not a valid workflow (${firstError(parsed.diagnostics)})`;
        out.push({ ...base, failure: { reason: "invalid", detail } });
        continue;
      }
      out.push({ ...base, contentHash: contentHash(parsed.workflow) });
      queue.push({ workflow: parsed.workflow, via: ref.canonical });
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
    const snap = yield* snapshotWorkflow(declaration, ref);
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
    return { ...base, workflow: undefined, diagnostics: parsed.diagnostics, dependencies: [] };
  }
  const workflow = parsed.workflow;
  const diagnostics = (yield { kind: "validate", workflow }) as Diagnostic[];
  const dependencies = yield* dependenciesOf(workflow, conflicts);
  return { ...base, workflow, diagnostics: [...parsed.diagnostics, ...diagnostics], dependencies };
}

/**
 * The resolution of a Camunda AI agent read from the BPMN, or `undefined` for any other task.
 * Nothing is looked up and the derived workflow is not validated with the workflow rules (they
 * judge documents people write); the gate rules read its level and its tools' effects.
 */
export function derivedResolution(
  declaration: AgentDeclaration,
  mapping: ToolEffectsMapping,
): TaskResolution | undefined {
  const agent = declaration.camunda;
  if (declaration.source !== "camunda" || agent === undefined) return undefined;
  const got = resolveCamundaAgent(agent, mapping);
  return {
    ...UNRESOLVED,
    resolution: "derived",
    workflow: got.workflow,
    dependencies: got.dependencies,
    derived: got.derived,
  };
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
