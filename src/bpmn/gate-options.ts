/**
 * The options of a gate evaluation, apart from the evaluation so that its setup (which reads
 * them) and the bpmnlint plugin (which passes them on) need not import the evaluator.
 */
import type { Plugin, RuleSettings } from "../rules/index.js";
import type { CompiledPack, Waiver } from "../policy/index.js";
import type { PolicyInput } from "../validate/policies.js";
import type { ValidatorConfig } from "../validate/index.js";
import type { GatePredicate } from "./analysis.js";
import type { TaskResolvers } from "./resolve-tasks.js";
import type { BpmnRule } from "./rule.js";
import type { UnknownLevelPolicy } from "./types.js";
import type { ToolEffectsMapping } from "./camunda/index.js";
import type { GateSelector } from "./gate-select.js";

/** Options of {@link evaluateGates}. */
export interface GateOptions extends TaskResolvers {
  /** Which flow nodes are approval gates; by default those marked `<btv:gate/>`. */
  readonly isGate?: GatePredicate;
  readonly policy?: {
    /** How agents of unknown level (Camunda 8 AI agents) are governed; `gate-required` by default. */
    readonly camundaAgents?: UnknownLevelPolicy;
  };
  /** Settings by BPMN rule code: a severity (`off` silences a rule) or `[severity, options]`. */
  readonly rules?: RuleSettings;
  /**
   * The process rules to run; the built-in registry by default (a tester runs one rule alone).
   * Plugins and policy packs add theirs to it.
   */
  readonly ruleSet?: readonly BpmnRule[];
  /**
   * Plugins by the name their rules are prefixed with: their process rules run after
   * `ruleSet`, their workflow rules on every resolved workflow (docs/policies.md).
   */
  readonly plugins?: Readonly<Record<string, Plugin>>;
  /**
   * Policy packs (compiled, or plain data): every rule of a pack runs on the process, deciding
   * its agent tasks, the process, and its agents' workflows and tools (docs/policies.md).
   */
  readonly policies?: readonly PolicyInput[];
  /**
   * Waivers (with those the packs carry): a covered finding stays, marked `waived`, and no
   * longer blocks; an expired waiver, or one whose element is gone, is a finding itself.
   */
  readonly waivers?: readonly Waiver[];
  /** The day waivers are judged on, `YYYY-MM-DD`; today (UTC) by default. */
  readonly today?: string;
  /** How resolved workflows are validated (preset, rule settings); resolvers are added here. */
  readonly workflowValidation?: Omit<ValidatorConfig, "resolvers">;
  /**
   * Aborting it fails every lookup still pending (async only): their documents count as
   * unresolved, so the decision is the strictest, never a hang.
   */
  readonly signal?: AbortSignal;
  /**
   * Milliseconds an async lookup may take before it counts as failed (30,000 by default;
   * `0` or `Infinity`: no bound but the signal).
   */
  readonly lookupTimeoutMs?: number;
  /**
   * The organisation's effects of Camunda tools, by job type or element template id
   * (docs/bpmn.md); checked first, a bad mapping is a `TypeError` naming the key.
   */
  readonly toolEffects?: ToolEffectsMapping;
  /**
   * The organisation's approval gates as its users draw them, without touching the BPMN: by
   * candidate group, element template, `zeebe:property` or id (`GateSelector`); a flow node any
   * selector chooses is a gate, as one `isGate` accepts (or marked `<btv:gate/>`) is.
   */
  readonly gates?: readonly GateSelector[];
}

/**
 * {@link GateOptions} whose packs are compiled, the process's and the workflow validation's: what
 * the evaluation itself reads. The public functions compile plain packs into it
 * (`compiledOptions`); the modeller's engine compiles them with a compiler it loads only when a
 * page sets packs, so a page without packs fetches no FEEL compiler.
 */
export type CompiledGateOptions = Omit<GateOptions, "policies" | "workflowValidation"> & {
  readonly policies?: readonly CompiledPack[];
  readonly workflowValidation?: Omit<ValidatorConfig, "resolvers" | "policies"> & {
    readonly policies?: readonly CompiledPack[];
  };
};
