/**
 * `agentflow.config.json`: the settings of every command that decides (`check`, `gate`,
 * `report`, `simulate`) for a repository, so that CI and people run the same checks without
 * repeating flags. Found from the working directory upward, no higher than the project root (the
 * nearest folder holding `.git` or `package.json`), and only in the working directory itself when
 * there is no project root: a config in a parent folder that is not the project's (another
 * project's, a shared temporary folder's) could turn rules off unseen. Or named with
 * `-c/--config`; `--no-config` ignores it. The file is validated with its published schema
 * (`schemas/agentflow-config.schema.json`); a bad file is a usage error naming the pointer.
 */
import { existsSync, lstatSync } from "node:fs";
import { lstat, stat } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import type { ErrorObject } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { contentHash } from "../model/index.js";
import { readDocumentText } from "../model/internal.js";
import type { RuleLayer } from "./config-extends.js";
import type { AgentflowConfig, ConfigFile } from "./config-types.js";
import { CONFIG_FILE_NAME, jsonErrorPlace } from "./config-types.js";
import { chainHash, configLayers, mergeLayers } from "./config-extends.js";
import { configSchema } from "./config-schema.js";
import { readText } from "./file-read.js";
import { describeFsError, oddKind } from "./fs-info.js";
import { textSizeProblem, UsageError } from "./io.js";

export { CONFIG_FILE_NAME } from "./config-types.js";

export type { AgentflowConfig, ConfigFile, ConfigRuleSetting, RuleLevel } from "./config-types.js";

/** A file of a config's chain, as outputs name it. */
export interface ChainLink {
  readonly file: string;
  readonly contentHash: string;
}

/**
 * The config a run uses: the file, and its settings merged over every config it extends, with
 * every path relative to the file's folder (`dir`).
 */
export interface LoadedConfig extends ConfigFile {
  /**
   * `sha256:` of what exactly the run was configured with: the file's canonical JSON, or, when
   * it extends other files, of every file of its chain.
   */
  readonly contentHash: string;
  /** Every file the settings come from, in the order they apply; the config itself is last. */
  readonly chain: readonly ChainLink[];
  /** The rule settings, layer by layer, in the order they apply (later ones win). */
  readonly ruleLayers: readonly RuleLayer[];
  /** The folder `ignores` are relative to: the folder of the file that set them. */
  readonly ignoresDir: string;
}

function isProjectRoot(dir: string): boolean {
  // `.git` is a folder in a clone and a file in a worktree or a submodule.
  return existsSync(join(dir, ".git")) || existsSync(join(dir, "package.json"));
}

/**
 * The nearest folder at or above `dir` that is a project root (it holds `.git` or
 * `package.json`), if any: a config's plugins and packs must be inside it.
 */
export function projectRoot(dir: string): string | undefined {
  return nearestAbove(dir, isProjectRoot);
}

/** The nearest folder at or above `dir` for which `holds` is true, if any. */
export function nearestAbove(dir: string, holds: (dir: string) => boolean): string | undefined {
  for (let at = dir; ;) {
    if (holds(at)) return at;
    const parent = dirname(at);
    if (parent === at) return undefined;
    at = parent;
  }
}

/**
 * The config file that applies in `start`: the nearest `agentflow.config.json` in `start` or a
 * folder above it up to the project root (the nearest folder with `.git` or `package.json`);
 * without a project root, only one in `start` itself.
 */
export function findConfigFile(start: string): string | undefined {
  const first = resolve(start);
  const root = projectRoot(first) ?? first;
  for (let dir = first; ; dir = dirname(dir)) {
    const candidate = join(dir, CONFIG_FILE_NAME);
    // Whatever stands at the name is the config (a broken link, a folder, a FIFO too): reading
    // it then says why it cannot be used (exit 2). Passing over it would drop the settings it
    // exists to apply — an unmounted shared config would turn BLOCKED into ALLOWED unseen.
    if (entryExists(candidate)) return candidate;
    if (dir === root || dirname(dir) === dir) return undefined;
  }
}

/**
 * Whether a folder entry stands at `path`, of any kind (a link is not followed). Only an absent
 * entry is "none": one that cannot even be looked at (a folder that cannot be searched) may be
 * a config, so it counts, and the read says why it cannot be used.
 */
function entryExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code !== "ENOENT" && code !== "ENOTDIR";
  }
}

/**
 * Why the config file at `at` cannot be read as one, said without opening it (a FIFO would
 * wait for a writer; opening a device can act on it): a broken link, what is not a regular
 * file, a file too large to be text. `undefined` when it is a regular file to read.
 */
async function configFileProblem(at: string): Promise<string | undefined> {
  let info;
  try {
    info = await stat(at);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const link = code === "ENOENT" && (await lstat(at).catch(() => undefined))?.isSymbolicLink();
    return link === true ? "it is a broken symbolic link" : describeFsError(error);
  }
  if (!info.isFile()) return `it is ${oddKind(info)}, not a regular file`;
  return textSizeProblem(info.size);
}

let validateConfig: ReturnType<Ajv2020["compile"]> | undefined;

/** The description of a top-level setting, for errors a `oneOf` makes unreadable. */
function settingDescription(pointer: string): string | undefined {
  const name = pointer.split("/")[1] ?? "";
  const properties = configSchema().properties as Record<string, { description?: string }>;
  return Object.hasOwn(properties, name) ? properties[name]?.description : undefined;
}

/** Where an Ajv error points, and what it says, in the CLI's words. */
function explain(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const top = error.instancePath.split("/")[1] ?? "";
  if (error.keyword === "oneOf" && top === "rules") {
    return `${error.instancePath}: must be "off", "warn" or "error", or for a plugin's or a pack's rule ["off" | "warn" | "error", { options }]`;
  }
  if (error.keyword === "oneOf" && top === "extends") {
    return `${error.instancePath}: must be a config to extend, or a list of them: a path ("./org.config.json"), a package ("@org/agentflow-config") or a plugin's config ("<plugin>/<config>")`;
  }
  if (error.keyword === "oneOf") {
    // The first branch's own error ("must be string") would say only half of what is allowed.
    const wanted = settingDescription(error.instancePath) ?? "one of the allowed forms.";
    return `${error.instancePath}: must be ${wanted.charAt(0).toLowerCase()}${wanted.slice(1, -1)}`;
  }
  if (error.keyword === "additionalProperties") {
    const name = String(params.additionalProperty);
    return `${error.instancePath}/${name}: is not a setting agentflow knows`;
  }
  if (error.propertyName !== undefined && top === "plugins") {
    return `${error.instancePath}/${error.propertyName}: is not a plugin name (lowercase letters, digits, '.', '_' and '-'; it prefixes the plugin's rule codes)`;
  }
  // A name the `propertyNames` enum refused: rule codes, apart from the plugins' names above.
  if (error.propertyName !== undefined) {
    // Findings of reading a file (STRUCTURE_INVALID, UNKNOWN_PROPERTY, VERSION_ABBREVIATED…)
    // are agentflow's codes too, but no rule's: say which codes can be set, not "unknown".
    return `${error.instancePath}/${error.propertyName}: is not the code of a rule; only rules can be set here (docs/rules), not what reading a file reports (STRUCTURE_INVALID, UNKNOWN_PROPERTY…)`;
  }
  const allowed = Array.isArray(params.allowedValues)
    ? ` (expected ${params.allowedValues.map(String).join(", ")})`
    : "";
  return `${error.instancePath === "" ? "/" : error.instancePath}: ${error.message ?? "is invalid"}${allowed}`;
}

/** Checks a parsed config against the schema; throws a {@link UsageError} naming the pointer. */
export function checkConfig(file: string, value: unknown): AgentflowConfig {
  validateConfig ??= new Ajv2020({ strict: true, allErrors: false }).compile(configSchema());
  if (!validateConfig(value)) {
    const errors = validateConfig.errors ?? [];
    // A oneOf's own error says what the setting may be; its branches' errors come first.
    const first = errors.find((e) => e.keyword === "oneOf") ?? errors[0];
    const what = first === undefined ? "is not a valid config" : explain(first);
    throw new UsageError(`${file}: ${what}`);
  }
  return value as AgentflowConfig;
}

/** JSON.parse's message without the offset that {@link jsonErrorPlace} turned into a place. */
function jsonProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/ in JSON at position \d+( \(line \d+ column \d+\))?$/, "");
}

/**
 * Reads and validates one config file, named `file` in messages and read at `at` (the same
 * file, absolute, when the working directory is not the process's); every problem is a
 * {@link UsageError}.
 */
export async function readConfigFile(file: string, at: string = file): Promise<ConfigFile> {
  // Asked before opening it: a FIFO, a device or a huge file is never read. The read itself is
  // FIFO-safe too, for what changes in between.
  const problem = await configFileProblem(at);
  if (problem !== undefined)
    throw new UsageError(`cannot read the config file '${file}': ${problem}`);
  let raw: string;
  try {
    raw = await readText(at, "the config file ");
  } catch (error) {
    // Named as the user named it, not by the absolute path it was read at.
    if (!(error instanceof UsageError) || at === file) throw error;
    throw new UsageError(error.message.replace(`'${at}'`, `'${file}'`));
  }
  // Editors on Windows save UTF-8 with a byte-order mark; it is no part of the JSON text.
  const text = raw.startsWith("\uFEFF") ? raw.slice(1) : raw;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file}${jsonErrorPlace(text, error)}: not JSON: ${jsonProblem(error)}`);
  }
  // What JSON.parse resolves silently — a key given twice keeps its last value — is refused as
  // tool contracts, workflows and packs refuse it: a reviewer reading the first `rules` would
  // see settings the run does not apply.
  const ambiguous = readDocumentText(text, { format: "json" }).problems[0];
  if (ambiguous !== undefined) {
    const { line, column } = ambiguous.location;
    throw new UsageError(`${file}:${line}:${column}: ${ambiguous.code} ${ambiguous.message}`);
  }
  const config = checkConfig(file, value);
  return { file, dir: dirname(resolve(at)), config, contentHash: contentHash(config) };
}

/**
 * Reads a config file and every config it extends (config-extends.ts), merged; every problem,
 * in any file of the chain, is a {@link UsageError} naming the chain.
 */
export async function loadConfigFile(
  file: string,
  cwd: string = process.cwd(),
): Promise<LoadedConfig> {
  const own = await readConfigFile(file, resolve(cwd, file));
  const layers = await configLayers(own, readConfigFile, cwd);
  const merged = mergeLayers(layers, own.dir);
  const chain = layers.flatMap((l) =>
    l.kind === "file" ? [{ file: l.file, contentHash: l.contentHash }] : [],
  );
  return {
    ...own,
    config: merged.config,
    contentHash: chainHash(layers, own.dir) ?? own.contentHash,
    chain,
    ruleLayers: merged.ruleLayers,
    ignoresDir: merged.ignoresDir,
  };
}

/**
 * The config a run uses: the file `-c` names (`option` a string), none (`--no-config`, `false`),
 * or the one found from `cwd` upward (`undefined`).
 */
export async function resolveConfig(
  option: string | boolean | undefined,
  cwd: string,
): Promise<LoadedConfig | undefined> {
  if (option === false) return undefined;
  if (typeof option === "string") return loadConfigFile(option, cwd);
  const found = findConfigFile(cwd);
  if (found === undefined) return undefined;
  const shown = relative(cwd, found);
  return loadConfigFile(shown === "" || isAbsolute(shown) ? found : shown, cwd);
}

/**
 * A path the config names, relative to the config's folder, as the CLI shows paths: relative to
 * the working directory (so output stays free of machine-specific prefixes), `.` for it.
 */
export function configPath(loaded: LoadedConfig, path: string, cwd: string): string {
  const shown = relative(cwd, resolve(loaded.dir, path));
  return shown === "" ? "." : shown;
}
