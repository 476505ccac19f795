/**
 * The deterministic mock run (SPEC 5): the workflow's machine (for a large workflow, a window of
 * it: window.ts) driven by XState's pure transition functions, with fixture outputs and failures
 * fed in as the executor's results. No actor is started, no timer is set: each step is
 * `machine.transition(snapshot, event, scope)` with an inert scope — what XState's `transition()`
 * does, except that the scope is built once per machine instead of once per step (building it
 * creates an actor, which was a third of a step's cost).
 */
import { createActor } from "xstate";
import type { AgentNode, AgentWorkflow } from "../model/index.js";
import type { FlowContext } from "./context.js";
import { compilePlan, EXECUTOR, fullMachine, type FlowEvent, type FlowMachine } from "./machine.js";
import { normalizeFixtures, own } from "./options.js";
import type { Plan } from "./plan.js";
import { nodeAt } from "./table.js";
import { toSimulationState } from "./state.js";
import { lazySamples } from "./sample-input.js";
import type {
  Fixtures,
  MachineInput,
  NodeFixture,
  SimulateOptions,
  SimulationState,
} from "./types.js";
import { isOutside, outsideTarget, startWindow, widerWindow } from "./window.js";

/** Where a run finds node `k`'s fixture. */
export type FixtureSource = (plan: Plan, k: number) => NodeFixture | undefined;

/**
 * The fixture source of a run: the checked fixtures, then, with `sampleOutputs`, the node's
 * placeholder, sampled on first use.
 */
export function fixtureSource(fixtures: Fixtures, sampleOutputs: unknown): FixtureSource {
  if (sampleOutputs !== undefined && typeof sampleOutputs !== "boolean") {
    throw new TypeError("sampleOutputs must be a boolean");
  }
  if (sampleOutputs !== true) return (plan, k) => own(fixtures, plan.ids[k] ?? "");
  let samples: ((node: AgentNode) => NodeFixture | undefined) | undefined;
  return (plan, k) => {
    const fixture = own(fixtures, plan.ids[k] ?? "");
    const node = plan.graph.nodes[k];
    if (fixture !== undefined || node === undefined) return fixture;
    samples ??= lazySamples(plan.wf);
    return samples(node);
  };
}

/** The event fixtures give for the current attempt of node `k`. */
function fixtureEvent(plan: Plan, fixtures: FixtureSource, ctx: FlowContext, k: number): FlowEvent {
  const fixture = fixtures(plan, k);
  const { executions: execution, visits: visit } = nodeAt(ctx.nodes, k);
  const fails = fixture?.fails ?? 0;
  if (execution <= fails) {
    return {
      type: `xstate.error.actor.${EXECUTOR}`,
      actorId: EXECUTOR,
      error: `fixture failure ${execution} of ${fails}`,
    };
  }
  const outputs = fixture?.outputs ?? [];
  const output = outputs[Math.min(visit, outputs.length) - 1] ?? {};
  return { type: `xstate.done.actor.${EXECUTOR}`, actorId: EXECUTOR, output };
}

/** The scope `machine.transition` needs; inert: nothing is deferred, emitted or executed. */
type InertScope = Parameters<FlowMachine["transition"]>[2];

const scopes = new WeakMap<FlowMachine, InertScope>();

/**
 * One inert scope per machine: creating its actor runs the machine's initial transition, which
 * cost as much as a short run when it was done for every run. The scope holds no run state: its
 * actor is only the parent of the executor actors XState creates and never starts.
 */
function inertScope(machine: FlowMachine): InertScope {
  let scope = scopes.get(machine);
  if (scope !== undefined) return scope;
  const self = createActor(machine);
  const ignore = (): void => undefined;
  scope = {
    self,
    id: "",
    sessionId: "",
    logger: ignore,
    defer: ignore,
    emit: ignore,
    system: self.system,
    stopChild: ignore,
    actionExecutor: ignore,
  };
  scopes.set(machine, scope);
  return scope;
}

type Snapshot = ReturnType<FlowMachine["transition"]>;

/** Drives `machine` from its initial state until it is done or in its `outside` state. */
function drive(
  plan: Plan,
  machine: FlowMachine,
  fixtures: FixtureSource,
  input: MachineInput,
): Snapshot {
  const scope = inertScope(machine);
  let snapshot = machine.getInitialSnapshot(scope, input);
  // XState catches what the context function throws — the TypeError that names a malformed
  // input, maxSteps, budget or decide — and returns an error snapshot: the caller gets the error.
  if (snapshot.status === "error") {
    const error: unknown = snapshot.error;
    throw error instanceof Error ? error : new TypeError(String(error));
  }
  // Every event is one execution attempt, and every attempt is a step bounded by maxSteps, so
  // this loop ends; the explicit bound only guards against a defect turning into a hang.
  const bound = snapshot.context.limits.maxSteps + 2;
  for (let i = 0; snapshot.status === "active" && !isOutside(snapshot) && i <= bound; i++) {
    const ctx = snapshot.context;
    snapshot = machine.transition(snapshot, fixtureEvent(plan, fixtures, ctx, ctx.at), scope);
  }
  return snapshot;
}

/**
 * Runs the workflow against fixtures and returns its `SimulationState`: complete with the final
 * output, or stopped with a `blockedDecision`. Deterministic: the same workflow and options give
 * byte-identical JSON. Never throws on a workflow; throws a TypeError when the options are of the
 * wrong type (fixtures not an object, a negative `maxSteps`...).
 *
 * @example
 * ```ts
 * import { getTemplate } from "agentflow/model";
 * import { finalOutput, simulate } from "agentflow/simulate";
 *
 * const research = getTemplate("research");
 * if (research === undefined) throw new Error("no such template");
 * const fixtures = {
 *   "llm-1": {
 *     outputs: [
 *       { query: "q1", is_complete: false },
 *       { query: "q2", answer: "done", sources: ["s"], is_complete: true },
 *     ],
 *   },
 * };
 * const state = simulate(research, { fixtures, input: { query: "heat pumps" } });
 * state.complete; // → true
 * state.visitedNodes; // → ["llm-1", "tool-2", "dec-3"]
 * finalOutput(state); // → { query: "q2", is_complete: true, answer: "done", sources: ["s"] }
 * ```
 */
export function simulate(wf: AgentWorkflow, options: SimulateOptions = {}): SimulationState {
  if (typeof options !== "object" || (options as unknown) === null) {
    throw new TypeError("simulate options must be an object");
  }
  const fixtures = fixtureSource(normalizeFixtures(options.fixtures), options.sampleOutputs);
  const input: MachineInput = {
    ...(options.input !== undefined ? { input: options.input } : {}),
    ...(options.decide !== undefined ? { decide: options.decide } : {}),
    ...(options.budget !== undefined ? { budget: options.budget } : {}),
    ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}),
    ...(options.strictParams !== undefined ? { strictParams: options.strictParams } : {}),
  };
  return runPlan(compilePlan(wf, options.costModel), fixtures, input);
}

/**
 * A run of `plan` with fixtures already checked and copied (explore checks them once for all its
 * runs). Starts on the plan's current machine window and widens it when the run leaves it.
 */
export function runPlan(plan: Plan, fixtures: FixtureSource, input: MachineInput): SimulationState {
  let window = startWindow(plan, input.maxSteps);
  let snapshot = drive(plan, window.machine, fixtures, input);
  while (isOutside(snapshot)) {
    // The run left a restricted machine (window.ts): run it again on a wider one.
    const target = outsideTarget(plan, snapshot.context);
    window = widerWindow(plan, window, target);
    const machine = window.has[target] === 1 ? window.machine : fullMachine(plan);
    snapshot = drive(plan, machine, fixtures, input);
  }
  return toSimulationState(plan, snapshot.context);
}
