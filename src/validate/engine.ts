/**
 * The validator (SPEC 3): built once from a preset, rule settings and resolvers, then run on any
 * number of workflows. Resolution happens first (sync or async); every rule then runs
 * synchronously over one shared graph and one set of facts. While DELEGATE_INVALID runs, each
 * resolved delegate is validated too, once, under the same configuration. A rule that throws
 * becomes a `RULE_CRASHED` error: a check that could not run must not pass silently.
 */
import type {
  AgentWorkflow,
  Diagnostic,
  FlowGraph,
  RefParseResult,
  Severity,
} from "../model/index.js";
import { flowGraph, hasErrors, WORKFLOW_TARGET } from "../model/index.js";
import type { CompiledPack, Waiver, WorkflowView } from "../policy/index.js";
import type { Plugin } from "../rules/index.js";
import { RULE_CRASHED } from "../rules/index.js";
import { interpolate, reportTarget, runRules, stringField } from "../rules/internal.js";
import type { ActiveRule } from "./active-rules.js";
import { activate } from "./active-rules.js";
import type { DelegateJudge } from "./delegate-verdicts.js";
import { DELEGATE_INVALID, judgeDelegates } from "./delegate-verdicts.js";
import { createFacts, nodeRefsOf } from "./facts.js";
import type { PolicyInput } from "./policies.js";
import type { DelegateNodeRefs } from "./resolve.js";
import { resolveReferences, resolveReferencesSync } from "./resolve.js";
import { RULES } from "./rules/index.js";
import type {
  DelegateVerdict,
  Facts,
  PresetName,
  Report,
  ResolvedRefs,
  Resolvers,
  Rule,
  RuleContext,
  RuleSettings,
} from "./types.js";
import { graphQuestions, readWorkflow, resolvedContract } from "./view.js";
import type { WaiverStep } from "./waiver-step.js";
import { waiverStep } from "./waiver-step.js";

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
  verdicts?: () => ReadonlyMap<string, DelegateVerdict>,
): Diagnostic[] {
  const graph = flowGraph(workflow);
  const facts = createFacts(workflow, graph, resolved, nodeRefs, verdicts);
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
    accept: (r, data) => ({
      target: reportTarget(r),
      path: stringField(r, "path", 'a JSON Pointer string ("" for the whole workflow)'),
      data,
    }),
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

/** How a config judges delegates (DELEGATE_INVALID), built once with the validator. */
interface DelegateRules {
  /** Every rule the config runs but those the caller judges for the chain, at its severity. */
  readonly active: readonly ActiveRule[];
  readonly propagates: boolean;
}

/**
 * Not run on each delegate: DELEGATE_CYCLE and DELEGATE_UNRESOLVED are the caller's, which sees
 * every cycle and every unread delegate its delegates reach (unresolved-below.ts), and
 * DELEGATE_INVALID is computed over the whole chain at once (delegate-verdicts.ts).
 */
const NOT_JUDGED_PER_DELEGATE = new Set([
  "DELEGATE_CYCLE",
  "DELEGATE_UNRESOLVED",
  DELEGATE_INVALID,
]);

/**
 * The delegate rules of a config, or `undefined` when DELEGATE_INVALID does not run. A delegate
 * is judged by the built-in rules and the config's own rule set, plugins and packs, with its
 * preset, settings and waivers: a rule set that leaves a built-in rule out (as the rule tester's
 * does) checks less of the workflow in hand, never less of the agents it hands work to.
 */
function delegateRulesOf(
  config: ValidatorConfig,
  packs: readonly CompiledPack[],
  active: readonly ActiveRule[],
): DelegateRules | undefined {
  const own = active.find(({ rule }) => rule.meta.code === DELEGATE_INVALID);
  if (own === undefined) return undefined;
  const custom = config.ruleSet;
  const codes = new Set(custom?.map((r) => r.meta.code));
  const ruleSet =
    custom === undefined ? RULES : [...custom, ...RULES.filter((r) => !codes.has(r.meta.code))];
  const all = activate({ ...config, ruleSet }, packs);
  return {
    active: all.filter(({ rule }) => !NOT_JUDGED_PER_DELEGATE.has(rule.meta.code)),
    propagates: own.severity === "error",
  };
}

/** A DELEGATE_INVALID finding about a workflow, to ask whether a waiver covers those. */
const PROBE: Diagnostic = {
  code: DELEGATE_INVALID,
  severity: "error",
  message: "",
  target: WORKFLOW_TARGET,
  path: "",
  data: {},
};

/** The judge of one validation's delegates: its resolved refs are theirs. */
function judgeOf(rules: DelegateRules, resolved: ResolvedRefs, waive: WaiverStep): DelegateJudge {
  return {
    findings: (wf, refs) =>
      waive.mark(`${wf.id}@${wf.version}`, runAll(wf, rules.active, resolved, refs)),
    propagates: rules.propagates,
    waived: (ref) => waive.mark(ref, [PROBE])[0]?.waived !== undefined,
  };
}

/**
 * `createValidator` with its packs compiled already (`config.policies` is not read): what
 * the gate evaluation builds, so that code which holds compiled packs, as the modeller's engine
 * does, reaches no pack compiler.
 */
export function validatorWith(config: ValidatorConfig, packs: readonly CompiledPack[]): Validator {
  const active = activate(config, packs);
  const resolvers = config.resolvers ?? {};
  const waive = waiverStep(config.waivers, config.today, packs);
  const delegateRules = delegateRulesOf(config, packs, active);
  // The delegates' own tools and prompts are looked up only when they are to be judged.
  const delegateRefs = (): DelegateNodeRefs | undefined =>
    delegateRules === undefined ? undefined : new Map();
  const finish = (
    workflow: AgentWorkflow,
    refs: readonly (RefParseResult | undefined)[],
    resolved: ResolvedRefs,
    nodeRefs: DelegateNodeRefs | undefined,
  ): Diagnostic[] => {
    const verdicts =
      delegateRules === undefined || nodeRefs === undefined
        ? undefined
        : () =>
            judgeDelegates(workflow, resolved, nodeRefs, judgeOf(delegateRules, resolved, waive));
    return waive.apply(workflow, runAll(workflow, active, resolved, refs, verdicts));
  };
  return {
    activeRules: active.map(({ rule, severity }) => ({ rule, severity })),
    // The refs of the nodes are parsed once, for resolution and for the rules.
    async validate(workflow) {
      const refs = nodeRefsOf(workflow, flowGraph(workflow));
      const nodeRefs = delegateRefs();
      const resolved = await resolveReferences(workflow, resolvers, refs, nodeRefs);
      return finish(workflow, refs, resolved, nodeRefs);
    },
    validateSync(workflow) {
      const refs = nodeRefsOf(workflow, flowGraph(workflow));
      const nodeRefs = delegateRefs();
      const resolved = resolveReferencesSync(workflow, resolvers, refs, nodeRefs);
      return finish(workflow, refs, resolved, nodeRefs);
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
