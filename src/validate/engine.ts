/**
 * The validator (SPEC 3): built once from a preset, rule settings and resolvers, then run on any
 * number of workflows. Resolution happens first (sync or async); every rule then runs
 * synchronously over one shared graph and one set of facts. A rule that throws becomes a
 * `RULE_CRASHED` error: a check that could not run must not pass silently.
 */
import type {
  AgentWorkflow,
  Diagnostic,
  RefParseResult,
  Severity,
  SeveritySetting,
} from "../model/index.js";
import { flowGraph, WORKFLOW_TARGET } from "../model/index.js";
import { createFacts, nodeRefsOf } from "./facts.js";
import { interpolate } from "./message.js";
import { presetSettings } from "./presets.js";
import type { ResolvedRefs } from "./resolve.js";
import { resolveReferences, resolveReferencesSync } from "./resolve.js";
import { RULES } from "./rules/index.js";
import type { PresetName, Resolvers, Rule, RuleSetting, RuleSettings } from "./types.js";

/** Code of the diagnostic that replaces a rule which threw. */
export const RULE_CRASHED = "RULE_CRASHED";

/** Options of {@link createValidator}. */
export interface ValidatorConfig {
  /** The base settings; `recommended` by default. */
  readonly preset?: PresetName;
  /** Per-rule overrides: a severity (`off` silences) or `[severity, options]`. */
  readonly rules?: RuleSettings;
  readonly resolvers?: Resolvers;
  /** The rules to run; the built-in registry by default (hosts may add their own). */
  readonly ruleSet?: readonly Rule[];
}

/** A configured validator. */
export interface Validator {
  /** Validates with any resolvers (sync or async). */
  validate(workflow: AgentWorkflow): Promise<Diagnostic[]>;
  /** Validates synchronously; throws a `TypeError` if a resolver returns a promise. */
  validateSync(workflow: AgentWorkflow): Diagnostic[];
  /** The rules that run, with their effective severity, in run order. */
  readonly activeRules: readonly { readonly rule: Rule; readonly severity: Severity }[];
}

interface ActiveRule {
  readonly rule: Rule;
  readonly severity: Severity;
  readonly options: Readonly<Record<string, unknown>>;
}

function splitSetting(setting: RuleSetting): [SeveritySetting, Readonly<Record<string, unknown>>] {
  return typeof setting === "string" ? [setting, {}] : [setting[0], setting[1]];
}

function activate(config: ValidatorConfig): ActiveRule[] {
  const ruleSet = config.ruleSet ?? RULES;
  const base = presetSettings(config.preset ?? "recommended", ruleSet);
  const known = new Set(ruleSet.map((r) => r.meta.code));
  for (const code of Object.keys(config.rules ?? {})) {
    if (!known.has(code)) throw new TypeError(`createValidator: unknown rule '${code}'`);
  }
  const out: ActiveRule[] = [];
  for (const rule of ruleSet) {
    const code = rule.meta.code;
    const own =
      config.rules !== undefined && Object.hasOwn(config.rules, code)
        ? config.rules[code]
        : undefined;
    const [severity, options] = splitSetting(own ?? base[code] ?? rule.meta.defaultSeverity);
    if (severity !== "off") out.push({ rule, severity, options });
  }
  return out;
}

function runRules(
  workflow: AgentWorkflow,
  active: readonly ActiveRule[],
  resolved: ResolvedRefs,
  nodeRefs: readonly (RefParseResult | undefined)[],
): Diagnostic[] {
  const graph = flowGraph(workflow);
  const facts = createFacts(workflow, graph, resolved, nodeRefs);
  const out: Diagnostic[] = [];
  for (const { rule, severity, options } of active) {
    const { meta } = rule;
    try {
      rule.check({
        workflow,
        graph,
        facts,
        options,
        report: (r) => {
          const template = meta.messages[r.messageId ?? "default"] ?? meta.messages.default;
          const message = interpolate(template, r.data);
          const { target, path, data } = r;
          // One object per finding, built whole: a rule may report 100,000 of them.
          out.push(
            meta.remediation === undefined
              ? { code: meta.code, severity, message, target, path, data }
              : {
                  code: meta.code,
                  severity,
                  message,
                  target,
                  path,
                  data,
                  remediation: interpolate(meta.remediation, data),
                },
          );
        },
      });
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      out.push({
        code: RULE_CRASHED,
        severity: "error",
        message: `rule ${meta.code} failed on this workflow (${detail}); its check did not run`,
        remediation: "report this as a bug in agentflow (or in the custom rule)",
        target: WORKFLOW_TARGET,
        path: "",
        data: { rule: meta.code, error: detail },
      });
    }
  }
  return out;
}

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
  const active = activate(config);
  const resolvers = config.resolvers ?? {};
  return {
    activeRules: active.map(({ rule, severity }) => ({ rule, severity })),
    // The refs of the nodes are parsed once, for resolution and for the rules.
    async validate(workflow) {
      const refs = nodeRefsOf(workflow, flowGraph(workflow));
      return runRules(workflow, active, await resolveReferences(workflow, resolvers, refs), refs);
    },
    validateSync(workflow) {
      const refs = nodeRefsOf(workflow, flowGraph(workflow));
      return runRules(workflow, active, resolveReferencesSync(workflow, resolvers, refs), refs);
    },
  };
}

/**
 * True when no diagnostic is an error: an error blocks promotion, a warning never does.
 *
 * @example
 * ```ts
 * import { getTemplate, WORKFLOW_TARGET } from "agentflow/model";
 * import { createValidator, isPromotable } from "agentflow/validate";
 *
 * const research = getTemplate("research");
 * if (research === undefined) throw new Error("no such template");
 * const diagnostics = createValidator().validateSync(research);
 * diagnostics; // → []
 * isPromotable(diagnostics); // → true
 *
 * // a warning never blocks promotion; an error does
 * const finding = { code: "BUDGET_MISSING", message: "", target: WORKFLOW_TARGET, path: "", data: {} };
 * isPromotable([{ ...finding, severity: "warning" }]); // → true
 * isPromotable([{ ...finding, severity: "error" }]); // → false
 * ```
 */
export function isPromotable(diagnostics: readonly Diagnostic[]): boolean {
  return !diagnostics.some((d) => d.severity === "error");
}
