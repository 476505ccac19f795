/**
 * The plugin's shareable configuration and the entries that let bpmnlint's `StaticResolver`
 * (bpmn-js, bundles) resolve `plugin:agentflow/recommended` without Node's module resolution.
 */
import type { Severity } from "../../model/index.js";
import { BPMN_RULES } from "../rules/index.js";
import type { AgentflowRules } from "./rules.js";
import { AGENTFLOW_RULE_NAMES, createRules, PLUGIN_RULE_NAMES, ruleCode } from "./rules.js";
import type { BpmnlintCategory, BpmnlintConfig, BpmnlintRuleFactory } from "./types.js";

/** The package name bpmnlint looks the plugin up under (`plugin:agentflow/...`). */
export const PLUGIN_PACKAGE = "bpmnlint-plugin-agentflow";

const CATEGORY: Readonly<Record<Severity, BpmnlintCategory>> = {
  error: "error",
  warning: "warn",
  info: "info",
};

/**
 * Each gate rule at its BPMN rule's default severity, so lint and `agentflow gate` agree.
 * `policy` and `waived` are left out: they need the packs or waivers in their options.
 */
function recommended(): BpmnlintConfig {
  const entries = AGENTFLOW_RULE_NAMES.map((name) => {
    const code = ruleCode(name);
    const rule = BPMN_RULES.find((r) => r.meta.code === code);
    return [name, rule === undefined ? "off" : CATEGORY[rule.meta.defaultSeverity]] as const;
  });
  return Object.freeze({ rules: Object.freeze(Object.fromEntries(entries)) });
}

/** The plugin's configurations; rule names in them are relative to the plugin. */
export const configs: { readonly recommended: BpmnlintConfig } = Object.freeze({
  recommended: recommended(),
});

/**
 * The plugin's rules without resolvers: agent workflows come from the embedded
 * `btv:agentWorkflowSnapshot` only, and tool effects are unknown.
 */
export const rules: AgentflowRules = createRules();

/**
 * Entries for bpmnlint's `StaticResolver` (`rule:bpmnlint-plugin-agentflow/<name>` and
 * `config:bpmnlint-plugin-agentflow/recommended`), so a `{ extends: "plugin:agentflow/recommended" }`
 * configuration resolves in a browser. Pass rules from {@link createRules} to lint with resolvers.
 *
 * @example
 * ```ts
 * import { createRules, staticResolverCache } from "agentflow/bpmnlint";
 *
 * // the entries bpmnlint's StaticResolver looks up for `extends: "plugin:agentflow/recommended"`
 * const cache = staticResolverCache(createRules({ resolveWorkflow: () => undefined }));
 * Object.keys(cache).filter((key) => key.startsWith("config:"));
 * // → ["config:bpmnlint-plugin-agentflow/recommended"]
 * typeof cache["rule:bpmnlint-plugin-agentflow/agent-gate-bypass"]; // → "function"
 * ```
 */
export function staticResolverCache(
  pluginRules: AgentflowRules = rules,
): Readonly<Record<string, BpmnlintRuleFactory | BpmnlintConfig>> {
  const out: Record<string, BpmnlintRuleFactory | BpmnlintConfig> = {};
  for (const name of PLUGIN_RULE_NAMES) out[`rule:${PLUGIN_PACKAGE}/${name}`] = pluginRules[name];
  for (const [name, config] of Object.entries(configs)) {
    out[`config:${PLUGIN_PACKAGE}/${name}`] = config;
  }
  return out;
}
