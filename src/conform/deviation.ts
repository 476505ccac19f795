/**
 * What a recorded run can do that the approval did not permit: the deviation classes, and the
 * shape each deviation takes. Wording lives in messages.ts; a deviation carries ids and data.
 */
import type { EventAt } from "./types.js";

/** The deviation classes (docs/conform.md describes each). */
export const DEVIATION_CLASSES = [
  "NODE_UNKNOWN",
  "TOOL_UNKNOWN",
  "TRANSITION_UNKNOWN",
  "ROUTE_CONTRADICTS",
  "RETRY_EXCEEDED",
  "BUDGET_EXCEEDED",
  "TOOL_INPUT_INVALID",
  "GATE_NOT_PASSED",
  "GATE_MISSING",
  "IDENTITY_MISMATCH",
  "VERSION_UNAPPROVED",
] as const;

/** One deviation class. */
export type DeviationClass = (typeof DEVIATION_CLASSES)[number];

/**
 * Why a run could not be checked in full, although nothing in it deviates: conform fails closed,
 * so such a run is `unverified`, not conforming.
 */
export const UNVERIFIED_REASONS = [
  "WORKFLOW_UNNAMED",
  "WORKFLOW_AMBIGUOUS",
  "EVENT_UNMAPPED",
  "ROUTE_UNDECIDABLE",
  "PROMPT_UNKNOWN",
  "GATE_UNOBSERVED",
  "CONTRACT_UNRESOLVED",
  "ARGUMENTS_UNRECORDED",
  "MODEL_UNRECORDED",
  "MODEL_UNSTATED",
  "COST_UNLIMITED",
  "USAGE_UNRECORDED",
  "STEPS_OVERLAP",
  "RUN_UNFINISHED",
  "START_UNRECORDED",
] as const;

/** One reason a run is unverified. */
export type UnverifiedReason = (typeof UNVERIFIED_REASONS)[number];

/** Values a deviation or an unverified reason carries for its message and for machines. */
export type FindingData = Readonly<Record<string, string | number | boolean | null>>;

/** A deviation: its class, the event that shows it, and the values its message names. */
export interface Deviation {
  readonly class: DeviationClass;
  /** The run it belongs to; for process-level deviations, the process instance. */
  readonly run: string;
  readonly at: EventAt;
  /** The workflow node or BPMN element it concerns, when there is one. */
  readonly node?: string;
  readonly data: FindingData;
}

/** Why part of a run could not be checked, with the event that shows it. */
export interface Unverified {
  readonly reason: UnverifiedReason;
  readonly run: string;
  readonly at?: EventAt;
  readonly node?: string;
  readonly data: FindingData;
}
