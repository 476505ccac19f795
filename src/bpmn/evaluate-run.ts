/**
 * The gate evaluation on options whose packs are compiled (`CompiledGateOptions`): resolve every
 * agent task's workflow, validate it, run the rules, decide. The public functions
 * (`evaluate.ts`) compile plain packs first; the modeller's engine compiles them with a compiler
 * it loads only when a page sets packs, so this file must import no pack compiler.
 */
import { waiveFindings } from "./waive.js";
import { analyze, prepareProcess } from "./analysis.js";
import type { AgentDeclaration } from "./agents.js";
import type { GateDecision } from "./decision.js";
import { decide, summary } from "./decision.js";
import type { LookupLimits } from "./lookup.js";
import { onceAsync, onceSync } from "./lookup.js";
import type { ModdleObject } from "./moddle.js";
import type { TaskResolution, TaskResolvers } from "./resolve-tasks.js";
import { derivedResolution, resolveTaskAsync, resolveTaskSync } from "./resolve-tasks.js";
import { withCamundaReading } from "./camunda/task-resolution.js";
import { nodeId } from "./process-index.js";
import { runBpmnRules } from "./rule.js";
import type { EvaluationSetup } from "./evaluate-setup.js";
import type { CompiledGateOptions } from "./gate-options.js";
import {
  mappingOf,
  readsView,
  selectorsOf,
  setupOf,
  timeoutOf,
  validatorFor,
} from "./evaluate-setup.js";

/**
 * Tasks that name the same ref with the same snapshot resolve identically, so one evaluation
 * resolves and validates each such pair once (a process may run one agent in many tasks).
 */
function resolutionKey(declaration: AgentDeclaration): string {
  const snapshots =
    declaration.snapshots ?? (declaration.snapshot === undefined ? [] : [declaration.snapshot]);
  // Every snapshot counts: two tasks whose first snapshots agree may differ in a second one.
  const snap = snapshots.map((s) => `${s.version ?? ""}\u0000${s.body}`).join("\u0001");
  return `${declaration.ref ?? ""}\u0000${snap}`;
}

/** The decision from the resolutions, one per prepared agent. */
function finish(
  options: CompiledGateOptions,
  setup: EvaluationSetup,
  prepared: ReturnType<typeof prepareProcess>,
  resolutions: readonly TaskResolution[],
): GateDecision {
  const analysis = analyze(
    prepared,
    resolutions,
    options.policy?.camundaAgents ?? "gate-required",
    options.resolveWorkflow !== undefined,
  );
  const found = runBpmnRules(setup.rules, { analysis, parseIssues: [] });
  const diagnostics = waiveFindings(found, analysis, setup.waivers, setup.today, setup.packs);
  const gates = prepared.gates.map(({ node, role }) => ({
    elementId: nodeId(prepared.graph.index, node),
    role: role ?? null,
  }));
  return decide(diagnostics, analysis.tasks.map(summary), setup.ruleSet, gates);
}

/** What an evaluation reads before it resolves: its setup, the tool-effect mapping, the process. */
function begin(definitions: ModdleObject, options: CompiledGateOptions) {
  const setup = setupOf(options);
  const mapping = mappingOf(options);
  const prepared = prepareProcess(
    definitions,
    options.isGate,
    selectorsOf(options),
    readsView(setup.rules),
  );
  return { setup, mapping, prepared };
}

/**
 * The resolutions of the prepared agents, in order, for the sync and the async evaluation alike:
 * it yields each declaration to resolve (one per distinct ref and snapshot) and is sent back its
 * resolution, however the caller got it.
 */
function* resolving(
  prepared: ReturnType<typeof prepareProcess>,
  mapping: ReturnType<typeof mappingOf>,
): Generator<AgentDeclaration, TaskResolution[], TaskResolution> {
  const cache = new Map<string, TaskResolution>();
  const resolutions: TaskResolution[] = [];
  for (const { declaration } of prepared.agents) {
    const derived = derivedResolution(declaration, mapping);
    if (derived !== undefined) {
      resolutions.push(derived);
      continue;
    }
    const key = resolutionKey(declaration);
    let resolution = cache.get(key);
    if (resolution === undefined) {
      resolution = yield declaration;
      cache.set(key, resolution);
    }
    // The ref's resolution is shared; a Camunda AI agent beside the ref is this task's own.
    resolutions.push(withCamundaReading(resolution, declaration, mapping));
  }
  return resolutions;
}

/**
 * `evaluateGates` on options whose packs are compiled: the modeller's engine calls it with packs
 * it compiled itself, so it reaches no pack compiler.
 */
export async function evaluateCompiled(
  definitions: ModdleObject,
  options: CompiledGateOptions,
): Promise<GateDecision> {
  const { setup, mapping, prepared } = begin(definitions, options);
  const limits: LookupLimits = { signal: options.signal, timeoutMs: timeoutOf(options) };
  const lookups: TaskResolvers = {
    resolveWorkflow: onceAsync(options.resolveWorkflow, limits),
    resolveTool: onceAsync(options.resolveTool, limits),
  };
  const validator = validatorFor(options, lookups);
  const steps = resolving(prepared, mapping);
  let step = steps.next();
  while (step.done !== true) {
    step = steps.next(await resolveTaskAsync(step.value, lookups, validator));
  }
  return finish(options, setup, prepared, step.value);
}

/** {@link evaluateCompiled} for synchronous resolvers (a promise from one is a `TypeError`). */
export function evaluateCompiledSync(
  definitions: ModdleObject,
  options: CompiledGateOptions,
): GateDecision {
  const { setup, mapping, prepared } = begin(definitions, options);
  const lookups: TaskResolvers = {
    resolveWorkflow: onceSync(options.resolveWorkflow),
    resolveTool: onceSync(options.resolveTool),
  };
  const validator = validatorFor(options, lookups);
  const steps = resolving(prepared, mapping);
  let step = steps.next();
  while (step.done !== true) step = steps.next(resolveTaskSync(step.value, lookups, validator));
  return finish(options, setup, prepared, step.value);
}
