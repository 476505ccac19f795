/**
 * The shapes of `agentflow.config.json` as read: what one file holds, as its schema allows it
 * (config-schema.ts), and the file read on its own. Apart from config.ts so that
 * config-extends.ts, which config.ts calls to follow `extends`, can name them without a cycle.
 */
import type { GateSelector, ToolEffectsMapping, UnknownLevelPolicy } from "../bpmn/index.js";
import type { Waiver } from "../policy/index.js";
import type { PresetName } from "../validate/index.js";

/** A rule's level in the config file. */
export type RuleLevel = "off" | "warn" | "error";

/**
 * A rule's setting in the config file: a level, or (for a plugin's or a pack's rule) a level with
 * the options the rule's schema allows.
 */
export type ConfigRuleSetting = RuleLevel | readonly [RuleLevel, Readonly<Record<string, unknown>>];

/** The config file's content, as its schema allows it. */
export interface AgentflowConfig {
  readonly preset?: PresetName;
  readonly rules?: Readonly<Record<string, ConfigRuleSetting>>;
  /** Plugins by the name their rules are prefixed with: a module path or a package name. */
  readonly plugins?: Readonly<Record<string, string>>;
  /**
   * Configs this one applies over, in order: shared config files (a path or a package) and
   * plugin configs (`<plugin>/<config>`); see config-extends.ts.
   */
  readonly extends?: string | readonly string[];
  /** Policy pack files, relative to the config. */
  readonly policies?: readonly string[];
  /** Waivers the organisation granted (docs/policies.md). */
  readonly waivers?: readonly Waiver[];
  readonly registry?: string | readonly string[];
  readonly ignores?: readonly string[];
  readonly policy?: { readonly camundaAgents?: UnknownLevelPolicy };
  /** The organisation's effects of Camunda tools (docs/bpmn.md). */
  readonly toolEffects?: ToolEffectsMapping;
  /** The organisation's approval gates, by selector (docs/bpmn.md). */
  readonly gates?: readonly GateSelector[];
}

/** One config file, read and validated on its own (its `extends` not followed). */
export interface ConfigFile {
  /** The file, as found or named. */
  readonly file: string;
  /** Its folder, absolute: the paths in it are relative to it. */
  readonly dir: string;
  readonly config: AgentflowConfig;
  /** `sha256:` of the file's canonical JSON. */
  readonly contentHash: string;
}
