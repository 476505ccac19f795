/**
 * The module's policy options: packs (plain data, as a browser holds a parsed YAML or JSON pack,
 * or compiled), waivers, the day waivers are judged on, and plugins. They are checked when the
 * modeller is built, so a pack that does not compile is one clear error naming
 * `agentflow.policies[i]` and the problem, never an evaluation that fails after every edit; and
 * the packs are compiled once there, not on every evaluation.
 */
import type { CompiledPack } from "../policy/index.js";
import {
  compilePolicyPack,
  formatPolicyProblem,
  PolicyPackError,
  waiverProblems,
} from "../policy/index.js";
import type { Plugin } from "../rules/index.js";
import { namespacedRules, pluginProblem } from "../rules/internal.js";

/** A pack the `policies` option takes: compiled, or its plain data. */
export type PolicyOption = CompiledPack | Readonly<Record<string, unknown>>;

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether a value is a pack compiled by `readPolicyPack` or `compilePolicyPack`. */
function isCompiled(value: object): value is CompiledPack {
  const pack = value as Partial<CompiledPack>;
  return Array.isArray(pack.processRules) && typeof pack.sha256 === "string";
}

function kind(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "an array" : typeof value;
}

/** A pack entry compiled, or its problems (each naming `where`). */
function compiled(entry: unknown, where: string): CompiledPack | string[] {
  if (typeof entry === "string") {
    return [
      `${where} must be a policy pack as data, got the string '${entry}': a browser reads no files, so import or fetch the pack and pass its parsed data`,
    ];
  }
  if (!isRecord(entry)) return [`${where} must be a policy pack object, got ${kind(entry)}`];
  if (isCompiled(entry)) return entry;
  try {
    return compilePolicyPack(entry, where);
  } catch (error) {
    if (error instanceof PolicyPackError) return error.problems.map(formatPolicyProblem);
    throw error;
  }
}

/** The problems of `policies`, `waivers`, `today` and `plugins`, one sentence each. */
export function policyProblems(options: Readonly<Record<string, unknown>>): string[] {
  const problems: string[] = [];
  const { policies, waivers, today, plugins } = options;
  if (policies !== undefined) {
    if (Array.isArray(policies)) {
      policies.forEach((entry: unknown, i) => {
        const read = compiled(entry, `agentflow.policies[${i}]`);
        if (Array.isArray(read)) problems.push(...read);
      });
    } else {
      problems.push(`agentflow.policies must be a list of policy packs, got ${kind(policies)}`);
    }
  }
  if (waivers !== undefined) {
    if (Array.isArray(waivers)) {
      waivers.forEach((w: unknown, i) => {
        problems.push(...waiverProblems(w, `agentflow.waivers[${i}]`));
      });
    } else {
      problems.push(`agentflow.waivers must be a list of waivers, got ${kind(waivers)}`);
    }
  }
  if (today !== undefined && !isDay(today)) {
    problems.push(
      `agentflow.today must be a date written YYYY-MM-DD, got ${typeof today === "string" ? `'${today}'` : kind(today)}`,
    );
  }
  if (plugins !== undefined) problems.push(...pluginsProblems(plugins));
  return problems;
}

/** True for `YYYY-MM-DD` naming a day that exists (no 2027-02-30). */
function isDay(value: unknown): boolean {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(value);
}

function pluginsProblems(plugins: unknown): string[] {
  if (!isRecord(plugins)) return [`agentflow.plugins must be an object, got ${kind(plugins)}`];
  return Object.entries(plugins).flatMap(([name, plugin]) => {
    const where = `agentflow.plugins.${name}`;
    const problem = pluginProblem(plugin, where);
    if (problem !== undefined) return [problem];
    try {
      namespacedRules(name, plugin as Plugin);
      return [];
    } catch (error) {
      return [`${where}: ${error instanceof Error ? error.message : String(error)}`];
    }
  });
}

/**
 * The codes the packs' and plugins' rules have (`<pack>/<id>`, `<plugin>/<CODE>`), as written,
 * so that `rules` may set their severities as it does the built-ins'.
 */
export function extensionCodes(options: Readonly<Record<string, unknown>>): string[] {
  const { policies, plugins } = options;
  const packs: unknown[] = Array.isArray(policies) ? policies : [];
  const codes = packs.flatMap((pack) => {
    if (!isRecord(pack)) return [];
    const { name, rules } = pack;
    if (typeof name !== "string" || !Array.isArray(rules)) return [];
    return rules.flatMap((rule: unknown) =>
      isRecord(rule) && typeof rule.id === "string" ? [`${name}/${rule.id}`] : [],
    );
  });
  if (!isRecord(plugins)) return codes;
  for (const [name, plugin] of Object.entries(plugins)) {
    const rules = isRecord(plugin) && isRecord(plugin.rules) ? Object.keys(plugin.rules) : [];
    codes.push(...rules.map((code) => `${name}/${code}`));
  }
  return codes;
}

/**
 * The packs compiled, in order (for options {@link policyProblems} found nothing wrong with):
 * the evaluations after every edit then reuse them.
 */
export function compiledPolicies(policies: readonly PolicyOption[]): readonly CompiledPack[] {
  return policies.map((entry, i) => {
    const read = compiled(entry, `agentflow.policies[${i}]`);
    if (Array.isArray(read)) throw new TypeError(read.join("; "));
    return read;
  });
}
