/**
 * What checking files needs on one thread, built from the run's plain settings: the registry,
 * the validator and the gate options, with the config's plugins imported and its packs compiled
 * here — a worker thread cannot be handed functions, so each loads them again from where the
 * main thread found them, and refuses a plugin whose content changed in between.
 */
import type { GateOptions } from "../bpmn/index.js";
import type { InteropWarning } from "../interop/index.js";
import type { AgentWorkflow, Diagnostic } from "../model/index.js";
import type { CompiledPack, UnnamedWorkflow, Waiver } from "../policy/index.js";
import { waiversForUnnamed } from "../policy/index.js";
import { todayUtc } from "../policy/waive.js";
import type { Plugin } from "../rules/index.js";
import type { Validator } from "../validate/index.js";
import { createValidator } from "../validate/index.js";
import type { Extensions } from "./extensions.js";
import { NO_EXTENSIONS } from "./extensions.js";
import { gateOptions } from "./gate-options.js";
import { compilePacks } from "./policies.js";
import { reloadPlugin } from "./plugins.js";
import type { FolderRegistry } from "./registry.js";
import { loadFolderRegistry } from "./registry.js";
import type { RegistryIndex } from "./registry-read.js";
import type { FileCheckSettings } from "./settings.js";
import { statesIdentity } from "./registry-foreign.js";

/** What checking files needs, built once per thread from {@link FileCheckSettings}. */
export interface FileCheckContext {
  readonly validator: Validator;
  /**
   * How to check an imported workflow whose `id@version` its importer made up: the validator
   * without the `workflow` waivers naming it, which waive nothing there, and their warnings.
   */
  readonly unnamed: (workflow: UnnamedWorkflow) => UnnamedCheck;
  readonly processOptions: GateOptions;
  readonly registry?: FolderRegistry;
  /** The plugins and packs, loaded on this thread (for the outputs' rule descriptions). */
  readonly extensions: Extensions;
  /** With `--cache`: records the registry lookups each file's check makes. */
  readonly recorder?: LookupRecorder;
}

/**
 * Records what a check looked up in the registry and what each lookup answered
 * ({@link FolderRegistry.answer}), between `start` and `stop`: a cached result holds only as
 * long as every lookup it made answers the same. Files are checked one at a time on a thread.
 */
export interface LookupRecorder {
  start(): void;
  /** The lookups since `start`, `"<kind> <ref>"` to the answer, sorted by key. */
  stop(): Record<string, string>;
}

/** The registry's resolvers, each lookup recorded (workflows and tools, sub-workflows' too). */
function recordedLookups(registry: FolderRegistry): {
  resolvers: FolderRegistry["resolvers"];
  recorder: LookupRecorder;
} {
  let current: Map<string, string> | undefined;
  const { resolveTool, resolveDelegate } = registry.resolvers;
  const wrap =
    (kind: "tool" | "workflow", resolve: ((ref: string) => unknown) | undefined) =>
    (ref: string): unknown => {
      current?.set(`${kind} ${ref}`, registry.answer(kind, ref));
      return resolve?.(ref);
    };
  const recorder: LookupRecorder = {
    start: () => {
      current = new Map();
    },
    stop: () => {
      const lookups = [...(current ?? [])].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      current = undefined;
      return Object.fromEntries(lookups);
    },
  };
  return {
    resolvers: {
      resolveTool: wrap("tool", resolveTool),
      resolveDelegate: wrap("workflow", resolveDelegate),
    },
    recorder,
  };
}

/** What checking an unnamed workflow uses: its validator, and the warnings of waivers left out. */
export interface UnnamedCheck {
  readonly validator: Validator;
  readonly findings: readonly Diagnostic[];
}

/**
 * {@link FileCheckContext.unnamed}: one validator per made-up `id@version` and format (a
 * handful: an importer makes up the same for every document), the run's own when no waiver names
 * it.
 */
function unnamedChecks(
  settings: FileCheckSettings,
  policy: ReturnType<typeof policyOptions>,
  validator: Validator,
  build: (policy: ReturnType<typeof policyOptions>) => Validator,
): (workflow: UnnamedWorkflow) => UnnamedCheck {
  const made = new Map<string, UnnamedCheck>();
  // Decided once, as the validator's own waivers are: a run past midnight judges on one day.
  const today = settings.today ?? todayUtc();
  return (workflow) => {
    const key = `${workflow.format} ${workflow.ref}`;
    let check = made.get(key);
    if (check !== undefined) return check;
    const { waivers, packs, findings } = waiversForUnnamed(
      policy.waivers ?? [],
      policy.policies ?? [],
      workflow,
      today,
    );
    check =
      findings.length === 0
        ? { validator, findings }
        : {
            validator: build({
              ...policy,
              waivers,
              ...(policy.policies === undefined ? {} : { policies: packs }),
            }),
            findings,
          };
    made.set(key, check);
    return check;
  };
}

/** How a document is validated: the run's validator, and one for a workflow with no name of its own. */
export type Validation = Pick<FileCheckContext, "validator" | "unnamed">;

/**
 * The validator of a workflow imported from `format` with `warnings`, and the warnings of the
 * waivers it leaves out: the run's own for a document that states its `id@version`; for one
 * whose `id@version` the importer made up, which names no document, one without the `workflow`
 * waivers naming it (docs/policies.md, Waivers).
 */
export function importedValidation(
  validation: Validation,
  format: string,
  workflow: AgentWorkflow,
  warnings: readonly InteropWarning[],
): UnnamedCheck {
  if (statesIdentity(format, warnings)) {
    return { validator: validation.validator, findings: [] };
  }
  return validation.unnamed({ ref: `${workflow.id}@${workflow.version}`, format });
}

/** The settings' plugins and packs, loaded on this thread. */
export async function threadExtensions(settings: FileCheckSettings): Promise<Extensions> {
  const sources = settings.plugins ?? [];
  const packSources = settings.packs ?? [];
  if (sources.length === 0 && packSources.length === 0) return NO_EXTENSIONS;
  const plugins = [];
  for (const source of sources) plugins.push(await reloadPlugin(source));
  return { plugins, packs: compilePacks(packSources), packSources };
}

/** What a policy adds to a validator's or a gate's options (nothing when there is none). */
export function policyOptions(
  settings: FileCheckSettings,
  extensions: Extensions,
): {
  plugins?: Readonly<Record<string, Plugin>>;
  policies?: readonly CompiledPack[];
  waivers?: readonly Waiver[];
  today?: string;
} {
  const plugins = Object.fromEntries(extensions.plugins.map((p) => [p.source.name, p.plugin]));
  const waivers = settings.waivers ?? [];
  return {
    ...(extensions.plugins.length === 0 ? {} : { plugins }),
    ...(extensions.packs.length === 0 ? {} : { policies: extensions.packs }),
    ...(waivers.length === 0 ? {} : { waivers }),
    // Decided once by the main thread: a worker past midnight judges on the same day.
    ...(settings.today === undefined ? {} : { today: settings.today }),
  };
}

/**
 * Loads the registry (from `index` what it holds, with `--cache`), the plugins and the packs,
 * and builds the validator and the gate options.
 */
export async function fileCheckContext(
  settings: FileCheckSettings,
  index?: RegistryIndex,
): Promise<FileCheckContext> {
  const registry =
    settings.registry.length === 0
      ? undefined
      : await loadFolderRegistry(settings.registry, settings.registrySource, index);
  const recording =
    registry === undefined || settings.recordLookups !== true
      ? undefined
      : recordedLookups(registry);
  const resolvers = recording?.resolvers ?? registry?.resolvers;
  const extensions = await threadExtensions(settings);
  const policy = policyOptions(settings, extensions);
  const build = (options: typeof policy): Validator =>
    createValidator({
      preset: settings.preset,
      rules: settings.workflowRules,
      ...options,
      ...(resolvers === undefined ? {} : { resolvers }),
    });
  const validator = build(policy);
  const processOptions: GateOptions = {
    ...gateOptions(resolvers === undefined ? undefined : { resolvers }, settings),
    rules: settings.bpmnRules,
    workflowValidation: { preset: settings.preset, rules: settings.workflowRules },
    ...policy,
  };
  return {
    validator,
    unnamed: unnamedChecks(settings, policy, validator, build),
    processOptions,
    extensions,
    ...(registry === undefined ? {} : { registry }),
    ...(recording === undefined ? {} : { recorder: recording.recorder }),
  };
}
