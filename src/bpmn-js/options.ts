/**
 * The checks of the module's options that need no engine: what the modeller's constructor
 * refuses with one `TypeError`. Apart from `config.ts` (whose `configProblems` adds the packs'
 * compilation) because a bundler that splits chunks (esbuild) follows every import of a file the
 * page loads, used or not: this file must reach nothing of the engine.
 */
import { toolEffectsProblems } from "../bpmn/camunda/effect-mapping.js";
import { gateSelectorProblems } from "../bpmn/gate-select.js";
import { unknownPolicyProblem } from "../bpmn/types.js";
import { BPMN_RULE_CODES, WORKFLOW_RULE_CODES } from "../rules/builtin-codes.js";
import { PRESET_NAMES } from "../validate/presets.js";
import type { PolicyChecks } from "./policies.js";
import { extensionCodes, policyProblems } from "./policies.js";

/** The debounce when none is configured: long enough to let a drag or a typed word settle. */
export const DEFAULT_DEBOUNCE = 300;

const FUNCTIONS = ["resolveWorkflow", "resolveTool", "isGate"] as const;
const KNOWN = new Set<string>([
  ...FUNCTIONS,
  "policy",
  "rules",
  "workflowValidation",
  "lookupTimeoutMs",
  "toolEffects",
  "gates",
  "policies",
  "waivers",
  "today",
  "plugins",
  "debounce",
  "active",
  "approval",
]);

/**
 * The problems `configProblems` finds; without `checks`, only those that need no engine: what the
 * modeller's constructor refuses.
 */
export function optionProblems(config: unknown, checks?: PolicyChecks): string[] {
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
  if (options.gates !== undefined) {
    problems.push(...gateSelectorProblems(options.gates, "agentflow.gates"));
  }
  if (options.toolEffects !== undefined) {
    problems.push(...toolEffectsProblems(options.toolEffects).map((p) => `agentflow.${p}`));
  }
  problems.push(
    ...rulesProblems(options.rules, extensionCodes(options)),
    ...workflowValidationProblems(options.workflowValidation),
    ...policyProblems(options, checks),
  );
  const debounce = options.debounce;
  if (
    debounce !== undefined &&
    (typeof debounce !== "number" || !Number.isFinite(debounce) || debounce < 0)
  ) {
    problems.push(
      `agentflow.debounce must be a number of milliseconds ≥ 0, got ${describe(debounce)}`,
    );
  }
  const timeout = options.lookupTimeoutMs;
  if (
    timeout !== undefined &&
    (typeof timeout !== "number" || Number.isNaN(timeout) || timeout < 0)
  ) {
    problems.push(
      `agentflow.lookupTimeoutMs must be a number of milliseconds ≥ 0, got ${describe(timeout)}`,
    );
  }
  if (options.active !== undefined && typeof options.active !== "boolean") {
    problems.push(`agentflow.active must be true or false, got ${describe(options.active)}`);
  }
  return problems;
}

const SEVERITIES: readonly unknown[] = ["error", "warning", "info", "off"];

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function severityProblem(path: string, value: unknown): string | undefined {
  return SEVERITIES.includes(value)
    ? undefined
    : `${path} must be error, warning, info or off, got ${describe(value)}`;
}

/**
 * `rules` as `evaluateGates` reads it: known BPMN rule codes (with the packs' and plugins'),
 * each with a severity.
 */
function rulesProblems(rules: unknown, extra: readonly string[]): string[] {
  if (rules === undefined) return [];
  if (!isRecord(rules)) return [`agentflow.rules must be an object, got ${describe(rules)}`];
  const known = new Set([...BPMN_RULE_CODES, ...extra]);
  return Object.entries(rules).flatMap(([code, setting]) => {
    if (!known.has(code)) return [`unknown BPMN rule '${code}' in agentflow.rules`];
    return severityProblem(`agentflow.rules.${code}`, setting) ?? [];
  });
}

/**
 * `workflowValidation` as `createValidator` reads it (the module adds the resolvers): a preset,
 * and per-rule settings of the built-in rules or of the host's own `ruleSet`.
 */
function workflowValidationProblems(config: unknown): string[] {
  const at = "agentflow.workflowValidation";
  if (config === undefined) return [];
  if (!isRecord(config)) return [`${at} must be an object, got ${describe(config)}`];
  const problems: string[] = [];
  for (const key of Object.keys(config)) {
    if (!["preset", "rules", "ruleSet"].includes(key))
      problems.push(`unknown ${at} option '${key}' (known: preset, rules, ruleSet)`);
  }
  const { preset, rules, ruleSet } = config;
  if (preset !== undefined && !(PRESET_NAMES as readonly unknown[]).includes(preset)) {
    problems.push(
      `unknown ${at}.preset ${typeof preset === "string" ? `'${preset}'` : describe(preset)} (expected ${PRESET_NAMES.join(", ")})`,
    );
  }
  let codes = new Set<unknown>(WORKFLOW_RULE_CODES);
  if (ruleSet !== undefined) {
    if (Array.isArray(ruleSet)) {
      codes = new Set(
        ruleSet.map((rule: unknown) =>
          isRecord(rule) && isRecord(rule.meta) ? rule.meta.code : undefined,
        ),
      );
    } else {
      problems.push(`${at}.ruleSet must be an array of rules, got ${describe(ruleSet)}`);
    }
  }
  if (rules === undefined) return problems;
  if (!isRecord(rules))
    return [...problems, `${at}.rules must be an object, got ${describe(rules)}`];
  for (const [code, setting] of Object.entries(rules)) {
    if (!codes.has(code)) {
      problems.push(`unknown workflow rule '${code}' in ${at}.rules`);
      continue;
    }
    // A setting is a severity, or [severity, options].
    const severity: unknown = Array.isArray(setting) ? (setting as unknown[])[0] : setting;
    const problem = severityProblem(`${at}.rules.${code}`, severity);
    if (problem !== undefined) problems.push(problem);
    else if (Array.isArray(setting) && (setting.length !== 2 || !isRecord(setting[1]))) {
      problems.push(`${at}.rules.${code} must be a severity or [severity, options object]`);
    }
  }
  return problems;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return "string";
  return Array.isArray(value) ? "an array" : typeof value;
}
