/**
 * The rule tables of a report: every rule that ran (passed ones too), the organisation's plugin
 * and pack rules among them, and a row for every other code a finding has (a waiver that
 * expired, a rule that crashed), so that no finding of the verdict is left out of the report.
 * A rule passes when it has no finding that counts: a waived finding is listed, with its
 * waiver, under a rule that passed.
 */
import type { RuleSetExtension, RuleSetSettings } from "../../bpmn/index.js";
import { BPMN_RULES } from "../../bpmn/index.js";
import type { Diagnostic, Severity } from "../../model/index.js";
import type { CompiledPack, Waiver } from "../../policy/index.js";
import { WAIVER_FINDINGS } from "../../policy/index.js";
import type { Plugin, RuleMeta } from "../../rules/index.js";
import { pluginDigest, pluginRules, splitSetting } from "../../rules/internal.js";
import type { RuleResult } from "./types.js";

/** The organisation's policy a report runs with (docs/policies.md). */
export interface AuditPolicyOptions {
  /** Plugins by the name their rules are prefixed with. */
  readonly plugins?: Readonly<Record<string, Plugin>>;
  /** Compiled policy packs (`readPolicyPack`, `compilePolicyPack`). */
  readonly policies?: readonly CompiledPack[];
  /** Waivers besides the packs' own. */
  readonly waivers?: readonly Waiver[];
  /** `YYYY-MM-DD`: the day waivers are judged on (default: the UTC date now). */
  readonly today?: string;
  /**
   * Each plugin and pack as the rule set pins it; by default a plugin by `pluginDigest` and a
   * pack by its `sha256` (the CLI pins a plugin by the digest of its whole module graph, every
   * file its code can load, instead: `src/cli/plugin-graph.ts`).
   */
  readonly extensions?: readonly RuleSetExtension[];
}

/** A rule as a table row is made from. */
export interface RuleRow {
  readonly code: string;
  readonly description: string;
  readonly severity: Severity;
}

/** The plugins and packs as the rule set names them, sorted by name. */
export function pinnedExtensions(options: AuditPolicyOptions): readonly RuleSetExtension[] {
  if (options.extensions !== undefined) return options.extensions;
  const plugins = Object.entries(options.plugins ?? {}).map(([name, plugin]) => ({
    kind: "plugin" as const,
    name,
    version: plugin.meta.version,
    sha256: pluginDigest(plugin),
  }));
  const packs = (options.policies ?? []).map((p) => ({
    kind: "policy" as const,
    name: p.name,
    version: p.version,
    sha256: p.sha256,
  }));
  return [...plugins, ...packs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The process rules that ran, each at its severity: the built-ins, the plugins', the packs'. */
export function processRuleRows(
  options: AuditPolicyOptions,
  settings: RuleSetSettings["bpmnRules"],
): RuleRow[] {
  const metas: RuleMeta[] = [
    ...BPMN_RULES.map((r) => r.meta),
    ...pluginRules(options.plugins ?? {}, "process").map((r) => r.meta),
    ...(options.policies ?? []).flatMap((p) => p.processRules.map((r) => r.meta)),
  ];
  // Each rule at the severity it ran at; a rule set to off did not run, so it is not listed.
  return metas.flatMap(({ code, description, defaultSeverity }) => {
    const given = Object.hasOwn(settings, code) ? settings[code] : undefined;
    const severity = given === undefined ? defaultSeverity : splitSetting(given)[0];
    return severity === "off" ? [] : [{ code, description, severity }];
  });
}

/** What a code no rule row names is, for its own row. */
function otherRow(code: string, found: readonly Diagnostic[]): RuleRow {
  const meta = Object.hasOwn(WAIVER_FINDINGS, code) ? WAIVER_FINDINGS[code] : undefined;
  const worst = found.some((d) => d.severity === "error")
    ? "error"
    : found.some((d) => d.severity === "warning")
      ? "warning"
      : "info";
  return {
    code,
    description: meta?.description ?? `Findings reported as ${code}`,
    severity: worst,
  };
}

/** One result per rule, then one per other code found, in the order first found. */
export function ruleResults(
  rules: readonly RuleRow[],
  diagnostics: readonly Diagnostic[],
): RuleResult[] {
  // Grouped once: 200,000 findings under 40 rules must not be scanned 40 times.
  const byCode = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) {
    const list = byCode.get(d.code);
    if (list === undefined) byCode.set(d.code, [d]);
    else list.push(d);
  }
  const named = new Set(rules.map((r) => r.code));
  const others = [...byCode].filter(([code]) => !named.has(code));
  return [...rules, ...others.map(([code, found]) => otherRow(code, found))].map((rule) => {
    const own = byCode.get(rule.code) ?? [];
    return { ...rule, passed: own.every((d) => d.waived !== undefined), diagnostics: own };
  });
}

/** A rule's result cell: passed (its waived findings counted), or its findings. */
export function resultText(r: RuleResult): string {
  const waived = r.diagnostics.filter((d) => d.waived !== undefined).length;
  if (r.passed) return waived === 0 ? "✔ passed" : `✔ passed, ${String(waived)} waived`;
  const more = waived === 0 ? "" : `, ${String(waived)} waived`;
  return `✖ ${String(r.diagnostics.length - waived)} finding(s)${more}`;
}
