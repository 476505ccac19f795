/**
 * What an evaluation sets up from its options before it reads the process: the active rules,
 * the tool-effect mapping and the gate selectors (checked: a bad one is a `TypeError` naming
 * where), the rule set the
 * decision names, and the validator of resolved workflows.
 */
import type { Severity } from "../model/index.js";
import type { RuleSettings } from "../rules/index.js";
import {
  isPluginRule,
  optionsProblem,
  pluginDigest,
  pluginRules,
  splitSetting,
} from "../rules/internal.js";
import type { PresetName, Validator } from "../validate/index.js";
import { validatorWith } from "../validate/engine.js";
import type { ToolEffectsMapping } from "./camunda/index.js";
import { toolEffectsProblems } from "./camunda/index.js";
import type { CompiledGateOptions, GateOptions } from "./gate-options.js";
import type { GateSelector } from "./gate-select.js";
import { gateSelectorProblems } from "./gate-select.js";
import type { TaskResolvers } from "./resolve-tasks.js";
import type { RuleSet, RuleSetExtension } from "./rule-set.js";
import type { CompiledPack, Waiver } from "../policy/index.js";
import { applyWaivers, todayUtc } from "../policy/waive.js";
import { describeRuleSet } from "./rule-set.js";
import type { ActiveBpmnRule, BpmnRule } from "./rule.js";
import { BPMN_RULES } from "./rules/index.js";

const BUILT_IN: ReadonlySet<BpmnRule> = new Set(BPMN_RULES);

/**
 * The rules to run, at their severities and with their options; an unknown code, or options
 * that do not fit a rule's schema, is a `TypeError` naming the rule. Under the `strict` preset
 * agentflow's own rules that warn by default are errors, as the workflow rules are: each says
 * something is unproven (an unresolved agent or tool, an unmapped effect, an ungated level 4).
 * A plugin's or pack's rule keeps its own default, as in the workflow rules.
 */
export function activeRules(
  settings: RuleSettings = {},
  ruleSet: readonly BpmnRule[] = BPMN_RULES,
  preset: PresetName = "recommended",
): ActiveBpmnRule[] {
  const known = new Set(ruleSet.map((r) => r.meta.code));
  for (const code of Object.keys(settings)) {
    if (!known.has(code)) throw new TypeError(`evaluateGates: unknown BPMN rule '${code}'`);
  }
  return ruleSet.flatMap((rule) => {
    const code = rule.meta.code;
    const setting = Object.hasOwn(settings, code) ? settings[code] : undefined;
    const byDefault = rule.meta.defaultSeverity;
    const raised = preset === "strict" && byDefault === "warning" && BUILT_IN.has(rule);
    const [severity, options] = splitSetting(setting ?? (raised ? "error" : byDefault));
    const problem = optionsProblem(rule.meta.schema, options);
    if (problem !== undefined) throw new TypeError(`evaluateGates: rule '${code}': ${problem}`);
    return severity === "off" ? [] : [{ rule, severity: severity satisfies Severity, options }];
  });
}

/** What one evaluation sets up from its options, once, before it reads the process. */
export interface EvaluationSetup {
  readonly rules: readonly ActiveBpmnRule[];
  readonly packs: readonly CompiledPack[];
  /** The options' waivers, then the packs'. */
  readonly waivers: readonly Waiver[];
  readonly today: string;
  readonly ruleSet: RuleSet;
}

/**
 * The setup of `options`: a bad rule setting, plugin or waiver is an error here (a
 * `TypeError`), before any document.
 */
export function setupOf(options: CompiledGateOptions): EvaluationSetup {
  const packs = options.policies ?? [];
  const base = options.ruleSet ?? BPMN_RULES;
  const ruleSet = [
    ...base,
    ...(pluginRules(options.plugins ?? {}, "process") as BpmnRule[]),
    ...packs.flatMap((pack) => pack.processRules as readonly BpmnRule[]),
  ];
  const waivers = [...(options.waivers ?? []), ...packs.flatMap((pack) => pack.waivers)];
  const today = options.today ?? todayUtc();
  // Checked now, so that a malformed waiver or date, or a pack named as a plugin (whose waivers
  // would waive the plugin's rules), is said before the first document.
  const pluginNames = Object.keys(options.plugins ?? {});
  applyWaivers([], waivers, () => undefined, NO_SUBJECTS, today, packs, pluginNames);
  return {
    // A plugin's rule is given a read-only context and its reports are checked (rules/run.ts).
    rules: activeRules(options.rules, ruleSet, options.workflowValidation?.preset).map((active) =>
      isPluginRule(active.rule) ? { ...active, guarded: true } : active,
    ),
    packs,
    waivers,
    today,
    ruleSet: ruleSetOf(options, packs, waivers),
  };
}

const NO_SUBJECTS = { processes: new Map(), workflows: new Set<string>() };

/**
 * Whether a rule other than agentflow's own runs: only such rules read the view, whose names
 * and lanes are then read with the graph.
 */
export function readsView(rules: readonly ActiveBpmnRule[]): boolean {
  return rules.some(({ rule }) => !BUILT_IN.has(rule));
}

/** The options' tool-effect mapping, checked; `{}` when none is given. */
export function mappingOf(options: GateOptions): ToolEffectsMapping {
  const mapping = options.toolEffects ?? {};
  const problem = toolEffectsProblems(mapping)[0];
  if (problem !== undefined) throw new TypeError(`evaluateGates: ${problem}`);
  return mapping;
}

/** The options' lookup timeout, checked: a NaN or a negative bound would wait forever. */
export function timeoutOf(options: GateOptions): number | undefined {
  const ms = options.lookupTimeoutMs;
  if (ms === undefined) return undefined;
  if (typeof ms !== "number" || Number.isNaN(ms) || ms < 0) {
    throw new TypeError(
      `evaluateGates: lookupTimeoutMs must be a number of milliseconds ≥ 0 (or Infinity), got ${String(ms)}`,
    );
  }
  return ms;
}

/** The options' gate selectors, checked (a bad one is a `TypeError` naming where); `[]` when none. */
export function selectorsOf(options: GateOptions): readonly GateSelector[] {
  if (options.gates === undefined) return [];
  const problem = gateSelectorProblems(options.gates, "gates")[0];
  if (problem !== undefined) throw new TypeError(`evaluateGates: ${problem}`);
  return options.gates;
}

/** The plugins and policy packs of the options, pinned by their content. */
function extensionsOf(options: GateOptions, packs: readonly CompiledPack[]): RuleSetExtension[] {
  const plugins = Object.entries(options.plugins ?? {}).map(([name, plugin]) => ({
    kind: "plugin" as const,
    name,
    version: plugin.meta.version,
    sha256: pluginDigest(plugin),
  }));
  const policies = packs.map((pack) => ({
    kind: "policy" as const,
    name: pack.name,
    version: pack.version,
    sha256: pack.sha256,
  }));
  return [...plugins, ...policies];
}

/** The rule set of the options, with the defaults a run without options uses. */
export function ruleSetOf(
  options: CompiledGateOptions,
  packs: readonly CompiledPack[] = options.policies ?? [],
  waivers: readonly Waiver[] = [...(options.waivers ?? []), ...packs.flatMap((p) => p.waivers)],
): RuleSet {
  return describeRuleSet({
    preset: options.workflowValidation?.preset ?? "recommended",
    workflowRules: options.workflowValidation?.rules ?? {},
    bpmnRules: options.rules ?? {},
    camundaAgents: options.policy?.camundaAgents ?? "gate-required",
    ...(options.toolEffects === undefined ? {} : { toolEffects: options.toolEffects }),
    ...(options.gates === undefined ? {} : { gates: options.gates }),
    // A host's own predicate decides which nodes are gates: a digest must not hide that it ran.
    ...(options.isGate === undefined ? {} : { customGatePredicate: true }),
    extensions: extensionsOf(options, packs),
    waivers,
    extensionDefaults: Object.fromEntries(
      [
        ...pluginRules(options.plugins ?? {}, "process"),
        ...pluginRules(options.plugins ?? {}, "workflow"),
        ...packs.flatMap((pack) => pack.processRules),
      ].map((rule) => [rule.meta.code, rule.meta.defaultSeverity]),
    ),
  });
}

/**
 * The validator of resolved workflows, asking the same guarded lookups as the gate, so both
 * rest on one answer per ref.
 */
export function validatorFor(options: CompiledGateOptions, lookups: TaskResolvers): Validator {
  const resolvers = {
    ...(lookups.resolveTool === undefined ? {} : { resolveTool: lookups.resolveTool }),
    ...(lookups.resolveWorkflow === undefined ? {} : { resolveDelegate: lookups.resolveWorkflow }),
  };
  return validatorWith(
    {
      ...options.workflowValidation,
      ...(options.plugins === undefined ? {} : { plugins: options.plugins }),
      resolvers,
    },
    options.workflowValidation?.policies ?? [],
  );
}
