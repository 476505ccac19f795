/**
 * `agentflow.config.json`: the settings of `check` and `gate` for a repository, so that CI and
 * people run the same checks without repeating flags. Found from the working directory upward,
 * stopping at the repository root (a folder holding `.git`) or the file system root; or named
 * with `-c/--config`; `--no-config` ignores it. The file is validated with its published schema
 * (`schemas/agentflow-config.schema.json`); a bad file is a usage error naming the pointer.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import type { ErrorObject } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { UnknownLevelPolicy } from "../bpmn/index.js";
import type { PresetName } from "../validate/index.js";
import { configSchema } from "./config-schema.js";
import { readText } from "./files.js";
import { UsageError } from "./io.js";

/** The name the CLI looks for. */
export const CONFIG_FILE_NAME = "agentflow.config.json";

/** A rule's setting in the config file. */
export type RuleLevel = "off" | "warn" | "error";

/** The config file's content, as its schema allows it. */
export interface AgentflowConfig {
  readonly preset?: PresetName;
  readonly rules?: Readonly<Record<string, RuleLevel>>;
  readonly registry?: string | readonly string[];
  readonly ignores?: readonly string[];
  readonly policy?: { readonly camundaAgents?: UnknownLevelPolicy };
}

/** A config file that was read and validated. */
export interface LoadedConfig {
  /** The file, as found or named. */
  readonly file: string;
  /** Its folder, absolute: `registry` and `ignores` are relative to it. */
  readonly dir: string;
  readonly config: AgentflowConfig;
}

function isRepositoryRoot(dir: string): boolean {
  // `.git` is a folder in a clone and a file in a worktree or a submodule.
  return existsSync(join(dir, ".git"));
}

/**
 * The config file that applies in `start`: the nearest `agentflow.config.json` in `start` or a
 * folder above it, looking no higher than the repository root or the file system root.
 */
export function findConfigFile(start: string): string | undefined {
  let dir = resolve(start);
  for (;;) {
    const candidate = join(dir, CONFIG_FILE_NAME);
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Absent (or unreadable as a folder entry): look further up.
    }
    const parent = dirname(dir);
    if (parent === dir || isRepositoryRoot(dir)) return undefined;
    dir = parent;
  }
}

let validateConfig: ReturnType<Ajv2020["compile"]> | undefined;

/** Where an Ajv error points, and what it says, in the CLI's words. */
function explain(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "additionalProperties") {
    const name = String(params.additionalProperty);
    return `${error.instancePath}/${name}: is not a setting agentflow knows`;
  }
  // A name the `propertyNames` enum refused: only rule codes are, in this schema.
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
    const first = validateConfig.errors?.[0];
    const what = first === undefined ? "is not a valid config" : explain(first);
    throw new UsageError(`${file}: ${what}`);
  }
  return value as AgentflowConfig;
}

/** `:line:column` of a JSON.parse error, as editors jump to it; the end for a cut-off text. */
function jsonErrorPlace(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : "";
  const at = /at position (\d+)/.exec(message)?.[1];
  const offset = at === undefined ? text.length : Math.min(Number(at), text.length);
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - (before.lastIndexOf("\n") + 1) + 1;
  return `:${line}:${column}`;
}

/** JSON.parse's message without the offset that {@link jsonErrorPlace} turned into a place. */
function jsonProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/ in JSON at position \d+( \(line \d+ column \d+\))?$/, "");
}

/** Reads and validates a config file; every problem is a {@link UsageError}. */
export async function loadConfigFile(file: string): Promise<LoadedConfig> {
  // The FIFO-safe reader: `-c <(…)` or a named pipe must not block the run forever.
  const text = await readText(file, "the config file ");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file}${jsonErrorPlace(text, error)}: not JSON: ${jsonProblem(error)}`);
  }
  return { file, dir: dirname(resolve(file)), config: checkConfig(file, value) };
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
  if (typeof option === "string") return loadConfigFile(option);
  const found = findConfigFile(cwd);
  if (found === undefined) return undefined;
  const shown = relative(cwd, found);
  return loadConfigFile(shown === "" || isAbsolute(shown) ? found : shown);
}

/**
 * A path the config names, relative to the config's folder, as the CLI shows paths: relative to
 * the working directory (so output stays free of machine-specific prefixes), `.` for it.
 */
export function configPath(loaded: LoadedConfig, path: string, cwd: string): string {
  const shown = relative(cwd, resolve(loaded.dir, path));
  return shown === "" ? "." : shown;
}
