/**
 * The validator (SPEC 3): built once from a preset, rule settings and resolvers, then run on any
 * number of workflows. Resolution happens first (sync or async); every rule then runs
 * synchronously over one shared graph and one set of facts. A rule that throws becomes a
 * `RULE_CRASHED` error: a check that could not run must not pass silently.
 */
import type {
  AgentWorkflow,
  Diagnostic,
  FlowGraph,
  RefParseResult,
  Severity,
} from "../model/index.js";
import { flowGraph, hasErrors, WORKFLOW_TARGET } from "../model/index.js";
import type { WorkflowView } from "../policy/index.js";
import { createFacts, nodeRefsOf } from "./facts.js";
import { graphQuestions, readWorkflow, resolvedContract } from "./view.js";
import type { PolicyInput } from "./policies.js";
import type { ActiveRule as KitActiveRule } from "../rules/internal.js";
import type { CompiledPack, Waiver } from "../policy/index.js";
import { applyWaivers, todayUtc } from "../policy/waive.js";
import type { Plugin } from "../rules/index.js";
import { RULE_CRASHED } from "../rules/index.js";
import {
  interpolate,
  optionsProblem,
  pluginRules,
  runRules,
  splitSetting,
} from "../rules/internal.js";
import { presetSettings } from "./presets.js";
import { resolveReferences, resolveReferencesSync } from "./resolve.js";
import { RULES } from "./rules/index.js";
import type {
  Facts,
  PresetName,
  Report,
  ResolvedRefs,
  Resolvers,
  Rule,
  RuleContext,
  RuleSettings,
} from "./types.js";

export { RULE_CRASHED };

/** Options of {@link createValidator}. */
export interface ValidatorConfig {
  /** The base settings; `recommended` by default. */
  readonly preset?: PresetName;
  /** Per-rule overrides: a severity (`off` silences) or `[severity, options]`. */
  readonly rules?: RuleSettings;
  readonly resolvers?: Resolvers;
  /** The rules to run; the built-in registry by default (hosts may add their own). */
  readonly ruleSet?: readonly Rule[];
  /**
   * Plugins by the name their rules are prefixed with (`{ acme: plugin }` runs `acme/<CODE>`);
   * their workflow rules run after `ruleSet`, at their default severity unless `rules` sets one.
   */
  readonly plugins?: Readonly<Record<string, Plugin>>;
  /**
   * Policy packs (compiled, or as plain data): their `workflow` and `tool` rules run after the
   * plugins', coded `<pack>/<id>` (docs/policies.md).
   */
  readonly policies?: readonly PolicyInput[];
  /** Waivers: a covered finding stays, marked `waived`, and no longer blocks (docs/policies.md). */
  readonly waivers?: readonly Waiver[];
  /** The day waivers are judged on, `YYYY-MM-DD`; today (UTC) by default. */
  readonly today?: string;
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

type ActiveRule = KitActiveRule<RuleContext>;

/** The rules a config runs: its rule set, then its plugins' and its packs' workflow rules. */
function ruleSetOf(config: ValidatorConfig, packs: readonly CompiledPack[]): readonly Rule[] {
  const base = config.ruleSet ?? RULES;
  if (config.plugins === undefined && packs.length === 0) return base;
  return [
    ...base,
    ...(pluginRules(config.plugins ?? {}, "workflow") as Rule[]),
    ...packs.flatMap((pack) => pack.workflowRules as readonly Rule[]),
  ];
}

function activate(config: ValidatorConfig, packs: readonly CompiledPack[]): ActiveRule[] {
  const ruleSet = ruleSetOf(config, packs);
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
    const problem = optionsProblem(rule.meta.schema, options);
    if (problem !== undefined) throw new TypeError(`createValidator: rule '${code}': ${problem}`);
    if (severity !== "off") out.push({ rule, severity, options });
  }
  return out;
}

/** The readable view of a workflow, from the facts one validation shares. */
function workflowViewOf(workflow: AgentWorkflow, graph: FlowGraph, facts: Facts): WorkflowView {
  const reading = readWorkflow(
    workflow,
    facts.nodeRefs(),
    (ref) => resolvedContract(facts.resolved.tools.get(ref)),
    facts.autonomyLevel(),
  );
  return { workflow: reading.facts, toolCalls: reading.toolCalls, ...graphQuestions(graph) };
}

function runAll(
  workflow: AgentWorkflow,
  active: readonly ActiveRule[],
  resolved: ResolvedRefs,
  nodeRefs: readonly (RefParseResult | undefined)[],
): Diagnostic[] {
  const graph = flowGraph(workflow);
  const facts = createFacts(workflow, graph, resolved, nodeRefs);
  // Built when a rule first reads it: the built-in rules read the engine's own indexes.
  let view: WorkflowView | undefined;
  const viewOf = (): WorkflowView => {
    view ??= workflowViewOf(workflow, graph, facts);
    return view;
  };
  return runRules<RuleContext, Report>(active, {
    context: (report, options) => ({
      workflow,
      graph,
      facts,
      options,
      report,
      get view() {
        return viewOf();
      },
    }),
    diagnostic(meta, severity, r, message) {
      const { target, path, data } = r;
      // One object per finding, built whole: a rule may report 100,000 of them.
      return meta.remediation === undefined
        ? { code: meta.code, severity, message, target, path, data }
        : {
            code: meta.code,
            severity,
            message,
            target,
            path,
            data,
            remediation: interpolate(meta.remediation, data),
          };
    },
    crashed: (meta, detail) => ({
      code: RULE_CRASHED,
      severity: "error",
      message: `rule ${meta.code} failed on this workflow (${detail}); its check did not run`,
      remediation: "report this as a bug in agentflow (or in the custom rule)",
      target: WORKFLOW_TARGET,
      path: "",
      data: { rule: meta.code, error: detail },
    }),
  });
}

/**
 * The waivers of the config and its packs, applied to one workflow's findings: every finding of
 * a workflow is about that workflow (`id@version`). Checked once, when the validator is built.
 */
function waiverStep(
  config: ValidatorConfig,
  packs: readonly CompiledPack[],
): (workflow: AgentWorkflow, diagnostics: Diagnostic[]) => Diagnostic[] {
  const waivers = [...(config.waivers ?? []), ...packs.flatMap((p) => p.waivers)];
  if (waivers.length === 0) return (_, diagnostics) => diagnostics;
  const today = config.today ?? todayUtc();
  // A malformed waiver or date is API misuse, said at once rather than on the first document.
  applyWaivers([], waivers, () => undefined, NO_SUBJECTS, today, packs);
  return (workflow, diagnostics) => {
    const ref = `${workflow.id}@${workflow.version}`;
    const present = { processes: new Map(), workflows: new Set([ref]) };
    const { diagnostics: marked, findings } = applyWaivers(
      diagnostics,
      waivers,
      () => ({ workflow: ref }),
      present,
      today,
      packs,
    );
    return [...marked, ...findings];
  };
}

const NO_SUBJECTS = { processes: new Map(), workflows: new Set<string>() };

/**
 * `createValidator` with its packs compiled already (`config.policies` is not read): what
 * the gate evaluation builds, so that code which holds compiled packs, as the modeller's engine
 * does, reaches no pack compiler.
 */
export function validatorWith(config: ValidatorConfig, packs: readonly CompiledPack[]): Validator {
  const active = activate(config, packs);
  const resolvers = config.resolvers ?? {};
  const waive = waiverStep(config, packs);
  return {
    activeRules: active.map(({ rule, severity }) => ({ rule, severity })),
    // The refs of the nodes are parsed once, for resolution and for the rules.
    async validate(workflow) {
      const refs = nodeRefsOf(workflow, flowGraph(workflow));
      const resolved = await resolveReferences(workflow, resolvers, refs);
      return waive(workflow, runAll(workflow, active, resolved, refs));
    },
    validateSync(workflow) {
      const refs = nodeRefsOf(workflow, flowGraph(workflow));
      const resolved = resolveReferencesSync(workflow, resolvers, refs);
      return waive(workflow, runAll(workflow, active, resolved, refs));
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
  return !hasErrors(diagnostics);
}
