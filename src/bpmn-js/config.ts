/**
 * The module's options, as the modeller passes them (`new Modeler({ agentflow: { ... } })`), and
 * `configProblems`, which names every wrong one at once: those the modeller's constructor refuses
 * (`options.ts`) and those of the packs, waivers and plugins, which need the engine and are said
 * at the first evaluation (`policy-checks.ts`, `pack-compile.ts`).
 */
import type { GateOptions } from "../bpmn/index.js";
import { optionProblems } from "./options.js";
import { compiledEntry } from "./pack-compile.js";
import { ENGINE_CHECKS } from "./policy-checks.js";

/**
 * The `agentflow` options of the modeller: `evaluateGates`'s resolvers, gate predicate and
 * policy (resolvers may be sync or async), policy packs (plain data: a pack works in the
 * browser), waivers and plugins, and how the module redraws.
 */
export interface AgentflowConfig extends Pick<
  GateOptions,
  | "resolveWorkflow"
  | "resolveTool"
  | "isGate"
  | "policy"
  | "rules"
  | "workflowValidation"
  | "lookupTimeoutMs"
  | "toolEffects"
  | "gates"
  | "policies"
  | "waivers"
  | "today"
  | "plugins"
> {
  /** Milliseconds after the last change before the gates are evaluated again; 300 by default. */
  readonly debounce?: number;
  /** Whether the overlays are shown from the start; `true` by default (see `toggle`). */
  readonly active?: boolean;
  /**
   * An approval (`agentflow approve`'s envelope, parsed JSON, or its statement): the agent tasks
   * no longer as approved are marked. Checked at evaluation, not here: a malformed one fires
   * `agentflow.error` and marks nothing, as `setApproval` does.
   */
  readonly approval?: unknown;
}

/**
 * What is wrong with the `agentflow` options, one sentence each; `[]` when nothing is. Every
 * problem, the packs', waivers' and plugins' too: the modeller's constructor names the others,
 * and the packs' at the first evaluation, with `agentflow.error`. It compiles the packs, so a page
 * that calls it loads the policy compiler with its first load (docs/modeler.md).
 *
 * @example
 * ```ts
 * import { configProblems } from "agentflow/bpmn-js";
 *
 * configProblems({ debounce: 100, policy: { camundaAgents: "ignore" } }); // → []
 * configProblems({ resolveWorkflow: "registry.json", debounce: -1 });
 * // → [
 * //     "agentflow.resolveWorkflow must be a function, got string",
 * //     "agentflow.debounce must be a number of milliseconds ≥ 0, got -1",
 * //   ]
 * ```
 */
export function configProblems(config: unknown): string[] {
  return optionProblems(config, { ...ENGINE_CHECKS, pack: compiledEntry });
}
