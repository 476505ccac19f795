/**
 * The built-in presets, as data. `recommended` runs every rule at its default severity;
 * `strict` raises every warning to an error (for platforms that must block on anything unproven:
 * unresolved references, unsimulable conditions, level-5 agents); `all` is `recommended` today
 * and will also switch on any rule that is off by default.
 */
import type { Rule, RuleSettings } from "./types.js";

/**
 * The settings of a preset for a given rule list.
 *
 * @example
 * ```ts
 * import { presetSettings, RULES } from "agentflow/validate";
 *
 * presetSettings("recommended", RULES).BUDGET_MISSING; // → "warning"
 * presetSettings("strict", RULES).BUDGET_MISSING; // → "error"
 * ```
 */
export function presetSettings(
  name: "recommended" | "strict" | "all",
  rules: readonly Rule[],
): RuleSettings {
  const settings: Record<string, "error" | "warning" | "info"> = {};
  for (const rule of rules) {
    const severity = rule.meta.defaultSeverity;
    Object.defineProperty(settings, rule.meta.code, {
      value: name === "strict" && severity === "warning" ? "error" : severity,
      enumerable: true,
    });
  }
  return settings;
}

/** The preset names, for CLIs and option checks. */
export const PRESET_NAMES = ["recommended", "strict", "all"] as const;
