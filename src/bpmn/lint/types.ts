/**
 * The part of bpmnlint's contract the plugin implements, typed here because bpmnlint's own
 * declarations (`bpmnlint/lib/types.d.ts`) are `any` throughout and agentflow does not depend on
 * bpmnlint at run time: a host brings its own bpmnlint (CLI, bpmn-js-bpmnlint, a bundler).
 */
import type { Severity } from "../../model/index.js";
import type { CompiledPack, Waiver } from "../../policy/index.js";
import type { ModdleObject } from "../moddle.js";
import type { UnknownLevelPolicy } from "../types.js";
import type { ToolEffectsMapping } from "../camunda/index.js";
import type { GateSelector } from "../gate-select.js";

/** A path from the reported element to the property concerned (`["extensionElements", "values", 0]`). */
export type BpmnlintPath = readonly (string | number)[];

/** What a bpmnlint rule reports to: one call per finding. */
export interface BpmnlintReporter {
  report(id: string, message: string, path?: BpmnlintPath): void;
}

/**
 * A rule as bpmnlint runs it: `check` is called on every element it traverses, root first, and
 * returning `false` stops the descent into that element's children.
 */
export interface BpmnlintRule {
  readonly meta: { readonly documentation: { readonly url: string } };
  check(element: ModdleObject, reporter: BpmnlintReporter): boolean | undefined;
}

/**
 * One entry of a rule's `policies`: a pack as plain data (as a browser config bundles it), a
 * pack compiled by `readPolicyPack` or `compilePolicyPack`, or the path of a YAML or JSON pack
 * file, read relative to the working directory (Node.js only: bpmnlint's CLI).
 */
export type PolicyPackEntry = string | CompiledPack | Readonly<Record<string, unknown>>;

/**
 * The options a rule takes from a bpmnlint configuration (`["error", { ... }]` in `.bpmnlintrc`).
 * JSON only, so functions (resolvers, gate predicates) go through {@link createRules} instead.
 */
export interface AgentflowRuleConfig {
  /** How Camunda 8 AI agents (of unknown autonomy level) are governed; `gate-required` by default. */
  readonly camundaAgents?: UnknownLevelPolicy;
  /** The organisation's approval gates, by selector (as `gates` in agentflow.config.json). */
  readonly gates?: readonly GateSelector[];
  /** The organisation's Camunda tool effects (as `toolEffects` in agentflow.config.json). */
  readonly toolEffects?: ToolEffectsMapping;
  /** Policy packs whose rules run with the gates (`policy` reports their findings). */
  readonly policies?: readonly PolicyPackEntry[];
  /** Waivers (with those the packs carry), as `waivers` in agentflow.config.json. */
  readonly waivers?: readonly Waiver[];
  /** The day waivers are judged on, `YYYY-MM-DD`; today (UTC) by default. */
  readonly today?: string;
  /** `policy` only: the pack severities it reports; all three by default. */
  readonly severities?: readonly Severity[];
}

/** A bpmnlint rule factory: bpmnlint calls it once per configured rule with the rule's options. */
export type BpmnlintRuleFactory = (config?: AgentflowRuleConfig) => BpmnlintRule;

/** A bpmnlint severity as written in a configuration. */
export type BpmnlintCategory = "error" | "warn" | "info" | "off";

/** A bpmnlint configuration, as `configs.recommended` and `.bpmnlintrc` files are. */
export interface BpmnlintConfig {
  readonly extends?: string | readonly string[];
  readonly rules: Readonly<Record<string, BpmnlintCategory>>;
}
