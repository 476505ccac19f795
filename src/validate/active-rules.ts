/**
 * The rules a validator's config runs, at their severities and with their options: its rule set
 * (the built-in registry by default), then its plugins' and its packs' workflow rules, under its
 * preset and settings. A setting for an unknown rule, or options that do not fit a rule's schema,
 * is a `TypeError`: API misuse, said when the validator is built.
 */
import type { CompiledPack } from "../policy/index.js";
import type { ActiveRule as KitActiveRule } from "../rules/internal.js";
import { isPluginRule, optionsProblem, pluginRules, splitSetting } from "../rules/internal.js";
import type { Plugin } from "../rules/index.js";
import { presetSettings } from "./presets.js";
import { RULES } from "./rules/index.js";
import type { PresetName, Rule, RuleContext, RuleSettings } from "./types.js";

/** A rule that runs, at its severity and with its options. */
export type ActiveRule = KitActiveRule<RuleContext>;

/** What of a validator's config chooses its rules (`ValidatorConfig`, engine.ts). */
export interface RuleChoice {
  readonly preset?: PresetName;
  readonly rules?: RuleSettings;
  readonly ruleSet?: readonly Rule[];
  readonly plugins?: Readonly<Record<string, Plugin>>;
}

/** The rules a config runs: its rule set, then its plugins' and its packs' workflow rules. */
function ruleSetOf(config: RuleChoice, packs: readonly CompiledPack[]): readonly Rule[] {
  const base = config.ruleSet ?? RULES;
  if (config.plugins === undefined && packs.length === 0) return base;
  return [
    ...base,
    ...(pluginRules(config.plugins ?? {}, "workflow") as Rule[]),
    ...packs.flatMap((pack) => pack.workflowRules as readonly Rule[]),
  ];
}

/** The active rules of `config` with its compiled `packs`, in run order. */
export function activate(config: RuleChoice, packs: readonly CompiledPack[]): ActiveRule[] {
  const ruleSet = ruleSetOf(config, packs);
  const base = presetSettings(config.preset ?? "recommended", ruleSet);
  const known = new Set(ruleSet.map((r) => r.meta.code));
  for (const code of Object.keys(config.rules ?? {})) {
    if (!known.has(code)) throw new TypeError(`createValidator: unknown rule '${code}'`);
  }
  const out: ActiveRule[] = [];
  for (const rule of ruleSet) {
    const code = rule.meta.code;
    const own =
      config.rules !== undefined && Object.hasOwn(config.rules, code)
        ? config.rules[code]
        : undefined;
    const [severity, options] = splitSetting(own ?? base[code] ?? rule.meta.defaultSeverity);
    const problem = optionsProblem(rule.meta.schema, options);
    if (problem !== undefined) throw new TypeError(`createValidator: rule '${code}': ${problem}`);
    if (severity === "off") continue;
    // A plugin's rule is given a read-only context and its reports are checked (rules/run.ts).
    out.push(
      isPluginRule(rule) ? { rule, severity, options, guarded: true } : { rule, severity, options },
    );
  }
  return out;
}
