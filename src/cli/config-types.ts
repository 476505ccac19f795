/**
 * The shapes of `agentflow.config.json` as read: what one file holds, as its schema allows it
 * (config-schema.ts), and the file read on its own; with the file's name and where a JSON error
 * is in it. Apart from config.ts so that config-extends.ts, which config.ts calls to follow
 * `extends`, can name them without a cycle, and so that the Camunda Modeler plug-in, which reads
 * the same file but cannot load config.ts's Node modules, says the same things.
 */
import type { GateSelector, ToolEffectsMapping, UnknownLevelPolicy } from "../bpmn/index.js";
import type { Waiver } from "../policy/index.js";
import type { PresetName } from "../validate/index.js";

/** The name the CLI and the Modeler plug-in look for. */
export const CONFIG_FILE_NAME = "agentflow.config.json";

/**
 * `:line:column` of a JSON.parse error in `text`, as editors jump to it (V8 says `at position
 * N`); the end of the text when the error does not say, as for a cut-off text.
 */
export function jsonErrorPlace(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : "";
  const at = /at position (\d+)/.exec(message)?.[1];
  const offset = at === undefined ? text.length : Math.min(Number(at), text.length);
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - (before.lastIndexOf("\n") + 1) + 1;
  return `:${line}:${column}`;
}

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
