/**
 * The organisation's policy in the config: the plugins and policy packs it names, loaded and
 * checked, and what they make of the config's `rules`, `extends` and `waivers`. Everything here
 * is decided before any document is read, and every mistake is a usage error naming the config
 * file (exit 2): a rule code no plugin or pack defines, a plugin config that does not exist, a
 * waiver of an unknown rule would each otherwise change a verdict unseen.
 */
import { BPMN_RULES } from "../bpmn/index.js";
import type { RuleSetExtension } from "../bpmn/index.js";
import type { SeveritySetting } from "../model/index.js";
import { pointer } from "../model/index.js";
import type { CompiledPack, Waiver } from "../policy/index.js";
import { ambiguousWaiverProblems, waiverProblems } from "../policy/index.js";
import { duplicatePackProblems } from "../policy/waiver-packs.js";
import type { RuleMeta, RuleSetting } from "../rules/index.js";
import { optionsProblem } from "../rules/internal.js";
import { RULES } from "../validate/index.js";
import type { ConfigRuleSetting, LoadedConfig } from "./config.js";
import { projectRoot } from "./config.js";
import { UsageError } from "./io.js";
import type { PackSource } from "./policies.js";
import { readPacks } from "./policies.js";
import type { LoadedPlugin } from "./plugins.js";
import { loadPlugin, locatePlugins } from "./plugins.js";

/** The plugins and packs a config names, loaded and compiled. */
export interface Extensions {
  readonly plugins: readonly LoadedPlugin[];
  readonly packs: readonly CompiledPack[];
  /** The packs' texts, for worker threads to compile again. */
  readonly packSources: readonly PackSource[];
}

/** No plugins, no packs. */
export const NO_EXTENSIONS: Extensions = { plugins: [], packs: [], packSources: [] };

/** Which scopes each plugin and pack rule runs in, by code, with its meta. */
export interface ExtensionRules {
  readonly process: ReadonlyMap<string, RuleMeta>;
  readonly workflow: ReadonlyMap<string, RuleMeta>;
}

/** Loads the config's plugins and reads its packs; names must not clash (they prefix codes). */
export async function loadExtensions(
  loaded: LoadedConfig | undefined,
  cwd: string,
): Promise<Extensions> {
  const config = loaded?.config;
  if (loaded === undefined || (config?.plugins === undefined && config?.policies === undefined)) {
    return NO_EXTENSIONS;
  }
  // Without a project root, the config's own folder is as far as its plugins may come from.
  const root = projectRoot(loaded.dir) ?? loaded.dir;
  const plugins: LoadedPlugin[] = [];
  for (const source of locatePlugins(config.plugins ?? {}, loaded.file, loaded.dir, root)) {
    plugins.push(await loadPlugin(source, loaded.file));
  }
  const { sources, packs } = await readPacks(
    config.policies ?? [],
    loaded.file,
    loaded.dir,
    root,
    cwd,
  );
  // Two packs of one name, or a pack named as a plugin: refused as every evaluation refuses them.
  const names = plugins.map((p) => p.source.name);
  const clash = duplicatePackProblems(packs, names)[0];
  if (clash !== undefined) throw new UsageError(`${loaded.file}: ${clash}`);
  return { plugins, packs, packSources: sources };
}

/** The plugins' and packs' rules by scope. */
export function extensionRules(extensions: Extensions): ExtensionRules {
  const process = new Map<string, RuleMeta>();
  const workflow = new Map<string, RuleMeta>();
  for (const { rules } of extensions.plugins) {
    for (const rule of rules) {
      (rule.meta.scope === "process" ? process : workflow).set(rule.meta.code, rule.meta);
    }
  }
  for (const pack of extensions.packs) {
    for (const rule of pack.processRules) process.set(rule.meta.code, rule.meta);
    for (const rule of pack.workflowRules) workflow.set(rule.meta.code, rule.meta);
  }
  return { process, workflow };
}

/** The plugins and packs as the rule set names them (sorted by name, as the digest wants). */
export function ruleSetExtensions(extensions: Extensions): RuleSetExtension[] {
  const out: RuleSetExtension[] = [
    ...extensions.plugins.map(({ source, plugin }) => ({
      kind: "plugin" as const,
      name: source.name,
      version: plugin.meta.version,
      sha256: source.sha256,
    })),
    ...extensions.packs.map((p) => ({
      kind: "policy" as const,
      name: p.name,
      version: p.version,
      sha256: p.sha256,
    })),
  ];
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const LEVELS: Readonly<Record<string, SeveritySetting>> = {
  off: "off",
  warn: "warning",
  warning: "warning",
  error: "error",
  info: "info",
};

/** `codes` shortened for an error message. */
function known(codes: Iterable<string>): string {
  const list = [...codes].sort();
  if (list.length === 0) return "none: the config names no plugin or policy pack";
  return list.length <= 8 ? list.join(", ") : `${list.slice(0, 8).join(", ")}, … (${list.length})`;
}

/** A setting over an earlier one: a level alone keeps the earlier options, as in ESLint. */
function over(earlier: RuleSetting | undefined, setting: RuleSetting): RuleSetting {
  if (typeof setting !== "string" || earlier === undefined || typeof earlier === "string") {
    return setting;
  }
  return [setting, earlier[1]];
}

/** The rule settings of a plugin's config (`extends: ["<plugin>/<config>"]`), by code. */
function pluginConfigSettings(
  entry: string,
  file: string,
  extensions: Extensions,
): [string, { setting: RuleSetting; from: string }][] {
  const slash = entry.indexOf("/");
  const [name, configName] = [entry.slice(0, slash), entry.slice(slash + 1)];
  const plugin = extensions.plugins.find((p) => p.source.name === name);
  const where = `${file}: extends '${entry}'`;
  if (plugin === undefined) throw new UsageError(`${where}: the config names no plugin '${name}'`);
  const configs = plugin.plugin.configs ?? {};
  const config = Object.hasOwn(configs, configName) ? configs[configName] : undefined;
  if (config === undefined) {
    throw new UsageError(
      `${where}: plugin '${name}' has no config '${configName}' (its configs: ${known(Object.keys(configs))})`,
    );
  }
  const own = new Set(plugin.rules.map((r) => r.meta.code));
  return Object.entries(config.rules ?? {}).map(([code, setting]) => {
    // A plugin cannot know the name a config gives it: its own rules are written bare.
    const full = own.has(`${name}/${code}`) ? `${name}/${code}` : code;
    const raw: unknown = setting;
    const [level, options] = Array.isArray(raw) ? (raw as unknown[]) : [raw, undefined];
    const severity = typeof level === "string" ? LEVELS[level] : undefined;
    if (
      severity === undefined ||
      (options !== undefined && (typeof options !== "object" || options === null))
    ) {
      throw new UsageError(
        `${where}: rule '${code}' has the setting ${JSON.stringify(raw)}; expected "off", "warn", "error" or [level, { options }]`,
      );
    }
    // Another's rule (agentflow's, another plugin's, a pack's) is the config owner's to turn
    // down: a plugin's config may make it an error, never quieter, off, or differently optioned.
    if (full === code && !own.has(code) && (severity !== "error" || options !== undefined)) {
      throw new UsageError(
        `${where}: rule '${code}' is not a rule of plugin '${name}', and the plugin's config sets it to ${JSON.stringify(raw)}: a plugin's config may raise another rule to "error" but never turn it down, off or change its options; set it in your config's own "rules" if you mean it`,
      );
    }
    const value: RuleSetting =
      options === undefined ? severity : [severity, options as Record<string, unknown>];
    return [full, { setting: value, from: `${where}: rule '${code}'` }];
  });
}

/**
 * The rule settings of the config's layers (config-extends.ts): each file's `rules` and the
 * plugin configs it extends, in the order they apply, later ones winning by code.
 */
function layeredSettings(
  loaded: LoadedConfig,
  extensions: Extensions,
): Map<string, { setting: RuleSetting; from: string }> {
  const out = new Map<string, { setting: RuleSetting; from: string }>();
  for (const layer of loaded.ruleLayers) {
    const entries =
      layer.kind === "plugin-config"
        ? pluginConfigSettings(layer.entry, layer.file, extensions)
        : Object.entries(layer.rules).map(([code, setting]: [string, ConfigRuleSetting]) => {
            const value: RuleSetting =
              typeof setting === "string"
                ? (LEVELS[setting] ?? "error")
                : [LEVELS[setting[0]] ?? "error", setting[1]];
            return [
              code,
              { setting: value, from: `${layer.file}: ${pointer("rules", code)}` },
            ] as const;
          });
    for (const [code, { setting, from }] of entries) {
      out.set(code, { setting: over(out.get(code)?.setting, setting), from });
    }
  }
  return out;
}

/**
 * The config's rule settings (its `extends` under its own `rules`), each plugin or pack code
 * checked against what the loaded plugins and packs define and each option against its rule's
 * schema.
 */
export function configRuleSettings(
  loaded: LoadedConfig | undefined,
  extensions: Extensions,
): Map<string, RuleSetting> {
  const out = new Map<string, RuleSetting>();
  if (loaded === undefined) return out;
  const rules = extensionRules(extensions);
  const builtIn = new Set([...RULES, ...BPMN_RULES].map((r) => r.meta.code));
  const merged = layeredSettings(loaded, extensions);
  const extension = new Set([...rules.process.keys(), ...rules.workflow.keys()]);
  for (const [code, { setting, from }] of merged) {
    const meta = rules.process.get(code) ?? rules.workflow.get(code);
    if (meta === undefined && !builtIn.has(code)) {
      const what = code.includes("/")
        ? "no plugin or policy pack of the config defines this rule"
        : "is not the code of a rule";
      throw new UsageError(`${from}: ${what} (plugin and pack rules: ${known(extension)})`);
    }
    if (meta !== undefined && typeof setting !== "string" && meta.schema === undefined) {
      throw new UsageError(`${from}: this rule takes no options`);
    }
    out.set(code, setting);
  }
  // Every plugin and pack rule that runs, with the options it runs with (`{}` when none are
  // given): options its schema refuses are a usage error now, not a crash on the first file.
  for (const [code, meta] of [...rules.process, ...rules.workflow]) {
    if (meta.schema === undefined) continue;
    const given = merged.get(code);
    const setting = given?.setting ?? meta.defaultSeverity;
    const [level, options] = typeof setting === "string" ? [setting, {}] : setting;
    if (level === "off") continue;
    const problem = optionsProblem(meta.schema, options);
    if (problem === undefined) continue;
    throw new UsageError(
      given === undefined
        ? `${loaded.file}: rule '${code}' runs by default, and ${problem}; give its options in ${pointer("rules", code)}, or turn it off`
        : `${given.from}: ${problem}`,
    );
  }
  return out;
}

/**
 * The config's waivers, checked: well formed (a real date, one subject), and each naming a rule
 * that exists — a built-in code, a plugin's or pack's code, or a pack rule's bare id. A waiver
 * of a misspelt rule would waive nothing while its owner believes it does; one of a bare id that
 * two packs share, in the config or in a pack's own waivers, would waive both (exit 2).
 */
export function configWaivers(loaded: LoadedConfig | undefined, extensions: Extensions): Waiver[] {
  // A bare rule id two packs share would waive both: said of the packs' own waivers too, which
  // apply whether or not the config has any.
  const ambiguousInPacks = ambiguousWaiverProblems(
    extensions.packs.flatMap((p) => p.waivers),
    extensions.packs,
  );
  if (ambiguousInPacks.length > 0) throw new UsageError(ambiguousInPacks.join("\n"));
  const waivers = loaded?.config.waivers ?? [];
  if (loaded === undefined || waivers.length === 0) return [];
  const problems = [
    ...waivers.flatMap((w, i) => waiverProblems(w, `${loaded.file}: waivers[${i}]`)),
    ...ambiguousWaiverProblems(waivers, extensions.packs).map((p) => `${loaded.file}: ${p}`),
  ];
  if (problems.length > 0) throw new UsageError(problems.join("\n"));
  const rules = extensionRules(extensions);
  const names = new Set([
    ...[...RULES, ...BPMN_RULES].map((r) => r.meta.code),
    ...rules.process.keys(),
    ...rules.workflow.keys(),
    ...extensions.packs.flatMap((p) => p.spec.rules.map((r) => r.id)),
  ]);
  waivers.forEach((w, i) => {
    if (!names.has(w.rule)) {
      throw new UsageError(
        `${loaded.file}: waivers[${i}].rule: '${w.rule}' is no rule of this config (a built-in code, <plugin>/<CODE>, or a policy pack rule's id)`,
      );
    }
  });
  return [...waivers];
}
