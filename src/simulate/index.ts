/**
 * The deterministic simulator (SPEC 5): a workflow's run against fixtures (`simulate`), an
 * exploration of every decision route (`explore`), and the same run as an XState v5 machine for
 * hosts with real executors (`toMachine`). One loop (run.ts) is the run in all three. Nothing
 * here reads a clock or a random source. See docs/simulation.md.
 *
 * @packageDocumentation
 */
export type {
  BlockCell,
  BlockedDecision,
  CostModel,
  DecideTable,
  ExecutorInput,
  ExecutorOutput,
  Fixtures,
  JsonObject,
  MachineInput,
  NodeCost,
  NodeFixture,
  RetryCount,
  SimulateOptions,
  SimulationState,
  TransitionRecord,
  UnresolvedTemplate,
  TransitionType,
  Usage,
} from "./types.js";
export type {
  ExecutorDoneEvent,
  ExecutorErrorEvent,
  ExecutorLogic,
  FlowEvent,
  FlowMachine,
  MachineOptions,
  RunContext,
} from "./machine.js";
export { EXECUTOR, MACHINE_ID, snapshotState, toMachine } from "./machine.js";
export { simulate } from "./simulate.js";
export { finalOutput, runUsage } from "./state.js";
export { FINAL_OUTPUT_SCHEMA } from "./outputs.js";
export type { OptionProblem } from "./options.js";
export { lintSimulationOptions } from "./options.js";
export { DEFAULT_MAX_STEPS, MAX_STEPS_LIMIT, OptionTypeError } from "./limits.js";
export type {
  ExploredBlock,
  ExploredChoice,
  ExploredEnd,
  ExploredRun,
  ExploreOptions,
  ExploreReport,
  RouteCoverage,
} from "./explore.js";
export { explore } from "./explore.js";
export { sampleFixtures, sampleInput } from "./sample-input.js";
