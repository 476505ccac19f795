/**
 * The gate rules as bpmnlint rule factories (SPEC 7). bpmnlint runs each rule over the moddle
 * tree it parsed; every agentflow rule looks at the root `bpmn:Definitions` only, evaluates the
 * gates there (once for all its rules, see {@link createRules}) and reports the diagnostics of
 * its own code.
 */
import type { Diagnostic } from "../../model/index.js";
import { canonicalJson } from "../../model/index.js";
import type { ToolEffectsMapping } from "../camunda/index.js";
import { toolEffectsProblems } from "../camunda/index.js";
import type { GateSelector } from "../gate-select.js";
import { gateSelectorProblems } from "../gate-select.js";
import { ruleHelpUri } from "../../report/rule-descriptor.js";
import type { GateDecision, GateOptions } from "../evaluate.js";
import { evaluateGatesSync } from "../evaluate.js";
import type { ModdleObject } from "../moddle.js";
import { BPMN_RULES } from "../rules/index.js";
import type { UnknownLevelPolicy } from "../types.js";
import { unknownPolicyProblem } from "../types.js";
import { pathBelow } from "./path.js";
import type { BpmnlintReporter, BpmnlintRule, BpmnlintRuleFactory } from "./types.js";

/**
 * The plugin's rule names, in run order: the kebab-case of each gate rule's code. `BPMN_PARSE`
 * has no rule here because bpmnlint parses the XML itself and reports its own import warnings.
 */
export const AGENTFLOW_RULE_NAMES = [
  "sequence-flow-crosses-scope",
  "btv-namespace-mismatch",
  "agent-ref-invalid",
  "agent-autonomy-invalid",
  "agent-ref-conflict",
  "agent-unresolved",
  "agent-lookup-invalid",
  "agent-dependency-unresolved",
  "agent-autonomy-mismatch",
  "agent-workflow-invalid",
  "tool-effect-invalid",
  "camunda-tool-effect-unmapped",
  "camunda-agent-unbounded",
  "agent-gate-unreachable",
  "agent-gate-bypass",
  "agent-gate-optional",
  "tool-effect-needs-gate",
] as const;

/** The name of one of the plugin's rules. */
export type AgentflowRuleName = (typeof AGENTFLOW_RULE_NAMES)[number];

/** The plugin's rules by name, as a bpmnlint plugin exports them. */
export type AgentflowRules = Readonly<Record<AgentflowRuleName, BpmnlintRuleFactory>>;

/**
 * The agentflow code of a rule name (`agent-gate-bypass` → `AGENT_GATE_BYPASS`).
 *
 * @example
 * ```ts
 * import { ruleCode } from "agentflow/bpmnlint";
 *
 * ruleCode("agent-gate-bypass"); // → "AGENT_GATE_BYPASS"
 * ```
 */
export function ruleCode(name: AgentflowRuleName): string {
  return name.toUpperCase().replaceAll("-", "_");
}

/**
 * What every rule made by {@link createRules} evaluates with: the host's resolvers (bpmn-js
 * with a registry at hand), its gate predicate and workflow validation. Severities are bpmnlint's
 * business, so `rules` is not among them.
 */
export type AgentflowLintOptions = Omit<GateOptions, "rules">;

/** What a rule's JSON options set: the Camunda policy, the gate selectors, the tool effects. */
interface LintSettings {
  readonly policy: UnknownLevelPolicy;
  readonly gates?: readonly GateSelector[];
  readonly toolEffects?: ToolEffectsMapping;
}

const OPTION_KEYS = ["camundaAgents", "gates", "toolEffects"];

/**
 * Reads a rule's JSON options over the host's, or the one-line problem with them. A typo would
 * otherwise silently keep the default policy, or count no gate the organisation declared.
 */
function settingsOf(
  config: unknown,
  fallback: LintSettings,
): { readonly settings: LintSettings } | { readonly problem: string } {
  if (config === undefined || config === null) return { settings: fallback };
  if (typeof config !== "object" || Array.isArray(config)) {
    return { problem: "the rule's options must be an object" };
  }
  for (const key of Object.keys(config)) {
    if (!OPTION_KEYS.includes(key))
      return { problem: `unknown option '${key}' (known: ${OPTION_KEYS.join(", ")})` };
  }
  const { camundaAgents, gates, toolEffects } = config as Readonly<Record<string, unknown>>;
  const problem =
    (camundaAgents === undefined
      ? undefined
      : unknownPolicyProblem("camundaAgents", camundaAgents)) ??
    (gates === undefined ? undefined : gateSelectorProblems(gates, "gates")[0]) ??
    (toolEffects === undefined ? undefined : toolEffectsProblems(toolEffects)[0]);
  if (problem !== undefined) return { problem };
  return {
    settings: {
      policy: (camundaAgents as UnknownLevelPolicy | undefined) ?? fallback.policy,
      ...(gates === undefined
        ? fallback.gates === undefined
          ? {}
          : { gates: fallback.gates }
        : { gates: gates as readonly GateSelector[] }),
      ...(toolEffects === undefined
        ? fallback.toolEffects === undefined
          ? {}
          : { toolEffects: fallback.toolEffects }
        : { toolEffects: toolEffects as ToolEffectsMapping }),
    },
  };
}

/**
 * A misconfigured rule: it reports its one-line problem on the root, once per lint pass, where
 * bpmnlint's CLI prints it in its table and bpmn-js shows it on the diagram. A throw would end
 * the whole lint pass with a stack trace and lint nothing.
 */
function misconfigured(name: string, code: string, problem: string): BpmnlintRule {
  return {
    meta: { documentation: { url: ruleHelpUri(code) } },
    check(element, reporter) {
      if (element.$type === "bpmn:Definitions") {
        const id = typeof element.id === "string" ? element.id : "";
        reporter.report(id, `agentflow/${name}: ${problem}; the rule did not run`);
      }
      return false;
    },
  };
}

/** The reports of one code, with the rule's crash turned back into a throw for bpmnlint. */
function reportCode(
  definitions: ModdleObject,
  decision: GateDecision,
  code: string,
  reporter: BpmnlintReporter,
): void {
  for (const diagnostic of [...decision.blocking, ...decision.warnings]) {
    if (diagnostic.code === "RULE_CRASHED" && diagnostic.data.rule === code) {
      // bpmnlint shows a throwing rule as a `rule-error` of that rule, which is what this is.
      throw new Error(diagnostic.message);
    }
    if (diagnostic.code !== code) continue;
    report(definitions, diagnostic, reporter);
  }
}

function report(definitions: ModdleObject, d: Diagnostic, reporter: BpmnlintReporter): void {
  const elementId = d.target.kind === "bpmn-element" ? d.target.elementId : "";
  const path = pathBelow(definitions, d.path, elementId);
  if (path === undefined) reporter.report(elementId, d.message);
  else reporter.report(elementId, d.message, path);
}

/**
 * Makes the plugin's rule factories. The rules share one evaluation per definitions and
 * policy: the first rule to run on a `bpmn:Definitions` evaluates the gates, the others read the
 * cached decision. The entry is dropped in a microtask, once bpmnlint's synchronous pass over
 * its rules is over, because bpmn-js lints the same (mutated) definitions object after every
 * edit and must not see the decision of the previous pass.
 *
 * @example
 * ```ts
 * import { readProcess } from "agentflow/bpmn";
 * import { createRules } from "agentflow/bpmnlint";
 * import { getTemplate } from "agentflow/model";
 *
 * const xml = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
 *     xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="MarketStudy" targetNamespace="https://example.com">
 *   <bpmn:process id="Study" isExecutable="true">
 *     <bpmn:startEvent id="Start" />
 *     <bpmn:serviceTask id="Research">
 *       <bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-rsch@2.1.0" /></bpmn:extensionElements>
 *     </bpmn:serviceTask>
 *     <bpmn:userTask id="Review" />
 *     <bpmn:endEvent id="End" />
 *     <bpmn:sequenceFlow id="F1" sourceRef="Start" targetRef="Research" />
 *     <bpmn:sequenceFlow id="F2" sourceRef="Research" targetRef="Review" />
 *     <bpmn:sequenceFlow id="F3" sourceRef="Review" targetRef="End" />
 *   </bpmn:process>
 * </bpmn:definitions>`;
 * // rules that resolve workflows from the host's registry, for bpmnlint's StaticResolver
 * const rules = createRules({
 *   resolveWorkflow: (ref) => (ref === "agnt-rsch@2.1.0" ? getTemplate("research") : undefined),
 * });
 *
 * // what bpmnlint does with a rule: build it with the rule's options, then check the root element
 * const rule = rules["agent-gate-unreachable"]({ camundaAgents: "gate-required" });
 * const { definitions } = await readProcess(xml);
 * if (definitions === undefined) throw new Error("unreadable");
 * const reports: string[] = [];
 * rule.check(definitions, { report: (id, message) => reports.push(`${id}: ${message}`) });
 * reports;
 * // → [
 * //     'Research: agent task "Research" (autonomy level 2) needs an approval gate downstream, ' +
 * //       'but no gate is reachable from it; the user task "Review" after it is no gate unless ' +
 * //       'declared: mark one <btv:gate/>, or select it in agentflow.config.json "gates" ' +
 * //       "(by candidate group, template, property or id)",
 * //   ]
 * ```
 */
export function createRules(options: AgentflowLintOptions = {}): AgentflowRules {
  // One evaluation per definitions and settings: rules configured alike share it.
  const cache = new WeakMap<ModdleObject, Map<string, GateDecision>>();
  const evaluate = (definitions: ModdleObject, settings: LintSettings): GateDecision => {
    let bySettings = cache.get(definitions);
    if (bySettings === undefined) {
      bySettings = new Map();
      cache.set(definitions, bySettings);
      queueMicrotask(() => cache.delete(definitions));
    }
    const key = canonicalJson(settings);
    let decision = bySettings.get(key);
    if (decision === undefined) {
      decision = evaluateGatesSync(definitions, {
        ...options,
        policy: { ...options.policy, camundaAgents: settings.policy },
        ...(settings.gates === undefined ? {} : { gates: settings.gates }),
        ...(settings.toolEffects === undefined ? {} : { toolEffects: settings.toolEffects }),
      });
      bySettings.set(key, decision);
    }
    return decision;
  };
  const fallback: LintSettings = {
    policy: options.policy?.camundaAgents ?? "gate-required",
    ...(options.gates === undefined ? {} : { gates: options.gates }),
    ...(options.toolEffects === undefined ? {} : { toolEffects: options.toolEffects }),
  };
  const factory = (name: AgentflowRuleName): BpmnlintRuleFactory => {
    const code = ruleCode(name);
    if (!BPMN_RULES.some((rule) => rule.meta.code === code)) {
      throw new Error(`agentflow: the bpmnlint rule ${name} has no BPMN rule ${code}`);
    }
    return (config) => {
      const read = settingsOf(config, fallback);
      if ("problem" in read) return misconfigured(name, code, read.problem);
      const { settings } = read;
      const rule: BpmnlintRule = {
        meta: { documentation: { url: ruleHelpUri(code) } },
        check(element, reporter) {
          if (element.$type === "bpmn:Definitions") {
            reportCode(element, evaluate(element, settings), code, reporter);
          }
          // Only the root matters: skipping the descent saves a walk of the whole tree per rule.
          return false;
        },
      };
      return rule;
    };
  };
  const out: Partial<Record<AgentflowRuleName, BpmnlintRuleFactory>> = {};
  for (const name of AGENTFLOW_RULE_NAMES) out[name] = factory(name);
  return Object.freeze(out as Record<AgentflowRuleName, BpmnlintRuleFactory>);
}
