/**
 * The one loop that runs rules, workflow and process rules alike: each active rule's check over
 * its context, each report worded from the rule's own templates, and a rule that throws (or
 * names a message it does not define) replaced by a `RULE_CRASHED` error — a check that could
 * not run must not pass silently.
 */
import type { Diagnostic, Severity } from "../model/index.js";
import { interpolate } from "./message.js";
import type { ReportBase, RuleDefinition, RuleMeta } from "./types.js";

/** Code of the diagnostic that replaces a rule which threw. */
export const RULE_CRASHED = "RULE_CRASHED";

/** A rule with the severity and options it runs with. */
export interface ActiveRule<C> {
  readonly rule: RuleDefinition<C>;
  readonly severity: Severity;
  readonly options: Readonly<Record<string, unknown>>;
}

/** What differs between scopes: the context, where a finding is, and what a crash targets. */
export interface RunHooks<C, R extends ReportBase> {
  /** The context one rule sees around its `report` and options. */
  context(report: (report: R) => void, options: Readonly<Record<string, unknown>>): C;
  /** The diagnostic of one report, given its worded message. */
  diagnostic(meta: RuleMeta, severity: Severity, report: R, message: string): Diagnostic;
  /** The diagnostic that replaces a rule which could not run (`detail` says why). */
  crashed(meta: RuleMeta, detail: string): Diagnostic;
}

/** A report that names a message its rule does not define: the rule's own mistake. */
class UnknownMessageId extends Error {}

/** The template a report names, or an {@link UnknownMessageId} error. */
function templateOf(meta: RuleMeta, messageId: string | undefined): string {
  if (messageId === undefined) return meta.messages.default;
  if (Object.hasOwn(meta.messages, messageId)) return meta.messages[messageId] ?? "";
  throw new UnknownMessageId(
    `it reported messageId '${messageId}', which its meta.messages does not define (defined: ${Object.keys(meta.messages).join(", ")})`,
  );
}

/** Runs `active` in order into diagnostics. */
export function runRules<C, R extends ReportBase>(
  active: readonly ActiveRule<C>[],
  hooks: RunHooks<C, R>,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const { rule, severity, options } of active) {
    const { meta } = rule;
    // Kept apart from the throw: a rule may catch what its own `report` threw.
    let misreport: string | undefined;
    // Closed when the check returns: a report made later (after an `await`) would land in a
    // verdict already given, so it is dropped; the check itself is then a crash (below).
    let open = true;
    const report = (r: R): void => {
      if (!open) return;
      let template: string;
      try {
        template = templateOf(meta, r.messageId);
      } catch (error) {
        misreport ??= (error as Error).message;
        throw error;
      }
      out.push(hooks.diagnostic(meta, severity, r, interpolate(template, r.data)));
    };
    try {
      // Typed `void`, but a plugin's `async check` compiles as one: what it returns is looked at.
      const returned = (rule as { check(context: C): unknown }).check(
        hooks.context(report, options),
      );
      open = false;
      if (isThenable(returned)) {
        settleQuietly(returned);
        out.push(hooks.crashed(meta, ASYNC_CHECK));
      } else if (misreport !== undefined) out.push(hooks.crashed(meta, misreport));
    } catch (error) {
      open = false;
      const detail = misreport ?? (error instanceof Error ? error.message : String(error));
      out.push(hooks.crashed(meta, detail));
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
