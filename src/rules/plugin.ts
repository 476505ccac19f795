/**
 * Plugins: an organisation's rules in an ES module, `{ meta: { name, version }, rules, configs }`
 * (as ESLint 9 and bpmnlint plugins are shaped). A plugin's rules are known everywhere as
 * `<name>/<CODE>`, the name the configuration gives it.
 */
import type { RuleSetting } from "./settings.js";
import { defineRule } from "./define.js";
import { contentHash } from "../model/index.js";
import type { RuleDefinition, RuleScope } from "./types.js";

/** A rule of either scope, as a plugin holds it. */
export type AnyRule = RuleDefinition<never>;

/** A plugin module's default export (or its namespace). */
export interface Plugin {
  readonly meta: { readonly name: string; readonly version: string };
  /** Rules by code, without the plugin's prefix. */
  readonly rules: Readonly<Record<string, AnyRule>>;
  /** Named rule settings a configuration may extend (`"extends": ["acme/recommended"]`). */
  readonly configs?: Readonly<
    Record<string, { readonly rules?: Readonly<Record<string, RuleSetting>> }>
  >;
}

/**
 * The rules made from plugins. agentflow did not write them, so they run guarded: on a read-only
 * view of the context, their reports checked when made (run.ts). A host's own `ruleSet` is the
 * caller's code and runs as agentflow's rules do.
 */
const FROM_PLUGINS = new WeakSet();

/** True for a rule {@link namespacedRules} made from a plugin. */
export function isPluginRule(rule: object): boolean {
  return FROM_PLUGINS.has(rule);
}

/** A plugin's name in configuration: what its rules are prefixed with. */
const NAME = /^[a-z0-9][a-z0-9._-]*$/;

/** Why `value` is no plugin (`where` names it for the reader), or `undefined`. */
export function pluginProblem(value: unknown, where: string): string | undefined {
  if (typeof value !== "object" || value === null) return `${where} exports no plugin object`;
  const v = value as Record<string, unknown>;
  const meta = v.meta as Record<string, unknown> | undefined;
  if (typeof meta !== "object" || typeof meta.name !== "string" || meta.name === "") {
    return `${where} has no meta.name`;
  }
  if (typeof meta.version !== "string" || meta.version === "") {
    return `${where} has no meta.version`;
  }
  if (typeof v.rules !== "object" || v.rules === null) return `${where} has no rules object`;
  if (v.configs !== undefined && (typeof v.configs !== "object" || v.configs === null)) {
    return `${where}: configs must be an object`;
  }
  return undefined;
}

/**
 * The plugin's rules, each checked by {@link defineRule} and renamed `<name>/<CODE>`.
 *
 * @throws TypeError when the name or a rule is malformed, naming it.
 */
export function namespacedRules(name: string, plugin: Plugin): AnyRule[] {
  if (!NAME.test(name)) {
    throw new TypeError(
      `plugin name '${name}' must be lowercase letters, digits, '.', '_' or '-' (it prefixes its rule codes)`,
    );
  }
  return Object.entries(plugin.rules).map(([code, rule]) => {
    const own = (rule as { meta?: { code?: unknown } } | undefined)?.meta?.code;
    if (own !== code) {
      throw new TypeError(
        `plugin '${name}': rule '${code}' has meta.code ${JSON.stringify(own)}; they must be equal`,
      );
    }
    const checked = defineRule(rule);
    const made = defineRule({ ...checked, meta: { ...checked.meta, code: `${name}/${code}` } });
    FROM_PLUGINS.add(made);
    return made;
  });
}

/**
 * The rules of every plugin (by the name the configuration gives it) whose scope is `scope`,
 * namespaced, in the plugins' and their rules' order.
 *
 * @throws TypeError when a plugin or a rule is malformed, naming it.
 */
export function pluginRules(
  plugins: Readonly<Record<string, Plugin>>,
  scope: RuleScope,
): AnyRule[] {
  const out: AnyRule[] = [];
  for (const [name, plugin] of Object.entries(plugins)) {
    const problem = pluginProblem(plugin, `plugin '${name}'`);
    if (problem !== undefined) throw new TypeError(problem);
    for (const rule of namespacedRules(name, plugin)) {
      if ((rule.meta.scope ?? "workflow") === scope) out.push(rule);
    }
  }
  return out;
}

/**
 * `sha256:` of a plugin's content as agentflow can see it: its meta, configs, and each rule's
 * meta and check source. What a check calls elsewhere in its module is pinned by the plugin's
 * version (and, from the CLI, by the digest of its whole module graph: every file it can load).
 */
export function pluginDigest(plugin: Plugin): string {
  const rules = Object.entries(plugin.rules).map(([code, rule]) => ({
    code,
    meta: rule.meta,
    check: typeof rule.check === "function" ? rule.check.toString() : null,
  }));
  return contentHash({ meta: plugin.meta, configs: plugin.configs ?? {}, rules });
}
