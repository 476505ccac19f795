/**
 * Gate options with their packs compiled: what the public evaluation functions, the bpmnlint
 * plugin and the wording of findings start from. This file imports the pack compiler, so the
 * evaluation itself (`evaluate-run.ts`) does not: the modeller's engine, which compiles packs
 * with a compiler it loads only for a page that sets them, reaches none of it.
 */
import type { GateOptions, CompiledGateOptions } from "./gate-options.js";
import { isCompiled, packsOf } from "../validate/policies.js";

/**
 * `options` with every pack compiled, the process's and the workflow validation's (a pack that
 * does not compile is a `PolicyPackError` naming every problem); the same object when all are
 * compiled already, so that what is derived per options object is derived once.
 */
export function compiledOptions(options: GateOptions): CompiledGateOptions {
  const { policies, workflowValidation, ...rest } = options;
  const plain = (packs: GateOptions["policies"]) => packs !== undefined && !packs.every(isCompiled);
  if (!plain(policies) && !plain(workflowValidation?.policies)) {
    return options as CompiledGateOptions;
  }
  let validation: CompiledGateOptions["workflowValidation"];
  if (workflowValidation !== undefined) {
    const { policies: workflowPacks, ...settings } = workflowValidation;
    validation =
      workflowPacks === undefined ? settings : { ...settings, policies: packsOf(workflowPacks) };
  }
  return {
    ...rest,
    ...(policies === undefined ? {} : { policies: packsOf(policies) }),
    ...(validation === undefined ? {} : { workflowValidation: validation }),
  };
}
