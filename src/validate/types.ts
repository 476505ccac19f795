/**
 * The rule contract (modelled on bpmnlint and typescript-eslint): a rule is data (`meta`) plus a
 * pure `check` over a shared, read-only context (a plugin's rule is given a view that refuses
 * writes, rules/read-only.ts). Rules report ids and `data`; the wording lives in each rule's
 * `meta.messages` templates and is filled in by the engine.
 */
import type { AutonomyAssessment } from "../autonomy/index.js";
import type {
  AgentWorkflow,
  AutonomyLevel,
  ConditionAnalysis,
  DiagnosticTarget,
  FlowGraph,
  RefParseResult,
  ResolvedShape,
  SchemaShape,
  ToolContract,
} from "../model/index.js";
import type {
  ReportBase,
  RuleDefinition,
  RuleMeta as KitRuleMeta,
  RuleSetting,
  RuleSettings,
} from "../rules/index.js";
import type { WorkflowView } from "../policy/index.js";

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

/** Everything resolved for one validation, keyed by canonical `id@x.y.z`. */
export interface ResolvedRefs {
  /**
   * The workflow's tool contracts and, when its delegates are judged (DELEGATE_INVALID), its
   * delegates' too: each rule looks up only the refs of the workflow it checks.
   */
  readonly tools: ReadonlyMap<string, Resolution<ToolContract>>;
  /** The workflow's prompts and, as for {@link ResolvedRefs.tools}, its delegates'. */
  readonly prompts: ReadonlyMap<string, Resolution<true>>;
  /** The workflow's delegates and, transitively, theirs (bounded by {@link MAX_DELEGATES}). */
  readonly delegates: ReadonlyMap<string, Resolution<AgentWorkflow>>;
}

/** One condition of a decision with its analysis. */
export interface DecisionCondition {
  /** The route label (`onTrue`, `cases/0`, ...). */
  readonly label: string;
  readonly text: string;
  /** JSON Pointer of the condition string. */
  readonly path: string;
  readonly analysis: ConditionAnalysis;
}

/**
 * Why a resolved delegate fails its own rules (docs/rules/DELEGATE_INVALID.md): the errors its
 * own validation gives, under the configuration of the workflow that delegates to it.
 */
export interface DelegateVerdict {
  /** Each code of the delegate's errors once, sorted; `DELEGATE_INVALID` for a failing delegate of its own. */
  readonly codes: readonly string[];
  /** How many errors the delegate's own validation gives. */
  readonly errors: number;
  /**
   * The nearest workflow down the delegation chain that fails rules of its own, not only
   * through its delegates: the delegate itself when it does.
   */
  readonly failing: string;
  /** The codes of {@link DelegateVerdict.failing}'s own errors, once each, sorted. */
  readonly failingCodes: readonly string[];
  /** How many delegations lie between the delegate and {@link DelegateVerdict.failing} (0: itself). */
  readonly depth: number;
}

/** The shared views; see the module comment. */
export interface Facts {
  readonly resolved: ResolvedRefs;
  readonly autonomy: () => AutonomyAssessment;
  /**
   * The level of {@link Facts.autonomy} alone, without its reasons, which list every node of a
   * workflow of loops: rules that only compare levels read this.
   */
  readonly autonomyLevel: () => AutonomyLevel;
  /** Conditions per node index (empty for llm/tool nodes). */
  readonly conditions: () => readonly (readonly DecisionCondition[])[];
  /** Parsed `promptRef` / `usesTool` per node index; `undefined` for other node types. */
  readonly nodeRefs: () => readonly (RefParseResult | undefined)[];
  /** Parsed `to` per edge index for delegate edges; `undefined` for other edges. */
  readonly delegateRefs: () => readonly (RefParseResult | undefined)[];
  /**
   * The resolved delegates, direct and transitive, that fail their own rules, by canonical
   * `id@x.y.z`: judged once per validation, on first read, and only when DELEGATE_INVALID runs
   * (the map is empty otherwise).
   */
  readonly delegateVerdicts: () => ReadonlyMap<string, DelegateVerdict>;
  /** A shape of the workflow resolved against its `types`, by JSON Pointer; memoised. */
  readonly shape: (shape: SchemaShape, path: string) => ResolvedShape;
}
