/**
 * The rule contract every rule is written in, built-in or an organisation's own (modelled on
 * typescript-eslint's `RuleCreator` and bpmnlint): data (`meta`) plus a `check` over a shared,
 * read-only context (a plugin's rule is given a view that refuses writes: read-only.ts). Rules
 * report ids and `data`; the wording lives in `meta.messages`.
 */
import type { Severity } from "../model/index.js";

/**
 * What a rule governs: one agent workflow (its graph, resolved tools and delegates) or one BPMN
 * process (agent tasks, gates, paths).
 */
export type RuleScope = "workflow" | "process";

/** What a rule is: its stable code and how it is documented and worded. */
export interface RuleMeta {
  /**
   * Stable identifier, also the docs page name. A plugin's rules appear as `<plugin>/<code>`,
   * a policy pack's as `<pack>/<id>`.
   */
  readonly code: string;
  readonly defaultSeverity: Severity;
  /** One line: what the rule finds. */
  readonly description: string;
  /** Where the rule is documented: a path relative to the repository root, or a URL. */
  readonly docs: string;
  /**
   * Message templates by id; `{{name}}` is replaced by `data.name` (arrays are joined with ", ",
   * a dotted name reads into nested data). The `default` message is used when a report names
   * none; a report naming an id not listed here is an error of the rule.
   */
  readonly messages: Readonly<Record<string, string>> & { readonly default: string };
  /** What to do about it, also a template. */
  readonly remediation?: string;
  /** `workflow` when absent. */
  readonly scope?: RuleScope;
  /** JSON Schema (draft 2020-12) of the rule's options; options that fail it are a usage error. */
  readonly schema?: Readonly<Record<string, unknown>>;
}

/** What every report carries; each scope adds where the finding is. */
export interface ReportBase {
  readonly data: Readonly<Record<string, unknown>>;
  /** A key of `meta.messages`; `default` when absent. */
  readonly messageId?: string;
}

/** A rule: metadata and a synchronous check over the context `C` of its scope. */
export interface RuleDefinition<C> {
  readonly meta: RuleMeta;
  check(context: C): void;
}
