/**
 * The report's "Operation" section as data (operation.ts builds it): what `agentflow conform`
 * found in recorded runs, counted and ordered once for both renderings.
 */
import type {
  ConformanceReport,
  DeviationClass,
  InstanceResult,
  RunResult,
  UnknownEvent,
} from "../../conform/index.js";

/** A run file as it was read: its name, the source it was read as, and its records. */
export interface OperationFile {
  readonly file: string;
  /** `otlp`, `zeebe`, `camunda-agent-history`, `langgraph`; `null` when nothing told it. */
  readonly source: string | null;
  readonly records: number;
}

/** What the report is given besides the checker's report. */
export interface OperationInput {
  readonly conformance: ConformanceReport;
  /** What the runs were checked against, e.g. `the registry examples/registry`. */
  readonly basis: string;
  readonly files?: readonly OperationFile[];
}

/**
 * A count and its share of the runs, as a reader sees it (`75%`, `33.3%`): digits, a point and
 * `%` only, so the renderers write it as it is.
 */
export interface OperationShare {
  readonly count: number;
  readonly percent: string;
}

/** One row of the deviations-by-class table. */
export interface OperationClassRow {
  readonly class: DeviationClass;
  readonly count: number;
  /** The sentence conform says for the first deviation of the class (messages.ts), unchanged. */
  readonly meaning: string;
}

/** The Operation section of a report. */
export interface OperationAudit {
  readonly basis: string;
  readonly files: readonly OperationFile[];
  readonly runs: number;
  readonly events: number;
  readonly conforming: OperationShare;
  readonly deviating: OperationShare;
  readonly unverified: OperationShare;
  readonly instances: { readonly checked: number; readonly deviating: number };
  /**
   * Process instances that deviate in nothing but are unverified (not ended before a gate their
   * agent task requires): not conforming, so the section counts them.
   */
  readonly unverifiedInstances: number;
  /** The first `LISTED_INSTANCES` (5) deviating process instances, in the order they came. */
  readonly deviatingInstances: readonly InstanceResult[];
  /**
   * Records that could not be read: those no run could be given (`first` keeps a few with their
   * reasons), and those inside a run (each makes its run unverified).
   */
  readonly unread: {
    readonly count: number;
    readonly inRuns: number;
    readonly first: readonly UnknownEvent[];
  };
  /** Most frequent class first; equal counts in the order of `DEVIATION_CLASSES`. */
  readonly classes: readonly OperationClassRow[];
  /** At most `WORST_RUNS` (5) runs that did not conform, worst first (see `worstRuns`). */
  readonly worst: readonly RunResult[];
  /** Whether everything conformed (conform's exit 0). */
  readonly ok: boolean;
}
