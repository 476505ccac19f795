/**
 * The rule set a verdict was judged by, named by a digest: agentflow's version (the rules' code)
 * and every setting that changes what the rules find — the workflow preset and rule settings,
 * the BPMN rule settings and the policy for agents of unknown level. Two runs with the same
 * digest ran the same rules the same way; a changed setting changes the digest, so a verdict can
 * never show the hashes of a rule set it was not judged by.
 */
import type { SeveritySetting } from "../model/index.js";
import { AGENTFLOW_VERSION, contentHash } from "../model/index.js";
import type { PresetName, RuleSetting } from "../validate/index.js";
import type { UnknownLevelPolicy } from "./types.js";

/** The settings a rule set is made of. */
export interface RuleSetSettings {
  readonly preset: PresetName;
  /** Workflow rule settings over the preset. */
  readonly workflowRules: Readonly<Record<string, RuleSetting>>;
  /** BPMN rule settings over their defaults. */
  readonly bpmnRules: Readonly<Record<string, SeveritySetting>>;
  readonly camundaAgents: UnknownLevelPolicy;
}

/** A rule set, with its digest. */
export interface RuleSet extends RuleSetSettings {
  readonly agentflowVersion: string;
  /** `sha256:` of the canonical JSON of every other field. */
  readonly digest: string;
}

function sorted<T>(record: Readonly<Record<string, T>>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const key of Object.keys(record).sort()) {
    Object.defineProperty(out, key, { value: record[key], enumerable: true });
  }
  return out;
}

/**
 * The rule set of these settings.
 *
 * @example
 * ```ts
 * import { describeRuleSet } from "agentflow/bpmn";
 *
 * const base = { preset: "recommended", workflowRules: {}, bpmnRules: {}, camundaAgents: "gate-required" } as const;
 * const off = describeRuleSet({ ...base, bpmnRules: { AGENT_GATE_BYPASS: "off" } });
 * describeRuleSet(base).digest === off.digest; // → false
 * ```
 */
export function describeRuleSet(settings: RuleSetSettings): RuleSet {
  const plain = {
    agentflowVersion: AGENTFLOW_VERSION,
    preset: settings.preset,
    workflowRules: sorted(settings.workflowRules),
    bpmnRules: sorted(settings.bpmnRules),
    camundaAgents: settings.camundaAgents,
  };
  return { ...plain, digest: contentHash(plain) };
}
