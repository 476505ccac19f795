/**
 * `check --print-config <file>` and `gate --print-config <file>` (as ESLint's): the settings a
 * run would apply to that file, as JSON, without checking anything. The config is the one the run
 * would use (found from the working directory upward, `-c`, or none with `--no-config`): a run
 * has one config for all its files, so the file decides only its kind and whether it is ignored.
 */
import { extname, relative } from "node:path";
import { DOCUMENT_EXTENSIONS, isProcessName } from "./files.js";
import { ignoreTest } from "./ignore.js";
import type { CliIo } from "./io.js";
import { UsageError } from "./io.js";
import type { BatchCliOptions } from "./settings.js";
import { provenanceOf, resolveSettings } from "./settings.js";

/** How a run would read a file: as a BPMN process, a JSON or YAML document, or not at all. */
export type PrintedKind = "process" | "json" | "yaml" | "unknown";

/** The kind a command reads `file` as: `gate` reads every file it is named as BPMN. */
export function kindOf(file: string, command: "check" | "gate"): PrintedKind {
  const ext = extname(file);
  if (command === "gate" || isProcessName(file)) return "process";
  return Object.hasOwn(DOCUMENT_EXTENSIONS, ext)
    ? (DOCUMENT_EXTENSIONS[ext] ?? "unknown")
    : "unknown";
}

/**
 * The settings that apply to `file`, as plain data. Keys are always present (`null`, `[]` or
 * `{}` when nothing is set), so that a script can read them without guarding each one.
 */
export async function printedConfig(
  file: string,
  options: BatchCliOptions,
  command: "check" | "gate",
  cwd: string,
): Promise<Record<string, unknown>> {
  if (file.trim() === "") {
    throw new UsageError("--print-config '' is empty: name the file (is a variable unset?)");
  }
  const settings = await resolveSettings(options, cwd);
  const ignored = ignoreTest(settings.ignores, cwd)?.(file) ?? false;
  const { ruleSet } = provenanceOf(settings);
  return {
    file,
    kind: kindOf(file, command),
    config: settings.config,
    configChain: settings.configChain,
    preset: settings.preset,
    registry: settings.registry,
    registrySource: settings.registry.length === 0 ? null : settings.registrySource,
    rules: { workflow: settings.workflowRules, bpmn: settings.bpmnRules },
    plugins: (settings.plugins ?? []).map((p) => ({ name: p.name, file: relative(cwd, p.file) })),
    policies: (settings.packs ?? []).map((p) => p.source),
    waivers: settings.ruleSetWaivers,
    camundaAgents: settings.camundaAgents,
    toolEffects: settings.toolEffects ?? {},
    gates: settings.gates ?? [],
    ignores: settings.ignores.map((g) => ({
      base: relative(cwd, g.base) || ".",
      patterns: g.patterns,
    })),
    ignored,
    today: settings.today ?? null,
    ruleSetDigest: ruleSet.digest,
  };
}

/**
 * Prints {@link printedConfig} of the `--print-config` file as JSON on stdout; exit 0 (a bad
 * config is a usage error). As ESLint's, it is one file's settings: other paths are refused.
 */
export async function runPrintConfig(
  paths: readonly string[],
  options: BatchCliOptions,
  command: "check" | "gate",
  io: CliIo,
): Promise<number> {
  if (paths.length > 0) throw new UsageError("--print-config takes no other paths");
  const file = options.printConfig ?? "";
  const printed = await printedConfig(file, options, command, process.cwd());
  io.stdout(JSON.stringify(printed, null, 2) + "\n");
  return 0;
}
