/**
 * How a configuration sets a rule: a severity, or a severity with options (as ESLint does).
 */
import type { SeveritySetting } from "../model/index.js";

/** A rule's configuration: a severity, or a severity with options. */
export type RuleSetting =
  SeveritySetting | readonly [SeveritySetting, Readonly<Record<string, unknown>>];

/** Severities (and options) by rule code. */
export type RuleSettings = Readonly<Record<string, RuleSetting>>;

/** The severity and options of a setting. */
export function splitSetting(
  setting: RuleSetting,
): [SeveritySetting, Readonly<Record<string, unknown>>] {
  return typeof setting === "string" ? [setting, {}] : [setting[0], setting[1]];
}
