/**
 * The rule contract (modelled on bpmnlint and typescript-eslint): a rule is data (`meta`) plus a
 * pure `check` over a shared, read-only context. Rules report ids and `data`; the wording lives
 * in each rule's `meta.messages` templates and is filled in by the engine.
 */
import type {
  AgentWorkflow,
  DiagnosticTarget,
  FlowGraph,
  Severity,
  SeveritySetting,
} from "../model/index.js";
import type { Facts } from "./facts.js";

/** What a rule is: its stable code and how it is documented and worded. */
export interface RuleMeta {
  /** Stable identifier, also the docs page name: `docs/rules/<code>.md`. */
  readonly code: string;
  readonly defaultSeverity: Severity;
  /** One line: what the rule finds. */
  readonly description: string;
  /** Where the rule is documented, relative to the repository root. */
  readonly docs: string;
  /**
   * Message templates by id; `{{name}}` is replaced by `data.name` (arrays are joined with
   * ", "). The `default` message is used when a report names none.
   */
  readonly messages: Readonly<Record<string, string>> & { readonly default: string };
  /** What to do about it, also a template. */
  readonly remediation?: string;
}

/** One finding as a rule reports it; the engine adds code, severity and wording. */
export interface Report {
  readonly target: DiagnosticTarget;
  /** JSON Pointer into the workflow document. */
  readonly path: string;
  readonly data: Readonly<Record<string, unknown>>;
  /** A key of `meta.messages`; `default` when absent. */
  readonly messageId?: string;
}

/** What a rule sees: the workflow, the shared graph and facts, its options, and `report`. */
export interface RuleContext {
  readonly workflow: AgentWorkflow;
  readonly graph: FlowGraph;
  /** Derived views computed once per validation and shared by all rules. */
  readonly facts: Facts;
  /** Options given for this rule (`rules: { CODE: ["error", options] }`), or `{}`. */
  readonly options: Readonly<Record<string, unknown>>;
  readonly report: (report: Report) => void;
}

/** A rule: metadata and a synchronous check (resolution happens before rules run). */
export interface Rule {
  readonly meta: RuleMeta;
  check(context: RuleContext): void;
}

/** A rule's configuration: a severity, or a severity with options. */
export type RuleSetting =
  SeveritySetting | readonly [SeveritySetting, Readonly<Record<string, unknown>>];

/** Severities (and options) by rule code. */
export type RuleSettings = Readonly<Record<string, RuleSetting>>;

/** Resolution of something a workflow references, as the rules see it. */
export type Resolution<T> =
  | { readonly status: "resolved"; readonly value: T }
  | { readonly status: "unknown" }
  | { readonly status: "no-resolver" }
  | { readonly status: "failed"; readonly error: string };

/** Keeps documents the workflow refers to; sync or async (a registry over HTTP). */
export interface Resolvers {
  /** A tool contract by `tool:<name>@x.y.z` (already normalised); `undefined` if unknown. */
  readonly resolveTool?: (ref: string) => unknown;
  /** A delegate agent workflow by `id@x.y.z`; `undefined` if unknown. */
  readonly resolveDelegate?: (ref: string) => unknown;
  /** A prompt by `prm:<name>@x.y.z`; any non-undefined value means it exists. */
  readonly resolvePrompt?: (ref: string) => unknown;
}

/** The built-in presets. */
export type PresetName = "recommended" | "strict" | "all";
