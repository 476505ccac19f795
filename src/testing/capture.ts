/**
 * What a rule reported, seen from inside the run: a diagnostic does not carry the `messageId`
 * its rule reported, so the tester runs the rule through a wrapper whose `report` records each
 * report before passing it on. A diagnostic carries its report's `data` object as it is, which
 * ties the two together.
 */
import type { Diagnostic } from "../model/index.js";
import type { AnyRule, ReportBase, RuleDefinition, RuleMeta } from "../rules/index.js";
import { interpolate } from "../rules/internal.js";

/** The reports of one run of a rule, by their `data` object. */
export class ReportLog {
  readonly #byData = new Map<object, string[]>();

  /** Records one report (its `messageId`, `default` when it names none). */
  record(report: ReportBase): void {
    const data: unknown = report.data;
    if (typeof data !== "object" || data === null) return;
    const ids = this.#byData.get(data);
    const id = report.messageId ?? "default";
    if (ids === undefined) this.#byData.set(data, [id]);
    else ids.push(id);
  }

  /** True when `diagnostic` came from the rule's check (not, say, from reading the XML). */
  fromCheck(diagnostic: Diagnostic): boolean {
    return this.#byData.has(diagnostic.data);
  }

  /**
   * The messageIds `diagnostic` may have been worded from: the one its report named, or, for a
   * finding made outside the check (`BPMN_PARSE` from the reader), each id whose template gives
   * its message. Empty when none can be told.
   */
  messageIdsOf(meta: RuleMeta, diagnostic: Diagnostic): readonly string[] {
    const reported = [...new Set(this.#byData.get(diagnostic.data) ?? [])];
    if (reported.length === 1) return reported;
    const candidates = reported.length > 0 ? reported : Object.keys(meta.messages);
    return candidates.filter((id) => {
      const template = Object.hasOwn(meta.messages, id) ? meta.messages[id] : undefined;
      return (
        template !== undefined && interpolate(template, diagnostic.data) === diagnostic.message
      );
    });
  }
}

/** A rule run through a recording `report`, and what it recorded. */
export interface CapturedRule {
  readonly rule: RuleDefinition<object>;
  readonly log: ReportLog;
}

/**
 * The context the rule sees: the engine's own, with `report` recording first. A view, not a
 * copy, so getters and methods of the context keep working; its target is a fresh object, so
 * a frozen context does not forbid answering another `report`.
 */
function recordingView(context: object, log: ReportLog): object {
  const original: unknown = Reflect.get(context, "report");
  const report = (r: ReportBase): void => {
    log.record(r);
    if (typeof original === "function") Reflect.apply(original, context, [r]);
  };
  return new Proxy(
    {},
    {
      get: (_target, key) =>
        key === "report" ? report : (Reflect.get(context, key, context) as unknown),
      has: (_target, key) => Reflect.has(context, key),
      ownKeys: () => Reflect.ownKeys(context),
      getOwnPropertyDescriptor(_target, key) {
        if (key === "report") {
          return { value: report, writable: false, enumerable: true, configurable: true };
        }
        const own = Reflect.getOwnPropertyDescriptor(context, key);
        return own === undefined ? undefined : { ...own, configurable: true };
      },
    },
  );
}

/** `rule` with its reports recorded in a log of its own (one per run). */
export function capturing(rule: AnyRule): CapturedRule {
  const log = new ReportLog();
  const inner = rule as RuleDefinition<object>;
  return {
    log,
    rule: {
      meta: rule.meta,
      check(context) {
        inner.check(recordingView(context, log));
      },
    },
  };
}

/** The `{{name}}` placeholders of a template, trimmed as the interpolation reads them. */
function placeholders(template: string): string[] {
  const names: string[] = [];
  let i = 0;
  for (;;) {
    const open = template.indexOf("{{", i);
    if (open < 0) return names;
    const close = template.indexOf("}}", open + 2);
    if (close < 0) return names;
    names.push(template.slice(open + 2, close).trim());
    i = close + 2;
  }
}

/** True when the interpolation finds a value for `name` in `data` (a dotted name reads into it). */
function resolves(data: Readonly<Record<string, unknown>>, name: string): boolean {
  if (Object.hasOwn(data, name)) return true;
  if (!name.includes(".")) return false;
  let value: unknown = data;
  for (const key of name.split(".")) {
    if (typeof value !== "object" || value === null || !Object.hasOwn(value, key)) return false;
    value = (value as Readonly<Record<string, unknown>>)[key];
  }
  return true;
}

/** The placeholders of `template` the finding's data has no value for. */
export function unfilled(template: string, data: Readonly<Record<string, unknown>>): string[] {
  return placeholders(template).filter((name) => !resolves(data, name));
}
