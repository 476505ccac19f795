/**
 * The report's "Operation" section as data: what `agentflow conform` found in recorded runs,
 * counted and ordered once here so that the Markdown and HTML renderings say the same thing.
 * Conform fails closed, and so does this section: an unverified run is counted apart, never
 * among the conforming ones, and a share is never rounded up to 100 % or down to 0 %.
 */
import type {
  ConformanceReport,
  Deviation,
  DeviationClass,
  EventAt,
  RunResult,
} from "../../conform/index.js";
import { DEVIATION_CLASSES, deviationMessage } from "../../conform/index.js";
import type {
  OperationAudit,
  OperationClassRow,
  OperationInput,
  OperationShare,
} from "./operation-types.js";

/** The most runs the section shows with their deviations and their path. */
export const WORST_RUNS = 5;

/** The most deviating process instances the section lists. */
export const LISTED_INSTANCES = 5;

/** The most deviations, and unverified parts, listed per run (conform's own outputs list all). */
export const RUN_FINDINGS_LIMIT = 50;

/**
 * Where an event was recorded, as conform's text output says it: `file:line` (or `file#index`
 * for a record that is not a line of its own), its time, and its own ids.
 */
export function eventWhere(at: EventAt | undefined): string {
  if (at === undefined) return "(end of the records)";
  const file = at.file ?? "";
  const place = at.line === undefined ? `#${String(at.index)}` : `:${String(at.line)}`;
  const ids = Object.entries(at.ids ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");
  const time = at.time === undefined ? "" : ` ${at.time}`;
  return `${file}${place}${time}${ids === "" ? "" : ` [${ids}]`}`;
}

/** The line that ends a run's list past {@link RUN_FINDINGS_LIMIT}, if it has one. */
export function moreFindingsNote(total: number, what: string): string | undefined {
  if (total <= RUN_FINDINGS_LIMIT) return undefined;
  return `… and ${String(total - RUN_FINDINGS_LIMIT)} more ${what}, not listed: agentflow conform --format json lists them all.`;
}

/**
 * `count` of `total` as a percentage with at most one decimal. A share that is neither none nor
 * all is kept strictly between 0 % and 100 %: one deviating run in a million is not "0%".
 */
export function percentOf(count: number, total: number): string {
  if (total <= 0 || count <= 0) return "0%";
  if (count >= total) return "100%";
  const value = Math.min(99.9, Math.max(0.1, Math.round((count / total) * 1000) / 10));
  return `${String(value)}%`;
}

/** Whether run `a` is worse than run `b`: more deviations, then more unverified parts. */
function worse(a: RunResult, b: RunResult): boolean {
  if (a.deviations.length !== b.deviations.length) {
    return a.deviations.length > b.deviations.length;
  }
  return a.unverified.length > b.unverified.length;
}

/**
 * The `limit` worst runs that did not conform: most deviations first, then (deviations equal,
 * so among the unverified runs too) most unverified parts; equal runs keep the order they were
 * checked in. One pass, keeping only `limit` runs: a million runs are never sorted.
 */
export function worstRuns(runs: readonly RunResult[], limit = WORST_RUNS): RunResult[] {
  const kept: RunResult[] = [];
  for (const run of runs) {
    if (run.verdict === "conforming" || limit <= 0) continue;
    const last = kept[kept.length - 1];
    if (kept.length === limit && (last === undefined || !worse(run, last))) continue;
    let at = kept.length;
    while (at > 0 && worse(run, kept[at - 1] ?? run)) at--;
    kept.splice(at, 0, run);
    if (kept.length > limit) kept.pop();
  }
  return kept;
}

/** Per class: how many deviations, and the first one (for its sentence). */
function byClass(report: ConformanceReport): OperationClassRow[] {
  const first = new Map<DeviationClass, Deviation>();
  const note = (d: Deviation): void => {
    if (!first.has(d.class)) first.set(d.class, d);
  };
  for (const run of report.runs) run.deviations.forEach(note);
  for (const instance of report.instances) instance.deviations.forEach(note);
  const rows: OperationClassRow[] = [];
  for (const cls of DEVIATION_CLASSES) {
    const count = report.summary.deviationsByClass[cls] ?? 0;
    const d = first.get(cls);
    if (count === 0 || d === undefined) continue;
    rows.push({ class: cls, count, meaning: deviationMessage(d) });
  }
  // Array sort is stable: equal counts keep the classes' own order.
  return rows.sort((a, b) => b.count - a.count);
}

/** The Operation section of a report, from conform's report on the runs. */
export function operationAudit(input: OperationInput): OperationAudit {
  const report = input.conformance;
  const s = report.summary;
  const share = (count: number): OperationShare => ({ count, percent: percentOf(count, s.runs) });
  const deviatingInstances = report.instances.filter((i) => i.deviations.length > 0);
  let inRuns = 0;
  for (const run of report.runs) {
    for (const u of run.unverified) if (u.reason === "EVENT_UNMAPPED") inRuns++;
  }
  return {
    basis: input.basis,
    files: input.files ?? [],
    runs: s.runs,
    events: s.events,
    conforming: share(s.conforming),
    deviating: share(s.deviating),
    unverified: share(s.unverified),
    instances: { checked: report.instances.length, deviating: deviatingInstances.length },
    unverifiedInstances: report.instances.filter(
      (i) => i.deviations.length === 0 && i.unverified.length > 0,
    ).length,
    deviatingInstances: deviatingInstances.slice(0, LISTED_INSTANCES),
    unread: { count: report.unmapped.count, inRuns, first: report.unmapped.first },
    classes: byClass(report),
    worst: worstRuns(report.runs),
    ok: s.ok,
  };
}

/** The verdict in one phrase; nothing checked is said as such, never as "0 of 0 conform". */
export function headline(op: OperationAudit): string {
  if (op.runs === 0 && op.instances.checked === 0) {
    return "✖ Nothing was checked: the run files hold no run and no process instance";
  }
  return `${op.ok ? "✔" : "✖"} ${String(op.conforming.count)} of ${String(op.runs)} run(s) conform (${op.conforming.percent})`;
}

/** A run's heading: its id, workflow, verdict and counts. */
export function runHeading(run: RunResult): string {
  const workflow = run.workflow ?? "no workflow matched";
  return `Run ${run.run} (${workflow}): ${run.verdict} — ${String(run.deviations.length)} deviation(s), ${String(run.unverified.length)} unverified part(s), ${String(run.events)} event(s)`;
}

/** The run's path as text: the nodes it executed, numbered in first-execution order. */
export function pathText(visited: readonly string[]): string {
  if (visited.length === 0) return "The run executed no node of the workflow.";
  return `Path: ${visited.map((id, i) => `(${String(i + 1)}) ${id}`).join(" → ")}`;
}

/** Why a run's path is not drawn, when it is not. */
export function pathNotDrawn(
  run: RunResult,
  reviewed: boolean,
  drawn: boolean,
): string | undefined {
  if (run.workflow === null) return "No approved workflow matches the run: its path is not drawn.";
  if (!reviewed) {
    return `This report does not review ${run.workflow}: the run's path is not drawn (the path above lists it).`;
  }
  if (!drawn)
    return `The graph of ${run.workflow} is over the drawing limit: the path above lists it.`;
  return undefined;
}
