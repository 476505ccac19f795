/**
 * The deterministic mock run (SPEC 5): the workflow's machine run against fixtures, its
 * executor's results being the fixtures' outputs and failures. The run takes the machine's
 * transitions without XState (interpret.ts, which says why), and gives what XState's pure
 * transition functions give on the machine `toMachine` returns, byte for byte.
 */
import type { AgentWorkflow } from "../model/index.js";
import { fixtureSource, type FixtureSource } from "./fixtures.js";
import { interpret, type StopAt } from "./interpret.js";
import { compilePlan } from "./machine.js";
import type { Plan } from "./plan.js";
import { toSimulationState } from "./state.js";
import type { MachineInput, SimulateOptions, SimulationState } from "./types.js";

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
  const fixtures = fixtureSource(options.fixtures, options.sampleOutputs);
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
 * A run of `plan` with its fixture source (explore's runs share one, which checks each fixture
 * once for all of them, and share the plan); `stopAt` as {@link interpret} takes it.
 */
export function runPlan(
  plan: Plan,
  fixtures: FixtureSource,
  input: MachineInput,
  stopAt?: StopAt,
): SimulationState {
  return toSimulationState(plan, interpret(plan, fixtures, input, stopAt));
}
