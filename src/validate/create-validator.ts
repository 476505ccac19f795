/**
 * `createValidator`, the public way to build a validator: it compiles the packs given as plain
 * data (`packsOf`), then builds with `validatorWith`. Apart from the engine so that code holding
 * compiled packs (the gate evaluation, the modeller's engine) reaches no pack compiler.
 */
import type { Validator, ValidatorConfig } from "./engine.js";
import { validatorWith } from "./engine.js";
import { packsOf } from "./policies.js";

/**
 * Builds a validator. Configuration mistakes (an unknown rule code) throw at once: they are API
 * misuse, unlike problems in a workflow, which are always returned as diagnostics.
 *
 * @example
 * ```ts
 * import { parseWorkflowText } from "agentflow/model";
 * import { createValidator } from "agentflow/validate";
 *
 * const { workflow } = parseWorkflowText(`
 * kind: AgentWorkflow
 * id: agnt-triage
 * version: 1.0.0
 * name: Ticket triage
 * autonomyLevel: 2
 * inputSchema: { ticket: text }
 * outputSchema: { queue: text, done: bool }
 * nodes:
 *   - id: classify
 *     type: llm
 *     config: { model: gpt-4o, promptRef: prm:triage@1.0.0, structuredOutput: true }
 *   - id: check
 *     type: decision
 *     config: { condition: output.done = true, onTrue: { next: end }, onFalse: { next: classify } }
 * edges:
 *   - { from: classify, to: check, edgeType: data }
 * `);
 * if (workflow === undefined) throw new Error("does not parse");
 *
 * const validator = createValidator({
 *   preset: "recommended",
 *   rules: { BUDGET_MISSING: "error" },
 *   resolvers: { resolvePrompt: (ref) => (ref === "prm:triage@1.0.0" ? true : undefined) },
 * });
 * const diagnostics = await validator.validate(workflow);
 * diagnostics.map((d) => `${d.severity} ${d.code} at ${d.path || "the workflow"}`);
 * // → ["error RETRY_WITHOUT_MAX at /nodes/1/config/onFalse", "error BUDGET_MISSING at the workflow"]
 * ```
 */
export function createValidator(config: ValidatorConfig = {}): Validator {
  return validatorWith(config, packsOf(config.policies));
}
