/**
 * The deterministic simulator (SPEC 5): a workflow as an XState v5 machine, a fixture-driven mock
 * run over XState's pure transition functions, and an exploration of every decision route.
 * Nothing here reads a clock or a random source. See docs/simulation.md.
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
export type { FlowContext, Limits, OwnedTrail, Spent, Trail, TrailList } from "./context.js";
export type { FirstSeen } from "./first-seen.js";
export type { NodeCounters, NodeTable, OwnedCounters, TableChunk } from "./table.js";
export type {
  ExecutorDoneEvent,
  ExecutorErrorEvent,
  ExecutorLogic,
  FlowAction,
  FlowEvent,
  FlowGuard,
  FlowMachine,
  MachineOptions,
  NodeAction,
  NodeGuard,
  NodeParams,
  StepParams,
  RouteParams,
} from "./machine.js";
export { EXECUTOR, MACHINE_ID, machineStates, snapshotState, toMachine } from "./machine.js";
export { simulate } from "./simulate.js";
export { finalOutput, runUsage } from "./state.js";
export { FINAL_OUTPUT_SCHEMA } from "./outputs.js";
export type { OptionProblem } from "./options.js";
export {
  DEFAULT_MAX_STEPS,
  lintSimulationOptions,
  MAX_STEPS_LIMIT,
  OptionTypeError,
} from "./options.js";
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
