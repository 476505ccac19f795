/**
 * Conformance of recorded runs to what was approved: the run event language the readers
 * produce, the checker that replays runs on the approved workflows and processes, and the
 * wording of its findings (docs/conform.md).
 *
 * @packageDocumentation
 */
export type {
  DelegateEvent,
  DelegatingStep,
  ElementEvent,
  ElementState,
  EventAt,
  ProcessLink,
  RecordedObject,
  RouteEvent,
  RunEndEvent,
  RunEvent,
  RunSource,
  RunStartEvent,
  StepEvent,
  StepIdentity,
  UnknownEvent,
} from "./types.js";
export type {
  ApprovedModel,
  ApprovedProcess,
  ApprovedPrompt,
  ApprovedTask,
  ApprovedWorkflow,
  ConformanceOptions,
} from "./approved.js";
export type {
  Deviation,
  DeviationClass,
  FindingData,
  Unverified,
  UnverifiedReason,
} from "./deviation.js";
export { DEVIATION_CLASSES, UNVERIFIED_REASONS } from "./deviation.js";
export type { ConformanceChecker } from "./checker.js";
export type {
  ConformanceReport,
  ConformanceSummary,
  InstanceResult,
  RunResult,
  RunVerdict,
} from "./results.js";
export { createConformanceChecker } from "./checker.js";
export { deviationMessage, unverifiedMessage } from "./messages.js";
export type {
  InvalidRecord,
  RecordReader,
  RecordSplitter,
  RunReader,
  SourceRecord,
} from "./read/index.js";
export { createRecordSplitter, readerOf, RUN_READERS, sniffReader } from "./read/index.js";
