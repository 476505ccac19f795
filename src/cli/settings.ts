/**
 * What a run of `check` or `gate` uses, from the config file and the flags: flags win over the
 * file, and what neither sets takes the built-in default. The part each file's check needs is
 * plain data ({@link FileCheckSettings}), so that a worker thread can be given it.
 */
import type {
  GateSelector,
  RuleSet,
  RuleSetExtension,
  ToolEffectsMapping,
  UnknownLevelPolicy,
} from "../bpmn/index.js";
import {
  BPMN_RULES,
  describeRuleSet,
  gateSelectorProblems,
  toolEffectsProblems,
  unknownPolicyProblem,
} from "../bpmn/index.js";
import type { SeveritySetting } from "../model/index.js";
import type { CompiledPack, Waiver } from "../policy/index.js";
import { checkWhen } from "../policy/feel-check.js";
import type { PresetName, RuleSetting } from "../validate/index.js";
import { PRESET_NAMES } from "../validate/index.js";
import type { LoadedConfig } from "./config.js";
import { configPath, resolveConfig } from "./config.js";
import type { Extensions } from "./extensions.js";
import {
  configRuleSettings,
  configWaivers,
  extensionRules,
  loadExtensions,
  ruleSetExtensions,
} from "./extensions.js";
import type { IgnoreGroup } from "./ignore.js";
import { UsageError } from "./io.js";
import type { PackSource } from "./policies.js";
import type { PluginSource } from "./plugins.js";
import { parseToday } from "./today.js";

/** The options `check` and `gate` share, as commander parses them. */
export interface BatchCliOptions {
  readonly format: string;
  /** `-c <file>`: a string; `--no-config`: false; neither: undefined. */
  readonly config?: string | boolean;
  readonly preset?: string;
  readonly registry?: string;
  readonly ignorePattern?: readonly string[];
  readonly camundaAgents?: string;
  /** `--no-suppress`: also report graph findings that follow from a route to a missing id. */
  readonly suppress?: boolean;
  readonly outputFile?: string;
  readonly quiet?: boolean;
  /** `--color` true, `--no-color` false, neither undefined. */
  readonly color?: boolean;
  readonly maxWarnings?: string;
  readonly concurrency?: string;
  readonly sarifCategory?: string;
  /** `--today <YYYY-MM-DD>`: the day waivers are judged on (default: the UTC date now). */
  readonly today?: string;
  /** `--print-config <file>`: print the settings that apply to the file, check nothing. */
  readonly printConfig?: string;
  /** `--cache`: reuse the outcomes of files whose every input is unchanged (cache-key.ts). */
  readonly cache?: boolean;
  /** `--cache-location <path>`: the cache file, or a folder to hold it. */
  readonly cacheLocation?: string;
}

/** What checking one file needs, as plain data (it crosses to worker threads). */
export interface FileCheckSettings {
  readonly preset: PresetName;
  /** Workflow rule settings (config levels, `--no-suppress`). */
  readonly workflowRules: Readonly<Record<string, RuleSetting>>;
  /** BPMN rule settings from the config, plugins' and packs' process rules too. */
  readonly bpmnRules: Readonly<Record<string, RuleSetting>>;
  /** Registry folders, as the CLI shows paths. */
  readonly registry: readonly string[];
  /** Where the registry was set (`--registry`, `registry in <config file>`), for its errors. */
  readonly registrySource: string;
  readonly camundaAgents: UnknownLevelPolicy;
  /** The organisation's Camunda tool effects from the config (absent or `{}` when none). */
  readonly toolEffects?: ToolEffectsMapping;
  /** The organisation's gate selectors from the config (absent or `[]` when none). */
  readonly gates?: readonly GateSelector[];
  /** The config's plugins, where each module is (a worker imports them again). */
  readonly plugins?: readonly PluginSource[];
  /** The config's policy packs, as text (a worker compiles them again). */
  readonly packs?: readonly PackSource[];
  /** The config's waivers (a pack's own are in the pack). */
  readonly waivers?: readonly Waiver[];
  /** `YYYY-MM-DD`: the day waivers are judged on. */
  readonly today?: string;
  /** `--cache`: record each file's registry lookups, so that its result can be reused. */
  readonly recordLookups?: boolean;
}

/** The config file a run used, as every output names it. */
export interface UsedConfig {
  /** The file, as found or named (relative to the working directory when inside it). */
  readonly file: string;
  /** `sha256:` of its canonical JSON. */
  readonly contentHash: string;
}

/** Everything a run decided before reading its files. */
export interface RunSettings extends FileCheckSettings {
  readonly ignores: readonly IgnoreGroup[];
  /** The config file used, if any. */
  readonly configFile?: string;
  /** The config file used, with its hash; `null` when none was. */
  readonly config: UsedConfig | null;
  /** Every file the config's settings come from (its `extends` chain), in the order they apply. */
  readonly configChain: readonly UsedConfig[];
  /** The plugins and packs, pinned as the rule set names them. */
  readonly extensions: readonly RuleSetExtension[];
  /** The waivers in force, the config's then the packs', as the rule set names them. */
  readonly ruleSetWaivers: readonly Waiver[];
  /** The default severity of each plugin and pack rule, by code. */
  readonly extensionDefaults: Readonly<Record<string, SeveritySetting>>;
  /**
   * A policy pack rule's `when` calls `today()` or `now()`: its verdict depends on the moment of
   * the run, which a cached result must then be keyed by (cache-key.ts).
   */
  readonly readsClock?: boolean;
}

/**
 * What judged a run: the config file (or none) and the rule set with its digest. Every command
 * that decides names it in every output, so two verdicts reached under different settings can
 * never show the same provenance.
 */
export interface Provenance {
  readonly config: UsedConfig | null;
  readonly ruleSet: RuleSet;
  /**
   * The day waivers were judged on (`--today`, else the UTC date of the run), when any waiver
   * was in force: an expired waiver blocks again, so the verdict depends on it.
   */
  readonly today?: string;
}

/** The provenance of a run's settings. */
export function provenanceOf(settings: RunSettings): Provenance {
  return {
    config: settings.config,
    ruleSet: describeRuleSet({
      preset: settings.preset,
      workflowRules: settings.workflowRules,
      bpmnRules: settings.bpmnRules,
      camundaAgents: settings.camundaAgents,
      ...(settings.toolEffects === undefined ? {} : { toolEffects: settings.toolEffects }),
      ...(settings.gates === undefined ? {} : { gates: settings.gates }),
      ...(settings.extensions.length === 0 ? {} : { extensions: settings.extensions }),
      ...(settings.ruleSetWaivers.length === 0 ? {} : { waivers: settings.ruleSetWaivers }),
      extensionDefaults: settings.extensionDefaults,
    }),
    ...(settings.today !== undefined && settings.ruleSetWaivers.length > 0
      ? { today: settings.today }
      : {}),
  };
}

/**
 * The rules whose findings can follow from a route to a missing id, set to report them too
 * (`--no-suppress`). Both are errors in every preset.
 */
const CASCADING = ["NO_PATH_TO_END", "CYCLE_WITHOUT_STOP"] as const;

function expectOneOf(what: string, value: string, allowed: readonly string[]): void {
  if (!allowed.includes(value))
    throw new UsageError(`unknown ${what} '${value}' (expected ${allowed.join(", ")})`);
}

/**
 * The config's rule settings split by where they run: BPMN rules (and plugins' and packs'
 * process rules) with the gate, workflow rules (and plugins' and packs' workflow rules) with
 * the validator; a pack rule about workflows or tools runs in both.
 */
function splitRules(
  loaded: LoadedConfig | undefined,
  extensions: Extensions,
  suppress: boolean,
): Pick<FileCheckSettings, "workflowRules" | "bpmnRules"> {
  const bpmnCodes = new Set(BPMN_RULES.map((r) => r.meta.code));
  const scopes = extensionRules(extensions);
  const workflowRules: Record<string, RuleSetting> = {};
  const bpmnRules: Record<string, RuleSetting> = {};
  // Sorted so that the settings (and what a worker is given) do not depend on the file's order.
  const entries = [...configRuleSettings(loaded, extensions)].sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  for (const [code, setting] of entries) {
    const process = bpmnCodes.has(code) || scopes.process.has(code);
    if (process) bpmnRules[code] = setting;
    if (!process || scopes.workflow.has(code)) workflowRules[code] = setting;
  }
  if (!suppress) {
    for (const code of CASCADING) {
      const given = workflowRules[code] ?? "error";
      const level = typeof given === "string" ? given : given[0];
      if (level !== "off") workflowRules[code] = [level, { reportCascades: true }];
    }
  }
  return { workflowRules, bpmnRules };
}

/** The default severity of each plugin and pack rule, by code. */
function extensionDefaults(extensions: Extensions): Record<string, SeveritySetting> {
  const scopes = extensionRules(extensions);
  const out: Record<string, SeveritySetting> = {};
  for (const [code, meta] of [...scopes.process, ...scopes.workflow]) {
    out[code] = meta.defaultSeverity;
  }
  return out;
}

/** Whether a rule of `packs` reads the clock: `today()` or `now()` in its `when`. */
export function packsReadClock(packs: readonly CompiledPack[]): boolean {
  return packs.some((pack) =>
    pack.spec.rules.some(
      (rule) => rule.when !== undefined && checkWhen(rule.when, rule.for).volatile,
    ),
  );
}

/** Reads the config (unless `--no-config`) and merges the flags over it. */
export async function resolveSettings(
  options: BatchCliOptions,
  cwd: string = process.cwd(),
): Promise<RunSettings> {
  const loaded = await resolveConfig(options.config, cwd);
  const config = loaded?.config;
  const preset = options.preset ?? config?.preset ?? "recommended";
  expectOneOf("preset", preset, PRESET_NAMES);
  const camundaAgents = options.camundaAgents ?? config?.policy?.camundaAgents ?? "gate-required";
  const problem = unknownPolicyProblem("--camunda-agents", camundaAgents);
  if (problem !== undefined) throw new UsageError(problem);
  const toolEffects = config?.toolEffects ?? {};
  // The schema checks shapes and effects; a selector agentflow does not know needs "$input".
  const effectsProblem = toolEffectsProblems(toolEffects)[0];
  if (effectsProblem !== undefined && loaded !== undefined) {
    throw new UsageError(`${loaded.file}: ${effectsProblem}`);
  }
  // The schema checks shapes; a selector that names no criterion would make every element a gate.
  const gatesProblem = gateSelectorProblems(config?.gates ?? [], "/gates")[0];
  if (gatesProblem !== undefined && loaded !== undefined) {
    throw new UsageError(`${loaded.file}: ${gatesProblem}`);
  }
  const fromConfig = config?.registry;
  const configured =
    loaded === undefined || fromConfig === undefined
      ? []
      : (typeof fromConfig === "string" ? [fromConfig] : fromConfig).map((p) =>
          configPath(loaded, p, cwd),
        );
  const registry = options.registry === undefined ? configured : [options.registry];
  const registrySource =
    options.registry === undefined && loaded !== undefined
      ? `registry in ${loaded.file}`
      : "--registry";
  const ignores: IgnoreGroup[] = [];
  if (loaded !== undefined && config?.ignores !== undefined) {
    ignores.push({ base: loaded.ignoresDir, patterns: config.ignores });
  }
  if (options.sarifCategory?.trim() === "") {
    throw new UsageError(
      "--sarif-category '' is empty: give the category, e.g. agentflow (is a variable unset?)",
    );
  }
  // An empty pattern is what an unset "$VAR" gives in CI: say so rather than ignore nothing.
  if (options.ignorePattern?.some((p) => p.trim() === "") === true) {
    throw new UsageError(
      "--ignore-pattern '' is empty: give a glob pattern (is a variable unset?)",
    );
  }
  if (options.ignorePattern !== undefined && options.ignorePattern.length > 0) {
    ignores.push({ base: cwd, patterns: options.ignorePattern });
  }
  const today = parseToday(options.today);
  const extensions = await loadExtensions(loaded, cwd);
  const waivers = configWaivers(loaded, extensions);
  return {
    preset: preset as PresetName,
    ...splitRules(loaded, extensions, options.suppress !== false),
    registry,
    registrySource,
    camundaAgents: camundaAgents as UnknownLevelPolicy,
    toolEffects,
    gates: config?.gates ?? [],
    ignores,
    ...(loaded === undefined ? {} : { configFile: loaded.file }),
    config: loaded === undefined ? null : { file: loaded.file, contentHash: loaded.contentHash },
    configChain: loaded?.chain ?? [],
    plugins: extensions.plugins.map((p) => p.source),
    packs: extensions.packSources,
    waivers,
    today,
    extensions: ruleSetExtensions(extensions),
    extensionDefaults: extensionDefaults(extensions),
    // As the library names them, so that both give one digest for one policy.
    ruleSetWaivers: [...waivers, ...extensions.packs.flatMap((p) => p.waivers)],
    ...(packsReadClock(extensions.packs) ? { readsClock: true } : {}),
  };
}
