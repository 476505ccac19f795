/**
 * The one loop that runs rules, workflow and process rules alike: each active rule's check over
 * its context, each report worded from the rule's own templates, and a rule that throws (or
 * names a message it does not define) replaced by a `RULE_CRASHED` error — a check that could
 * not run must not pass silently. A rule agentflow did not write (a plugin's) is guarded: it
 * reads a read-only view of the context (read-only.ts), and each of its reports is checked and
 * copied when it is made (report-data.ts, report-shape.ts), so that it can neither change what
 * the other rules and the verdict read nor hand an output something it cannot write.
 */
import type { Diagnostic, Severity } from "../model/index.js";
import { interpolate } from "./message.js";
import type { ReadOnlyViews } from "./read-only.js";
import { readOnlyViews } from "./read-only.js";
import { copyReportData, describeValue } from "./report-data.js";
import type { RawReport } from "./report-shape.js";
import { BadReport } from "./report-shape.js";
import type { ReportBase, RuleDefinition, RuleMeta } from "./types.js";

/** Code of the diagnostic that replaces a rule which threw. */
export const RULE_CRASHED = "RULE_CRASHED";

/** A rule with the severity and options it runs with. */
export interface ActiveRule<C> {
  readonly rule: RuleDefinition<C>;
  readonly severity: Severity;
  readonly options: Readonly<Record<string, unknown>>;
  /**
   * True for a plugin's rule, code agentflow did not write: it is given a
   * read-only view of the context, and its reports are checked and copied when made.
   */
  readonly guarded?: boolean;
}

/** What differs between scopes: the context, where a finding is, and what a crash targets. */
export interface RunHooks<C, R extends ReportBase> {
  /** The context one rule sees around its `report` and options. */
  context(report: (report: R) => void, options: Readonly<Record<string, unknown>>): C;
  /** The diagnostic of one report, given its worded message. */
  diagnostic(meta: RuleMeta, severity: Severity, report: R, message: string): Diagnostic;
  /** The diagnostic that replaces a rule which could not run (`detail` says why). */
  crashed(meta: RuleMeta, detail: string): Diagnostic;
  /**
   * A guarded rule's report read into agentflow's own object of this scope, its `data` already
   * checked and copied; throws a `BadReport` saying what is wrong. Taken as it is when absent.
   */
  accept?(report: RawReport, data: Readonly<Record<string, unknown>>): R;
  /** Functions of the context that change what they are called on, refused to guarded rules. */
  mutating?(fn: unknown): boolean;
}

/** The template a report names, or a {@link BadReport} error: the rule's own mistake. */
function templateOf(meta: RuleMeta, messageId: string | undefined): string {
  if (messageId === undefined) return meta.messages.default;
  if (Object.hasOwn(meta.messages, messageId)) return meta.messages[messageId] ?? "";
  throw new BadReport(
    `it reported messageId '${messageId}', which its meta.messages does not define (defined: ${Object.keys(meta.messages).join(", ")})`,
  );
}

/** A guarded rule's report, checked and copied: what it says, or a `BadReport`. */
function checkedReport<R extends ReportBase>(
  raw: unknown,
  accept: ((report: RawReport, data: Readonly<Record<string, unknown>>) => R) | undefined,
): R {
  if (typeof raw !== "object" || raw === null) {
    throw new BadReport(`it reported ${describeValue(raw)}, not a report object`);
  }
  const report = raw as RawReport;
  const messageId = report.messageId;
  if (messageId !== undefined && typeof messageId !== "string") {
    throw new BadReport(`its report's messageId must be a string, not ${describeValue(messageId)}`);
  }
  const data = copyReportData(report.data);
  if (typeof data === "string") throw new BadReport(data);
  const accepted =
    accept === undefined ? ({ ...report, data } as unknown as R) : accept(report, data);
  return messageId === undefined ? accepted : { ...accepted, messageId };
}

/** The crash detail of what a guarded rule threw, with a hint where one helps. */
function detailOf(error: unknown, guarded: boolean): string {
  const message = error instanceof Error ? error.message : String(error);
  // structuredClone refuses a proxy: a rule copying what it is given must copy it otherwise.
  if (guarded && error instanceof Error && error.name === "DataCloneError") {
    return `${message} (what a rule is given is a read-only view, which structuredClone cannot copy: copy it with JSON.parse(JSON.stringify(…)) or spread it)`;
  }
  return message;
}

/** Runs `active` in order into diagnostics. */
export function runRules<C, R extends ReportBase>(
  active: readonly ActiveRule<C>[],
  hooks: RunHooks<C, R>,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  // One set of views per run, made when a guarded rule first runs: nothing can be written
  // through them, so the guarded rules share them.
  let views: ReadOnlyViews | undefined;
  for (const { rule, severity, options, guarded = false } of active) {
    const { meta } = rule;
    // Kept apart from the throw: a rule may catch what its own `report` threw.
    let misreport: string | undefined;
    // Closed when the check returns: a report made later (after an `await`) would land in a
    // verdict already given, so it is dropped; the check itself is then a crash (below).
    let open = true;
    const report = (given: R): void => {
      if (!open) return;
      let r: R;
      let template: string;
      try {
        r = guarded ? checkedReport(given, hooks.accept?.bind(hooks)) : given;
        template = templateOf(meta, r.messageId);
      } catch (error) {
        misreport ??= error instanceof Error ? error.message : String(error);
        throw error;
      }
      out.push(hooks.diagnostic(meta, severity, r, interpolate(template, r.data)));
    };
    try {
      let context = hooks.context(report, options);
      if (guarded) {
        views ??= readOnlyViews(hooks.mutating?.bind(hooks));
        context = views.view(context, "context");
      }
      // Typed `void`, but a plugin's `async check` compiles as one: what it returns is looked at.
      const returned = (rule as { check(context: C): unknown }).check(context);
      open = false;
      if (isThenable(returned)) {
        settleQuietly(returned);
        out.push(hooks.crashed(meta, ASYNC_CHECK));
      } else if (misreport !== undefined) out.push(hooks.crashed(meta, misreport));
    } catch (error) {
      open = false;
      out.push(hooks.crashed(meta, misreport ?? detailOf(error, guarded)));
    }
  }
  return out;
}

/** Why a check that returned a promise counts as one that did not run. */
const ASYNC_CHECK =
  "its check returned a promise: a rule's check must be synchronous, and what it finds after an await is never judged";

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/** Handles the promise's rejection, so that a failing async check cannot crash the process. */
function settleQuietly(value: PromiseLike<unknown>): void {
  try {
    // `Promise.resolve` adopts any thenable; a `then` that throws becomes a rejection.
    Promise.resolve(value).catch(() => undefined);
  } catch {
    // A thenable whose `then` getter throws: nothing is pending, so nothing can reject later.
  }
}
