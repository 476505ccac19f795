/**
 * What the checker gives: a result per run and per process instance, the records no run could be
 * given, and the counts — and how the counts are made from the results.
 */
import type { Deviation, DeviationClass, Unverified } from "./deviation.js";
import type { EventAt, ProcessLink, UnknownEvent } from "./types.js";

/** A run's verdict: deviating when anything deviates; unverified when something could not be checked. */
export type RunVerdict = "conforming" | "deviating" | "unverified";

/** One run's result. */
export interface RunResult {
  readonly run: string;
  /** The workflow it was checked against (`id@version`), `null` when none could be. */
  readonly workflow: string | null;
  readonly verdict: RunVerdict;
  readonly deviations: readonly Deviation[];
  readonly unverified: readonly Unverified[];
  /** Events of the run taken. */
  readonly events: number;
  /**
   * The workflow nodes the run executed, in first-execution order (the report draws them); empty
   * for a run that conformed when it ended, so that a file of many good runs holds little.
   */
  readonly visited: readonly string[];
  readonly process?: ProcessLink;
  /** Where the run began in its source. */
  readonly at?: EventAt;
}

/** One process instance's result (from element records). */
export interface InstanceResult {
  readonly instance: string;
  readonly process: string;
  readonly ended: boolean;
  readonly deviations: readonly Deviation[];
  /** What the records leave open (an instance not ended before a required gate): not conforming. */
  readonly unverified: readonly Unverified[];
}

/** Everything the checker found. */
export interface ConformanceReport {
  /**
   * The runs that did not conform, and (with `keepConforming`) those that did; the summary
   * counts them all.
   */
  readonly runs: readonly RunResult[];
  readonly instances: readonly InstanceResult[];
  /** Records no run could be given, counted; the first few kept with their reasons. */
  readonly unmapped: { readonly count: number; readonly first: readonly UnknownEvent[] };
  readonly summary: ConformanceSummary;
}

/** The counts of a report. */
export interface ConformanceSummary {
  readonly runs: number;
  readonly conforming: number;
  readonly deviating: number;
  readonly unverified: number;
  readonly events: number;
  readonly deviationsByClass: Readonly<Partial<Record<DeviationClass, number>>>;
  /**
   * Whether everything conforms: every run, every instance, no unmapped record — and something
   * was checked (no run and no instance is not a pass).
   */
  readonly ok: boolean;
}

/** The counts of the results; `dropped` runs conformed and were counted, not kept. */
export function summarize(
  runs: readonly RunResult[],
  dropped: number,
  instances: readonly InstanceResult[],
  unmapped: number,
  events: number,
): ConformanceSummary {
  const byClass: Partial<Record<DeviationClass, number>> = {};
  const count = (d: Deviation): void => {
    byClass[d.class] = (byClass[d.class] ?? 0) + 1;
  };
  for (const run of runs) run.deviations.forEach(count);
  for (const instance of instances) instance.deviations.forEach(count);
  const conforming = dropped + runs.filter((r) => r.verdict === "conforming").length;
  const deviating = runs.filter((r) => r.verdict === "deviating").length;
  const unverified = runs.length + dropped - conforming - deviating;
  const checked = runs.length + dropped + instances.length > 0;
  const instancesOk = instances.every(
    (i) => i.deviations.length === 0 && i.unverified.length === 0,
  );
  return {
    runs: runs.length + dropped,
    conforming,
    deviating,
    unverified,
    events,
    deviationsByClass: byClass,
    // Nothing checked (an empty export, the wrong file) proves nothing: never a pass.
    ok: checked && deviating === 0 && unverified === 0 && instancesOk && unmapped === 0,
  };
}
