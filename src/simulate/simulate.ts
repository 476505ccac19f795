/**
 * The deterministic mock run (SPEC 5): the workflow's run (run.ts) with the fixtures' outputs and
 * failures as its attempts' results — the run the machine `toMachine` returns makes when its
 * executor gives the same results.
 */
import type { AgentWorkflow } from "../model/index.js";
import { fixtureSource } from "./fixtures.js";
import { compilePlan, interpret } from "./run.js";
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
  const plan = compilePlan(wf, options.costModel);
  return toSimulationState(plan, interpret(plan, fixtures, input));
}
