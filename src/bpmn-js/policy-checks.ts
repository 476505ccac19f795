/**
 * The checks of the policy options that need the engine: each pack compiled (the FEEL compiler,
 * Ajv for its shape), each waiver and plugin read as `evaluateGates` reads them. The service runs
 * them through `engine.ts` at the first evaluation, so the page's first load carries none of
 * this; `configProblems` runs them too, for a host that asks before it builds the modeller.
 */
import type { GateOptions } from "../bpmn/index.js";
import type { CompiledPack } from "../policy/index.js";
import { compilePolicyPack, formatPolicyProblem, PolicyPackError } from "../policy/read.js";
import { waiverProblems } from "../policy/waivers.js";
import type { Plugin } from "../rules/index.js";
import { namespacedRules, pluginProblem } from "../rules/plugin.js";
import type { PolicyChecks, PolicyOption } from "./policies.js";
import { policyProblems } from "./policies.js";

/** Whether a value is a pack compiled by `readPolicyPack` or `compilePolicyPack`. */
function isCompiled(value: object): value is CompiledPack {
  const pack = value as Partial<CompiledPack>;
  return Array.isArray(pack.processRules) && typeof pack.sha256 === "string";
}

/**
 * Each pack entry's compilation by where it is named: checking the options and preparing them
 * read the same entries, and `configProblems` may have read them before; a pack is compiled
 * (FEEL and Ajv) once per entry object.
 */
const compilations = new WeakMap<object, Map<string, CompiledPack | string[]>>();

/** A pack entry compiled, or its problems (each naming `where`). */
function compiled(entry: object, where: string): CompiledPack | string[] {
  if (isCompiled(entry)) return entry;
  let byWhere = compilations.get(entry);
  const known = byWhere?.get(where);
  if (known !== undefined) return known;
  let result: CompiledPack | string[];
  try {
    result = compilePolicyPack(entry, where);
  } catch (error) {
    if (!(error instanceof PolicyPackError)) throw error;
    result = error.problems.map(formatPolicyProblem);
  }
  if (byWhere === undefined) {
    byWhere = new Map();
    compilations.set(entry, byWhere);
  }
  byWhere.set(where, result);
  return result;
}

function pluginProblems(name: string, plugin: unknown, where: string): string[] {
  const problem = pluginProblem(plugin, where);
  if (problem !== undefined) return [problem];
  try {
    namespacedRules(name, plugin as Plugin);
    return [];
  } catch (error) {
    return [`${where}: ${error instanceof Error ? error.message : String(error)}`];
  }
}

/** The engine's checks of packs, waivers and plugins, for {@link policyProblems}. */
export const POLICY_CHECKS: PolicyChecks = {
  pack: compiled,
  waiver: waiverProblems,
  plugin: pluginProblems,
};

/**
 * The options the gates are evaluated with: the packs compiled, once, so that every evaluation
 * after an edit reuses them. Takes options the constructor's checks passed.
 *
 * @throws TypeError naming every problem of the packs, waivers and plugins, one sentence each
 * joined by `; `, as a wrong option at construction is named: the service says it with
 * `agentflow.error` and draws nothing, since no verdict was reached with the policy applied.
 */
export function preparedOptions(options: GateOptions): GateOptions {
  const problems = policyProblems(options as Readonly<Record<string, unknown>>, POLICY_CHECKS);
  if (problems.length > 0) throw new TypeError(problems.join("; "));
  const { policies } = options;
  if (policies === undefined) return options;
  return {
    ...options,
    policies: policies.map((entry: PolicyOption, i) => {
      const read = compiled(entry, `agentflow.policies[${i}]`);
      if (Array.isArray(read)) throw new TypeError(read.join("; "));
      return read;
    }),
  };
}
