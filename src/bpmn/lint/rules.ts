/**
 * The plugin's rules as bpmnlint rule factories (SPEC 7). bpmnlint runs each rule over the moddle
 * tree it parsed; every agentflow rule looks at the root `bpmn:Definitions` only, evaluates the
 * gates there (once for all rules configured alike, see {@link createRules}) and reports its
 * share of the findings: a gate rule those of its code, `policy` those of policy packs and
 * plugins, `waived` those a waiver covers (report.ts).
 */
import type { CompiledPack } from "../../policy/index.js";
import { DOCS_BASE_URL, ruleHelpUri } from "../../rules/index.js";
import type { GateDecision } from "../evaluate.js";
import type { CompiledGateOptions, GateOptions } from "../gate-options.js";
import { evaluateGatesSync } from "../evaluate.js";
import { compiledOptions } from "../compiled-options.js";
import { namedDecision } from "../evaluate-labels.js";
import type { ModdleObject } from "../moddle.js";
import { BPMN_RULES } from "../rules/index.js";
import type { AgentflowRuleName, PluginRuleName, PolicyRuleName } from "./names.js";
import { AGENTFLOW_RULE_NAMES, PLUGIN_RULE_NAMES, ruleCode } from "./names.js";
import type { LintSettings } from "./options.js";
import { settingsKey, settingsOf, todayProblem, waiversProblems } from "./options.js";
import type { PackFileSystem } from "./pack-read.js";
import { nodeFileSystem, PackCache, readPacks, runningProcess } from "./pack-read.js";
import { misconfigured, reportCode, reportPolicy, reportWaived } from "./report.js";
import type { BpmnlintRule, BpmnlintRuleFactory } from "./types.js";

export type { AgentflowRuleName, PluginRuleName, PolicyRuleName } from "./names.js";
export { AGENTFLOW_RULE_NAMES, PLUGIN_RULE_NAMES, POLICY_RULE_NAMES, ruleCode } from "./names.js";

/** The plugin's rules by name, as a bpmnlint plugin exports them. */
export type AgentflowRules = Readonly<Record<PluginRuleName, BpmnlintRuleFactory>>;

/**
 * What every rule made by {@link createRules} evaluates with: the host's resolvers (bpmn-js
 * with a registry at hand), its gate predicate, workflow validation, plugins, and the policy
 * packs, waivers and day that rules without their own take. Severities are bpmnlint's business,
 * so `rules` is not among them.
 */
export type AgentflowLintOptions = Omit<GateOptions, "rules">;

/** Where the `policy` and `waived` rules are explained. */
const POLICY_DOCS: Readonly<Record<PolicyRuleName, string>> = {
  policy: new URL("../policies.md", DOCS_BASE_URL).href,
  waived: new URL("../policies.md#waivers", DOCS_BASE_URL).href,
};

/**
 * The host's settings, checked now: packs it names that do not compile, a malformed waiver or
 * day is a `TypeError` from {@link createRules}, not a failure of every lint pass after it.
 */
function hostSettings(options: AgentflowLintOptions, fs: PackFileSystem | undefined): LintSettings {
  let packs: readonly CompiledPack[] = [];
  if (options.policies !== undefined) {
    const read = readPacks(options.policies, "createRules: policies", fs);
    if ("problems" in read) throw new TypeError(read.problems.join("\n"));
    packs = read.packs;
  }
  const problems = options.waivers === undefined ? [] : waiversProblems(options.waivers, "waivers");
  const dayProblem = options.today === undefined ? undefined : todayProblem(options.today, "today");
  if (dayProblem !== undefined) problems.push(dayProblem);
  if (problems.length > 0) throw new TypeError(`createRules: ${problems.join("; ")}`);
  return {
    policy: options.policy?.camundaAgents ?? "gate-required",
    ...(options.gates === undefined ? {} : { gates: options.gates }),
    ...(options.toolEffects === undefined ? {} : { toolEffects: options.toolEffects }),
    packs,
    waivers: options.waivers ?? [],
    ...(options.today === undefined ? {} : { today: options.today }),
  };
}

/**
 * Makes the plugin's rule factories. The rules share one evaluation per definitions and
 * settings: the first rule to run on a `bpmn:Definitions` evaluates the gates, the others read
 * the cached decision. The entry is dropped in a microtask, once bpmnlint's synchronous pass
 * over its rules is over, because bpmn-js lints the same (mutated) definitions object after every
 * edit and must not see the decision of the previous pass. `options.policies` (compiled packs or
 * plain data), `waivers` and `today` are what rules without their own options use.
 *
 * @throws TypeError when a pack of `options.policies` does not compile (naming every problem),
 * or a waiver or `today` is malformed.
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
  const fs = nodeFileSystem(runningProcess());
  const fallback = hostSettings(options, fs);
  const packCache = new PackCache();
  // One evaluation per definitions and settings: rules configured alike share it.
  const cache = new WeakMap<ModdleObject, Map<string, GateDecision>>();
  // One options object per settings, kept across lints: what is derived from it once (the rules'
  // wording in namedDecision) is then derived once per settings, not once per lint.
  const optionsByKey = new Map<string, CompiledGateOptions>();
  const optionsOf = (key: string, settings: LintSettings): CompiledGateOptions => {
    let gateOptions = optionsByKey.get(key);
    if (gateOptions === undefined) {
      gateOptions = compiledOptions({
        ...options,
        policy: { ...options.policy, camundaAgents: settings.policy },
        ...(settings.gates === undefined ? {} : { gates: settings.gates }),
        ...(settings.toolEffects === undefined ? {} : { toolEffects: settings.toolEffects }),
        policies: settings.packs,
        waivers: settings.waivers,
        ...(settings.today === undefined ? {} : { today: settings.today }),
      });
      optionsByKey.set(key, gateOptions);
    }
    return gateOptions;
  };
  const evaluate = (definitions: ModdleObject, settings: LintSettings): GateDecision => {
    let bySettings = cache.get(definitions);
    if (bySettings === undefined) {
      bySettings = new Map();
      cache.set(definitions, bySettings);
      queueMicrotask(() => cache.delete(definitions));
    }
    const key = settingsKey(settings);
    let decision = bySettings.get(key);
    if (decision === undefined) {
      const gateOptions = optionsOf(key, settings);
      // Shown to a person drawing the process: elements by their names (evaluate-labels.ts).
      decision = namedDecision(
        evaluateGatesSync(definitions, gateOptions),
        definitions,
        gateOptions,
      );
      bySettings.set(key, decision);
    }
    return decision;
  };
  const factory = (name: PluginRuleName): BpmnlintRuleFactory => {
    const gate = (AGENTFLOW_RULE_NAMES as readonly string[]).includes(name);
    const code = gate ? ruleCode(name as AgentflowRuleName) : undefined;
    if (code !== undefined && !BPMN_RULES.some((rule) => rule.meta.code === code)) {
      throw new Error(`agentflow: the bpmnlint rule ${name} has no BPMN rule ${code}`);
    }
    const url = code === undefined ? POLICY_DOCS[name as PolicyRuleName] : ruleHelpUri(code);
    return (config) => {
      const read = settingsOf(config, fallback, name === "policy", fs, packCache);
      if ("problems" in read) return misconfigured(name, url, read.problems);
      const { settings, severities } = read;
      // A host's plugins are enough for `policy` to report: it has their findings to show.
      const plugins = Object.keys(options.plugins ?? {}).length;
      if (name === "policy" && settings.packs.length === 0 && plugins === 0) {
        const problem =
          "no policy packs: give 'policies', each a pack as data or the path of a YAML or JSON pack file";
        return misconfigured(name, url, [problem]);
      }
      const rule: BpmnlintRule = {
        meta: { documentation: { url } },
        check(element, reporter) {
          if (element.$type === "bpmn:Definitions") {
            const decision = evaluate(element, settings);
            if (code !== undefined) reportCode(element, decision, code, reporter);
            else if (name === "policy") reportPolicy(element, decision, severities, reporter);
            else reportWaived(element, decision, reporter);
          }
          // Only the root matters: skipping the descent saves a walk of the whole tree per rule.
          return false;
        },
      };
      return rule;
    };
  };
  const out: Partial<Record<PluginRuleName, BpmnlintRuleFactory>> = {};
  for (const name of PLUGIN_RULE_NAMES) out[name] = factory(name);
  return Object.freeze(out as Record<PluginRuleName, BpmnlintRuleFactory>);
}
