/**
 * A project's `agentflow.config.json`, read inside the Camunda Modeler, turned into what the
 * Modeler's linting runs: the options of agentflow's bpmnlint rules (gates, tool effects, the
 * Camunda policy, waivers, policy packs, workflow validation) and each rule's category.
 *
 * The Modeler's window forbids generated code (`script-src 'self'`), so the config is not
 * checked with the CLI's compiled JSON Schema: every setting the Modeler applies is checked by
 * hand here, with the sentences the library's own checks write, and an unknown setting is a
 * problem, as with the CLI. What the Modeler cannot apply is said: as a problem when leaving it
 * out could hide a finding (`extends`, `plugins`, `registry`: a snapshot standing in for the
 * registry's document may be laxer), as a note when the lint is stricter without it (`ignores`,
 * a pack's or plugin's rule severity). Fail closed: a problem is an error in the Problems panel,
 * and the rules then run without that setting, never silently.
 */
import type { SeveritySetting } from "../model/index.js";
import { pointer } from "../model/index.js";
import type { ToolEffectsMapping, UnknownLevelPolicy } from "../bpmn/index.js";
import {
  BPMN_RULES,
  gateSelectorProblems,
  toolEffectsProblems,
  unknownPolicyProblem,
} from "../bpmn/index.js";
import type { GateSelector } from "../bpmn/gate-select.js";
import type { AgentflowLintOptions, BpmnlintCategory } from "../bpmn/lint/index.js";
import { AGENTFLOW_RULE_NAMES, configs, ruleCode } from "../bpmn/lint/index.js";
import type { Waiver } from "../policy/index.js";
import { waiverProblems } from "../policy/index.js";
import type { PresetName } from "../validate/index.js";
import { PRESET_NAMES, RULES } from "../validate/index.js";
import type { RuleLevel } from "../cli/config-types.js";
import { jsonErrorPlace } from "../cli/config-types.js";
import { configProperties, NAMESPACED_CODE_PATTERN, RULE_LEVELS } from "../cli/config-schema.js";
import { stripBom } from "../model/internal.js";

/** A plugin's or a pack's rule code, as the config schema writes it. */
const NAMESPACED = new RegExp(NAMESPACED_CODE_PATTERN);

let known: ReadonlySet<string> | undefined;

/** The settings `agentflow.config.json` may hold: its schema's top-level properties. */
function knownSettings(): ReadonlySet<string> {
  known ??= new Set(Object.keys(configProperties()));
  return known;
}

function isLevel(value: unknown): value is RuleLevel {
  return (RULE_LEVELS as readonly unknown[]).includes(value);
}

/** What the config sets that the Modeler applies, checked. */
export interface ProjectConfig {
  /** The file, as the Modeler named it. */
  readonly file: string;
  readonly preset?: PresetName;
  /** Severities of built-in workflow rules (workflow validation of embedded snapshots). */
  readonly workflowRules: Readonly<Record<string, SeveritySetting>>;
  /** Categories of agentflow's bpmnlint rules, by rule name (`agent-gate-bypass`). */
  readonly categories: Readonly<Record<string, BpmnlintCategory>>;
  /** Pack files as written, relative to the config's folder. */
  readonly policies: readonly string[];
  readonly waivers?: readonly Waiver[];
  readonly camundaAgents?: UnknownLevelPolicy;
  readonly gates?: readonly GateSelector[];
  readonly toolEffects?: ToolEffectsMapping;
  /** What is wrong, or cannot be applied without hiding findings: errors in the Problems panel. */
  readonly problems: readonly string[];
  /** What is not applied and only makes the lint stricter: notes in the Problems panel. */
  readonly unapplied: readonly string[];
}

type Json = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The lint rule named for a BPMN rule code, if there is one. */
function lintRuleOf(code: string): string | undefined {
  return AGENTFLOW_RULE_NAMES.find((name) => ruleCode(name) === code);
}

interface Gathered {
  problems: string[];
  unapplied: string[];
  workflowRules: Record<string, SeveritySetting>;
  categories: Record<string, BpmnlintCategory>;
}

function readRules(file: string, rules: unknown, out: Gathered): void {
  if (!isObject(rules)) {
    out.problems.push(`${file}: /rules must be an object of rule settings by code`);
    return;
  }
  const workflowCodes = new Set(RULES.map((r) => r.meta.code));
  const bpmnCodes = new Set(BPMN_RULES.map((r) => r.meta.code));
  for (const [code, setting] of Object.entries(rules)) {
    const namespaced = NAMESPACED.test(code);
    const level = Array.isArray(setting) && namespaced ? (setting[0] as unknown) : setting;
    const optionsOk = !Array.isArray(setting) || (setting.length === 2 && isObject(setting[1]));
    if (!isLevel(level) || !optionsOk) {
      out.problems.push(
        `${file}: ${pointer("rules", code)}: must be "off", "warn" or "error"${namespaced ? ', or ["off" | "warn" | "error", { options }]' : ""}`,
      );
    } else if (namespaced) {
      out.unapplied.push(
        `${file}: ${pointer("rules", code)}: a plugin's or a pack's rule setting is not applied in the Modeler (agentflow/policy reports every pack finding as an error)`,
      );
    } else if (workflowCodes.has(code)) {
      out.workflowRules[code] = level === "warn" ? "warning" : level;
    } else if (bpmnCodes.has(code)) {
      const name = lintRuleOf(code);
      if (name === undefined) {
        out.unapplied.push(`${file}: ${pointer("rules", code)}: no lint rule reports ${code}`);
      } else out.categories[name] = level;
    } else {
      out.problems.push(`${file}: ${pointer("rules", code)}: is not the code of a rule`);
    }
  }
}

function readPolicies(file: string, value: unknown, problems: string[]): string[] {
  if (Array.isArray(value) && value.every((p) => typeof p === "string" && p !== "")) {
    return value as string[];
  }
  problems.push(`${file}: /policies must be a list of policy pack files (relative to the config)`);
  return [];
}

/**
 * The problems of the config's `waivers`, each naming the waiver by its JSON pointer. Checked
 * here, as the rules' own options are, so that a malformed one is said where it is written and
 * all of them are left out (none waives anything) rather than making the rules refuse to build.
 */
function readWaivers(file: string, value: unknown): string[] {
  if (!Array.isArray(value)) return [`${file}: /waivers must be a list of waivers`];
  return value.flatMap((waiver: unknown, i) => waiverProblems(waiver, `${file}: /waivers/${i}`));
}

/**
 * Reads a config file's text: every problem is a sentence naming the file and the setting, and
 * what it sets that the Modeler applies is returned checked (a setting with a problem is left
 * out, so the rules run with its default).
 */
export function readProjectConfig(file: string, raw: string): ProjectConfig {
  const out: Gathered = { problems: [], unapplied: [], workflowRules: {}, categories: {} };
  const empty: ProjectConfig = { file, policies: [], ...out };
  // Editors on Windows save UTF-8 with a byte-order mark; it is no part of the JSON text.
  const text = stripBom(raw);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ...empty, problems: [`${file}${jsonErrorPlace(text, error)}: not JSON: ${message}`] };
  }
  if (!isObject(value)) return { ...empty, problems: [`${file}: must be a JSON object`] };
  for (const key of Object.keys(value)) {
    if (!knownSettings().has(key))
      out.problems.push(`${file}: /${key}: is not a setting agentflow knows`);
  }
  if (value.extends !== undefined) {
    out.problems.push(
      `${file}: /extends: shared configs are not followed inside the Modeler, so their rules and packs would be missing; lint with agentflow check`,
    );
  }
  if (value.plugins !== undefined) {
    out.problems.push(
      `${file}: /plugins: rule plugins are JavaScript modules the Modeler does not load, so their findings would be missing; lint with agentflow check`,
    );
  }
  if (value.registry !== undefined) {
    // Not a note: the registry's documents may say more than a snapshot (a higher level, another
    // tool), so `agentflow gate` may block what the lint allows. The other settings still apply.
    out.problems.push(
      `${file}: /registry: the Modeler gives plug-ins no folder listing, so the registry is not read: agent tasks are judged on their embedded snapshots, which the registry's documents may contradict (a higher level, other tools), and every unresolved agent or tool needs a gate; agentflow gate gives the verdict`,
    );
  }
  if (value.ignores !== undefined) {
    out.unapplied.push(
      `${file}: /ignores: not applied in the Modeler; every open diagram is linted`,
    );
  }
  let preset: PresetName | undefined;
  if (value.preset !== undefined) {
    if ((PRESET_NAMES as readonly unknown[]).includes(value.preset))
      preset = value.preset as PresetName;
    else out.problems.push(`${file}: /preset: must be one of ${PRESET_NAMES.join(", ")}`);
  }
  if (value.rules !== undefined) readRules(file, value.rules, out);
  const policies =
    value.policies === undefined ? [] : readPolicies(file, value.policies, out.problems);
  let camundaAgents: UnknownLevelPolicy | undefined;
  if (value.policy !== undefined) {
    const policy = isObject(value.policy) ? value.policy : undefined;
    const keys =
      policy === undefined ? [] : Object.keys(policy).filter((k) => k !== "camundaAgents");
    const problem =
      policy === undefined || keys.length > 0
        ? "must be an object with camundaAgents only"
        : policy.camundaAgents === undefined
          ? undefined
          : unknownPolicyProblem("camundaAgents", policy.camundaAgents);
    if (problem !== undefined) out.problems.push(`${file}: /policy: ${problem}`);
    else if (policy?.camundaAgents !== undefined)
      camundaAgents = policy.camundaAgents as UnknownLevelPolicy;
  }
  const gateProblems = value.gates === undefined ? [] : gateSelectorProblems(value.gates, "gates");
  out.problems.push(...gateProblems.map((p) => `${file}: /${p}`));
  const effectProblems =
    value.toolEffects === undefined ? [] : toolEffectsProblems(value.toolEffects);
  out.problems.push(...effectProblems.map((p) => `${file}: /${p}`));
  const waiverFaults = value.waivers === undefined ? [] : readWaivers(file, value.waivers);
  out.problems.push(...waiverFaults);
  return {
    file,
    ...(preset === undefined ? {} : { preset }),
    workflowRules: out.workflowRules,
    categories: out.categories,
    policies,
    ...(value.waivers === undefined || waiverFaults.length > 0
      ? {}
      : { waivers: value.waivers as readonly Waiver[] }),
    ...(camundaAgents === undefined ? {} : { camundaAgents }),
    ...(value.gates === undefined || gateProblems.length > 0
      ? {}
      : { gates: value.gates as readonly GateSelector[] }),
    ...(value.toolEffects === undefined || effectProblems.length > 0
      ? {}
      : { toolEffects: value.toolEffects as ToolEffectsMapping }),
    problems: out.problems,
    unapplied: out.unapplied,
  };
}

/** The options of agentflow's rules for a config (packs compiled by the caller). */
export function lintOptions(
  config: ProjectConfig | undefined,
  packs: AgentflowLintOptions["policies"] = [],
): AgentflowLintOptions {
  if (config === undefined) return {};
  const validation = {
    ...(config.preset === undefined ? {} : { preset: config.preset }),
    ...(Object.keys(config.workflowRules).length === 0 ? {} : { rules: config.workflowRules }),
  };
  return {
    ...(config.camundaAgents === undefined
      ? {}
      : { policy: { camundaAgents: config.camundaAgents } }),
    ...(config.gates === undefined ? {} : { gates: config.gates }),
    ...(config.toolEffects === undefined ? {} : { toolEffects: config.toolEffects }),
    ...(config.waivers === undefined ? {} : { waivers: config.waivers }),
    ...(packs.length === 0 ? {} : { policies: packs }),
    ...(Object.keys(validation).length === 0 ? {} : { workflowValidation: validation }),
  };
}

/**
 * The category of each rule the plug-in contributes, by rule name: the gate rules at their
 * `recommended` categories (so lint and `agentflow gate` agree) with the config's settings over
 * them, `policy` at `error` when packs are given (every pack finding then shows as an error:
 * the strictest reading, since one category holds all of a pack's severities), `waived` at
 * `info` when packs or waivers are, and the plug-in's own two rules.
 */
export function ruleCategories(
  config: ProjectConfig | undefined,
  hasPacks: boolean,
): Readonly<Record<string, BpmnlintCategory>> {
  const waivers = config?.waivers !== undefined && config.waivers.length > 0;
  return {
    ...configs.recommended.rules,
    ...config?.categories,
    policy: hasPacks ? "error" : "off",
    waived: hasPacks || waivers ? "info" : "off",
    "project-config": "error",
    "project-config-unapplied": "info",
  };
}
