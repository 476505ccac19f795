/**
 * The checks of the policy options that need the engine: each waiver and plugin read as
 * `evaluateGates` reads them, and each pack compiled by the compiler the service loads for it
 * (`pack-compile.ts`, only when the page sets packs). The service runs them through `engine.ts`
 * at the first evaluation, so the page's first load carries none of this.
 */
import type { GateOptions } from "../bpmn/index.js";
import type { CompiledGateOptions } from "../bpmn/gate-options.js";
import type { CompiledPack } from "../policy/index.js";
import type { PolicyInput } from "../validate/index.js";
import { quoteValue } from "../policy/shape.js";
import { isWaiver, waiverProblems } from "../policy/waivers.js";
import type { Plugin } from "../rules/index.js";
import { namespacedRules, pluginProblem } from "../rules/plugin.js";
import type { PolicyChecks } from "./policies.js";
import { policyProblems } from "./policies.js";

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

/**
 * A waiver's problems, as `evaluateGates` reads it, and, given the `rules` of the options, one
 * naming none of them: `agentflow gate` refuses such a waiver in a config (exit 2), since it would
 * waive nothing while its owner believes it does (a misspelt rule, `*`).
 */
function waiverChecks(waiver: unknown, where: string, rules?: ReadonlySet<string>): string[] {
  const problems = waiverProblems(waiver, where);
  if (problems.length > 0 || rules === undefined || !isWaiver(waiver) || rules.has(waiver.rule)) {
    return problems;
  }
  return [
    `${where}.rule: ${quoteValue(waiver.rule)} is no rule of these options (a built-in code, <plugin>/<CODE>, or a policy pack rule's id, bare or as <pack>/<id>)`,
  ];
}

/** The engine's checks of waivers and plugins, for {@link policyProblems}; packs need a compiler. */
export const ENGINE_CHECKS: Omit<PolicyChecks, "pack"> = {
  waiver: waiverChecks,
  plugin: pluginProblems,
};

/** Whether the options set packs, which only the pack compiler (`pack-compile.ts`) can read. */
export function setsPacks(options: { readonly policies?: unknown }): boolean {
  return Array.isArray(options.policies) && options.policies.length > 0;
}

/** Without the compiler a pack is not read, and so not applied: a problem, never a pass. */
const NOT_COMPILED: PolicyChecks["pack"] = (_, where) => [
  `${where} was not compiled: the policy pack compiler was not loaded`,
];

/**
 * The options the gates are evaluated with: the packs compiled by `pack` (the compiler's
 * `compiledEntry`), once, so that every evaluation after an edit reuses them. Takes options the
 * constructor's checks passed.
 *
 * @throws TypeError naming every problem of the packs, waivers and plugins, one sentence each
 * joined by `; `, as a wrong option at construction is named: the service says it with
 * `agentflow.error` and draws nothing, since no verdict was reached with the policy applied.
 */
export function preparedOptions(
  options: GateOptions,
  pack: PolicyChecks["pack"] = NOT_COMPILED,
): CompiledGateOptions {
  const checks = { ...ENGINE_CHECKS, pack };
  const problems = policyProblems(options as Readonly<Record<string, unknown>>, checks);
  if (problems.length > 0) throw new TypeError(problems.join("; "));
  const { policies, workflowValidation, ...rest } = options;
  const compiled = (entries: readonly PolicyInput[], at: string): CompiledPack[] =>
    entries.map((entry, i) => {
      const read = pack(entry, `${at}[${i}]`);
      if (Array.isArray(read)) throw new TypeError(read.join("; "));
      return read;
    });
  let validation: CompiledGateOptions["workflowValidation"];
  if (workflowValidation !== undefined) {
    const { policies: workflowPacks, ...settings } = workflowValidation;
    validation =
      workflowPacks === undefined
        ? settings
        : {
            ...settings,
            policies: compiled(workflowPacks, "agentflow.workflowValidation.policies"),
          };
  }
  return {
    ...rest,
    ...(policies === undefined ? {} : { policies: compiled(policies, "agentflow.policies") }),
    ...(validation === undefined ? {} : { workflowValidation: validation }),
  };
}
