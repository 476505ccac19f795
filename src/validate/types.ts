/**
 * The rule contract (modelled on bpmnlint and typescript-eslint): a rule is data (`meta`) plus a
 * pure `check` over a shared, read-only context. Rules report ids and `data`; the wording lives
 * in each rule's `meta.messages` templates and is filled in by the engine.
 */
import type { AgentWorkflow, DiagnosticTarget, FlowGraph } from "../model/index.js";
import type {
  ReportBase,
  RuleDefinition,
  RuleMeta as KitRuleMeta,
  RuleSetting,
  RuleSettings,
} from "../rules/index.js";
import type { WorkflowView } from "../policy/index.js";
import type { Facts } from "./facts.js";

/** What a rule is: its stable code and how it is documented and worded (the kit's meta). */
export type RuleMeta = KitRuleMeta;

/** One finding as a rule reports it; the engine adds code, severity and wording. */
export interface Report extends ReportBase {
  readonly target: DiagnosticTarget;
  /** JSON Pointer into the workflow document. */
  readonly path: string;
}

/** What a rule sees: the workflow, the shared graph and facts, its options, and `report`. */
export interface RuleContext {
  readonly workflow: AgentWorkflow;
  readonly graph: FlowGraph;
  /** Derived views computed once per validation and shared by all rules. */
  readonly facts: Facts;
  /** Options given for this rule (`rules: { CODE: ["error", options] }`), or `{}`. */
  readonly options: Readonly<Record<string, unknown>>;
  /**
   * The workflow as the policy fact model has it (docs/policies.md): its facts and each tool
   * call with what its contract says. Built on first read, for plugin rules and policy packs.
   */
  readonly view: WorkflowView;
  readonly report: (report: Report) => void;
}

/**
 * A workflow rule: metadata and a synchronous check (resolution happens before rules run),
 * made with `defineRule` from the rule kit.
 */
export type Rule = RuleDefinition<RuleContext>;

export type { RuleSetting, RuleSettings };

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
