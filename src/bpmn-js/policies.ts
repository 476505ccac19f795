/**
 * The module's policy options: packs (plain data, as a browser holds a parsed YAML or JSON pack,
 * or compiled), waivers, the day waivers are judged on, and plugins. What needs no engine is
 * checked when the modeller is built: a list where a list belongs, a pack given as data (not as a
 * file's path), a real day. Compiling the packs and checking the waivers and plugins needs the
 * FEEL compiler and Ajv, so it runs with the engine (`policy-checks.ts`), which passes its checks
 * in as {@link PolicyChecks}: this file, in the page's first load, imports none of them. It tells
 * the waiver check which rules a waiver may name: those of the packs as compiled and the plugins.
 */
import type { CompiledPack } from "../policy/index.js";
import { duplicatePackProblems } from "../policy/waiver-packs.js";
import { BPMN_RULE_CODES, WORKFLOW_RULE_CODES } from "../rules/builtin-codes.js";

/** A pack the `policies` option takes: compiled, or its plain data. */
export type PolicyOption = CompiledPack | Readonly<Record<string, unknown>>;

/**
 * The checks that need the engine, each naming `where` in its problems: a pack compiled (or its
 * problems), a waiver's problems (with `rules`, the rules it may name: one naming another waives
 * nothing while its owner believes it does), a plugin's problems.
 */
export interface PolicyChecks {
  readonly pack: (entry: object, where: string) => CompiledPack | string[];
  readonly waiver: (waiver: unknown, where: string, rules?: ReadonlySet<string>) => string[];
  readonly plugin: (name: string, plugin: unknown, where: string) => string[];
}

/** True for a plain object: what a pack, a plugin list or a rule setting must be. */
export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function kind(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "an array" : typeof value;
}

/** The problems of one pack entry a page can see without compiling it. */
function entryProblems(entry: unknown, where: string): string[] {
  if (typeof entry === "string") {
    return [
      `${where} must be a policy pack as data, got the string '${entry}': a browser reads no files, so import or fetch the pack and pass its parsed data`,
    ];
  }
  return isRecord(entry) ? [] : [`${where} must be a policy pack object, got ${kind(entry)}`];
}

/**
 * The problems of `policies`, `waivers`, `today` and `plugins`, one sentence each, in that order;
 * without `checks`, only those that need no engine (the modeller's constructor), with them every
 * one (`configProblems`, and the engine at the first evaluation).
 */
export function policyProblems(
  options: Readonly<Record<string, unknown>>,
  checks?: PolicyChecks,
): string[] {
  const problems: string[] = [];
  const { policies, waivers, today, plugins } = options;
  /** The packs as compiled; `undefined` once one cannot be (its rules are then unknown). */
  let packs: CompiledPack[] | undefined = [];
  if (policies !== undefined) {
    if (Array.isArray(policies)) {
      for (const [i, entry] of (policies as unknown[]).entries()) {
        const where = `agentflow.policies[${i}]`;
        const light = entryProblems(entry, where);
        problems.push(...light);
        if (checks === undefined || !isRecord(entry)) {
          packs = undefined;
          continue;
        }
        const read = checks.pack(entry, where);
        if (Array.isArray(read)) {
          problems.push(...read);
          packs = undefined;
        } else packs?.push(read);
      }
    } else {
      problems.push(`agentflow.policies must be a list of policy packs, got ${kind(policies)}`);
      packs = undefined;
    }
  }
  // Two packs of one name: either's waivers would waive the other's rules.
  const clashes = duplicatePackProblems(packs ?? []).map((line) => `agentflow.policies: ${line}`);
  problems.push(...clashes);
  if (clashes.length > 0) packs = undefined;
  const pluginProblems =
    plugins === undefined
      ? []
      : !isRecord(plugins)
        ? [`agentflow.plugins must be an object, got ${kind(plugins)}`]
        : Object.entries(plugins).flatMap(
            ([name, plugin]) => checks?.plugin(name, plugin, `agentflow.plugins.${name}`) ?? [],
          );
  if (waivers !== undefined) {
    if (Array.isArray(waivers)) {
      const rules =
        packs === undefined || pluginProblems.length > 0
          ? undefined
          : waivableRules(options, packs);
      waivers.forEach((w: unknown, i) => {
        problems.push(...(checks?.waiver(w, `agentflow.waivers[${i}]`, rules) ?? []));
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
  problems.push(...pluginProblems);
  return problems;
}

/**
 * Every rule a waiver of these options may name, as `agentflow gate` allows them in a config: a
 * built-in code (a BPMN rule's, a workflow rule's, or one of `workflowValidation.ruleSet`), a
 * plugin's `<plugin>/<CODE>`, a pack rule's `<pack>/<id>` or its bare id.
 */
function waivableRules(
  options: Readonly<Record<string, unknown>>,
  packs: readonly CompiledPack[],
): ReadonlySet<string> {
  const rules = new Set([...BPMN_RULE_CODES, ...WORKFLOW_RULE_CODES]);
  for (const pack of packs) {
    for (const { id } of pack.spec.rules) rules.add(id).add(`${pack.name}/${id}`);
  }
  const { plugins, workflowValidation } = options;
  if (isRecord(plugins)) {
    for (const [name, plugin] of Object.entries(plugins)) {
      if (!isRecord(plugin) || !isRecord(plugin.rules)) continue;
      for (const code of Object.keys(plugin.rules)) rules.add(`${name}/${code}`);
    }
  }
  const ruleSet = isRecord(workflowValidation) ? workflowValidation.ruleSet : undefined;
  for (const rule of Array.isArray(ruleSet) ? (ruleSet as unknown[]) : []) {
    const code = isRecord(rule) && isRecord(rule.meta) ? rule.meta.code : undefined;
    if (typeof code === "string") rules.add(code);
  }
  return rules;
}

/** True for `YYYY-MM-DD` naming a day that exists (no 2027-02-30). */
function isDay(value: unknown): boolean {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(value);
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
