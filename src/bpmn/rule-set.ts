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
import { presetSettings, RULES } from "../validate/index.js";
import { BPMN_RULES } from "./rules/index.js";
import type { GateSelector } from "./gate-select.js";
import type { UnknownLevelPolicy } from "./types.js";
import type { ToolEffectsMapping } from "./camunda/index.js";
import type { Waiver } from "../policy/index.js";

/** The settings a rule set is made of. */
export interface RuleSetSettings {
  readonly preset: PresetName;
  /** Workflow rule settings over the preset. */
  readonly workflowRules: Readonly<Record<string, RuleSetting>>;
  /** BPMN rule settings over their defaults. */
  readonly bpmnRules: Readonly<Record<string, RuleSetting>>;
  readonly camundaAgents: UnknownLevelPolicy;
  /**
   * The organisation's Camunda tool effects (docs/bpmn.md): they decide which tools need a
   * gate, so they are part of the digest (left out of it when absent, as before they existed).
   */
  readonly toolEffects?: ToolEffectsMapping;
  /**
   * The organisation's gate selectors: they decide which elements are gates, so they are part of
   * the digest (left out of it when absent or empty).
   */
  readonly gates?: readonly GateSelector[];
  /** True when a host's own `isGate` decided which nodes are gates (it cannot be hashed). */
  readonly customGatePredicate?: boolean;
  /** The plugins and policy packs whose rules ran, pinned by their content (sorted by name). */
  readonly extensions?: readonly RuleSetExtension[];
  /** The waivers that were in force: they turn findings into non-blocking ones. */
  readonly waivers?: readonly Waiver[];
  /**
   * The default severity of each plugin and pack rule, by code: what a setting of one is
   * changed from. Not hashed: the extensions' own hashes pin it.
   */
  readonly extensionDefaults?: Readonly<Record<string, SeveritySetting>>;
}

/** A plugin or a policy pack that judged, pinned by the hash of its content. */
export interface RuleSetExtension {
  readonly kind: "plugin" | "policy";
  /** The name its rules are prefixed with (`<name>/<CODE>`). */
  readonly name: string;
  readonly version: string;
  /**
   * `sha256:` of its content: a pack's canonical JSON; a plugin's module graph, every file its
   * code can load (`src/cli/plugin-graph.ts`), or `pluginDigest` outside the CLI.
   */
  readonly sha256: string;
}

/** A rule whose setting differs from what the preset (or the rule's default) gives it. */
export interface ChangedRule {
  readonly code: string;
  /** The preset's severity (a BPMN rule's default severity). */
  readonly preset: SeveritySetting;
  /** The severity it runs at. */
  readonly setting: SeveritySetting;
  /** Rule options given with the setting, when any. */
  readonly options?: Readonly<Record<string, unknown>>;
}

/** A rule set, with its digest. */
export interface RuleSet extends RuleSetSettings {
  readonly agentflowVersion: string;
  /** `sha256:` of the canonical JSON of the settings and the version (not of `changed`). */
  readonly digest: string;
  /** The settings that differ from the preset, sorted by code: what a reviewer must know. */
  readonly changed: readonly ChangedRule[];
}

/** The rules whose settings differ from the preset's, by code. */
function changedRules(settings: RuleSetSettings): ChangedRule[] {
  const preset = presetSettings(settings.preset, RULES);
  const extensions = settings.extensionDefaults ?? {};
  const changed = new Map<string, ChangedRule>();
  const visit = (
    values: Readonly<Record<string, RuleSetting>>,
    defaults: Readonly<Record<string, RuleSetting>>,
  ): void => {
    for (const [code, value] of Object.entries(values)) {
      const [setting, options] = typeof value === "string" ? [value, undefined] : value;
      // A plugin's or pack's rule is changed from its own default, not from a preset.
      const given = Object.hasOwn(defaults, code)
        ? defaults[code]
        : Object.hasOwn(extensions, code)
          ? extensions[code]
          : undefined;
      const before: SeveritySetting = (typeof given === "string" ? given : given?.[0]) ?? "off";
      // A pack rule about workflows runs in both scopes with one setting: listed once.
      if ((setting !== before || options !== undefined) && !changed.has(code)) {
        changed.set(code, {
          code,
          preset: before,
          setting,
          ...(options === undefined ? {} : { options }),
        });
      }
    }
  };
  visit(settings.workflowRules, preset);
  visit(settings.bpmnRules, BPMN_DEFAULTS);
  return [...changed.values()].sort((x, y) => (x.code < y.code ? -1 : x.code > y.code ? 1 : 0));
}

function sorted<T>(record: Readonly<Record<string, T>>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const key of Object.keys(record).sort()) {
    Object.defineProperty(out, key, { value: record[key], enumerable: true });
  }
  return out;
}

/** Each BPMN rule's default severity, by code. */
const BPMN_DEFAULTS: Readonly<Record<string, SeveritySetting>> = Object.fromEntries(
  BPMN_RULES.map((rule) => [rule.meta.code, rule.meta.defaultSeverity]),
);

/** The settings that differ from the defaults (a severity with options always differs). */
function differing<T extends RuleSetting>(
  settings: Readonly<Record<string, T>>,
  defaults: Readonly<Record<string, RuleSetting>>,
): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [code, value] of Object.entries(settings)) {
    const given = Object.hasOwn(defaults, code) ? defaults[code] : undefined;
    if (typeof value === "string" && value === given) continue;
    Object.defineProperty(out, code, { value, enumerable: true });
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
    // Only what differs from the preset: a setting that repeats a default changes no finding,
    // so it must not change the digest either.
    workflowRules: sorted(
      differing(settings.workflowRules, presetSettings(settings.preset, RULES)),
    ),
    bpmnRules: sorted(differing(settings.bpmnRules, BPMN_DEFAULTS)),
    camundaAgents: settings.camundaAgents,
    ...(settings.toolEffects === undefined || Object.keys(settings.toolEffects).length === 0
      ? {}
      : { toolEffects: sorted(settings.toolEffects) }),
    ...(settings.gates === undefined || settings.gates.length === 0
      ? {}
      : { gates: settings.gates }),
    ...(settings.customGatePredicate === true ? { customGatePredicate: true } : {}),
    ...(settings.extensions === undefined || settings.extensions.length === 0
      ? {}
      : { extensions: [...settings.extensions].sort((a, b) => (a.name < b.name ? -1 : 1)) }),
    ...(settings.waivers === undefined || settings.waivers.length === 0
      ? {}
      : { waivers: settings.waivers }),
  };
  return { ...plain, digest: contentHash(plain), changed: changedRules(settings) };
}
