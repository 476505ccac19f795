/**
 * The module's options, as the modeller passes them (`new Modeler({ agentflow: { ... } })`), and
 * the check that turns a wrong one into one clear error when the modeller is built, rather than
 * a failure at the first evaluation.
 */
import type { GateOptions } from "../bpmn/index.js";
import { unknownPolicyProblem } from "../bpmn/index.js";

/**
 * The `agentflow` options of the modeller: `evaluateGates`'s resolvers, gate predicate and
 * policy (resolvers may be sync or async), and how the module redraws.
 */
export interface AgentflowConfig extends Pick<
  GateOptions,
  "resolveWorkflow" | "resolveTool" | "isGate" | "policy" | "rules" | "workflowValidation"
> {
  /** Milliseconds after the last change before the gates are evaluated again; 300 by default. */
  readonly debounce?: number;
  /** Whether the overlays are shown from the start; `true` by default (see `toggle`). */
  readonly active?: boolean;
}

/** The debounce when none is configured: long enough to let a drag or a typed word settle. */
export const DEFAULT_DEBOUNCE = 300;

const FUNCTIONS = ["resolveWorkflow", "resolveTool", "isGate"] as const;
const KNOWN = new Set<string>([
  ...FUNCTIONS,
  "policy",
  "rules",
  "workflowValidation",
  "debounce",
  "active",
]);

/**
 * What is wrong with the `agentflow` options, one sentence each; `[]` when nothing is.
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
  if (config === undefined) return [];
  if (typeof config !== "object" || config === null || Array.isArray(config)) {
    return [`agentflow options must be an object, got ${describe(config)}`];
  }
  const options = config as Readonly<Record<string, unknown>>;
  const problems: string[] = [];
  for (const key of Object.keys(options)) {
    if (!KNOWN.has(key))
      problems.push(`unknown agentflow option '${key}' (known: ${[...KNOWN].join(", ")})`);
  }
  for (const name of FUNCTIONS) {
    const value = options[name];
    if (value !== undefined && typeof value !== "function") {
      problems.push(`agentflow.${name} must be a function, got ${describe(value)}`);
    }
  }
  const policy = options.policy;
  if (policy !== undefined) {
    const camunda: unknown =
      typeof policy === "object" && policy !== null
        ? (policy as { readonly camundaAgents?: unknown }).camundaAgents
        : undefined;
    if (typeof policy !== "object" || policy === null) {
      problems.push(`agentflow.policy must be an object, got ${describe(policy)}`);
    } else if (camunda !== undefined) {
      const problem = unknownPolicyProblem("agentflow.policy.camundaAgents", camunda);
      if (problem !== undefined) problems.push(problem);
    }
  }
  const debounce = options.debounce;
  if (
    debounce !== undefined &&
    (typeof debounce !== "number" || !Number.isFinite(debounce) || debounce < 0)
  ) {
    problems.push(
      `agentflow.debounce must be a number of milliseconds ≥ 0, got ${describe(debounce)}`,
    );
  }
  if (options.active !== undefined && typeof options.active !== "boolean") {
    problems.push(`agentflow.active must be true or false, got ${describe(options.active)}`);
  }
  return problems;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return "string";
  return Array.isArray(value) ? "an array" : typeof value;
}
