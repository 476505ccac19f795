/**
 * What an evaluation sets up from its options before it reads the process: the active rules,
 * the tool-effect mapping and the gate selectors (checked: a bad one is a `TypeError` naming
 * where), the rule set the
 * decision names, and the validator of resolved workflows.
 */
import type { Severity, SeveritySetting } from "../model/index.js";
import type { Validator } from "../validate/index.js";
import { createValidator } from "../validate/index.js";
import type { ToolEffectsMapping } from "./camunda/index.js";
import { toolEffectsProblems } from "./camunda/index.js";
import type { GateOptions } from "./evaluate.js";
import type { GateSelector } from "./gate-select.js";
import { gateSelectorProblems } from "./gate-select.js";
import type { TaskResolvers } from "./resolve-tasks.js";
import type { RuleSet } from "./rule-set.js";
import { describeRuleSet } from "./rule-set.js";
import type { ActiveBpmnRule } from "./rule.js";
import { BPMN_RULES } from "./rules/index.js";

/** The rules to run, at their severities; an unknown code is a `TypeError`. */
export function activeRules(
  settings: Readonly<Record<string, SeveritySetting>> = {},
): ActiveBpmnRule[] {
  const known = new Set(BPMN_RULES.map((r) => r.meta.code));
  for (const code of Object.keys(settings)) {
    if (!known.has(code)) throw new TypeError(`evaluateGates: unknown BPMN rule '${code}'`);
  }
  return BPMN_RULES.flatMap((rule) => {
    const setting = Object.hasOwn(settings, rule.meta.code) ? settings[rule.meta.code] : undefined;
    const severity: SeveritySetting = setting ?? rule.meta.defaultSeverity;
    return severity === "off" ? [] : [{ rule, severity: severity satisfies Severity }];
  });
}

/** The options' tool-effect mapping, checked; `{}` when none is given. */
export function mappingOf(options: GateOptions): ToolEffectsMapping {
  const mapping = options.toolEffects ?? {};
  const problem = toolEffectsProblems(mapping)[0];
  if (problem !== undefined) throw new TypeError(`evaluateGates: ${problem}`);
  return mapping;
}

/** The options' lookup timeout, checked: a NaN or a negative bound would wait forever. */
export function timeoutOf(options: GateOptions): number | undefined {
  const ms = options.lookupTimeoutMs;
  if (ms === undefined) return undefined;
  if (typeof ms !== "number" || Number.isNaN(ms) || ms < 0) {
    throw new TypeError(
      `evaluateGates: lookupTimeoutMs must be a number of milliseconds ≥ 0 (or Infinity), got ${String(ms)}`,
    );
  }
  return ms;
}

/** The options' gate selectors, checked (a bad one is a `TypeError` naming where); `[]` when none. */
export function selectorsOf(options: GateOptions): readonly GateSelector[] {
  if (options.gates === undefined) return [];
  const problem = gateSelectorProblems(options.gates, "gates")[0];
  if (problem !== undefined) throw new TypeError(`evaluateGates: ${problem}`);
  return options.gates;
}

/** The rule set of the options, with the defaults a run without options uses. */
export function ruleSetOf(options: GateOptions): RuleSet {
  return describeRuleSet({
    preset: options.workflowValidation?.preset ?? "recommended",
    workflowRules: options.workflowValidation?.rules ?? {},
    bpmnRules: options.rules ?? {},
    camundaAgents: options.policy?.camundaAgents ?? "gate-required",
    ...(options.toolEffects === undefined ? {} : { toolEffects: options.toolEffects }),
    ...(options.gates === undefined ? {} : { gates: options.gates }),
    // A host's own predicate decides which nodes are gates: a digest must not hide that it ran.
    ...(options.isGate === undefined ? {} : { customGatePredicate: true }),
  });
}

/**
 * The validator of resolved workflows, asking the same guarded lookups as the gate, so both
 * rest on one answer per ref.
 */
export function validatorFor(options: GateOptions, lookups: TaskResolvers): Validator {
  const resolvers = {
    ...(lookups.resolveTool === undefined ? {} : { resolveTool: lookups.resolveTool }),
    ...(lookups.resolveWorkflow === undefined ? {} : { resolveDelegate: lookups.resolveWorkflow }),
  };
  return createValidator({ ...options.workflowValidation, resolvers });
}
