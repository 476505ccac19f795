/**
 * The validator (SPEC 3): built once from a preset, rule settings and resolvers, then run on any
 * number of workflows. Resolution happens first (sync or async); every rule then runs
 * synchronously over one shared graph and one set of facts. A rule that throws becomes a
 * `RULE_CRASHED` error: a check that could not run must not pass silently.
 */
import type { AgentWorkflow, Diagnostic, Severity, SeveritySetting } from "../model/index.js";
import { flowGraph, WORKFLOW_TARGET } from "../model/index.js";
import { createFacts } from "./facts.js";
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
): Diagnostic[] {
  const graph = flowGraph(workflow);
  const facts = createFacts(workflow, graph, resolved);
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
          const diagnostic: Diagnostic = {
            code: meta.code,
            severity,
            message: interpolate(template, r.data),
            target: r.target,
            path: r.path,
            data: r.data,
          };
          out.push(
            meta.remediation === undefined
              ? diagnostic
              : { ...diagnostic, remediation: interpolate(meta.remediation, r.data) },
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
 */
export function createValidator(config: ValidatorConfig = {}): Validator {
  const active = activate(config);
  const resolvers = config.resolvers ?? {};
  return {
    activeRules: active.map(({ rule, severity }) => ({ rule, severity })),
    async validate(workflow) {
      return runRules(workflow, active, await resolveReferences(workflow, resolvers));
    },
    validateSync(workflow) {
      return runRules(workflow, active, resolveReferencesSync(workflow, resolvers));
    },
  };
}

/** True when no diagnostic is an error: an error blocks promotion, a warning never does. */
export function isPromotable(diagnostics: readonly Diagnostic[]): boolean {
  return !diagnostics.some((d) => d.severity === "error");
}
