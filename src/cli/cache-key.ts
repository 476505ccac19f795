/**
 * What a cached result of `check` or `gate` (`--cache`) is keyed by: every input that decides
 * it, in one place. A result is reused only when ALL of these are equal to the run that
 * computed it:
 *
 * 1. the code that decides: agentflow's version and, for the built CLI, the bytes of its bundle
 *    ({@link codeKey}) — a rebuilt or upgraded agentflow never trusts an older cache;
 * 2. the run's settings ({@link runKey}): the command, the working directory (outputs name files
 *    relative to it), the config and every file its `extends` chain names (by content), the
 *    preset, every rule's level and options (`--no-suppress` included), the Camunda policy,
 *    tool effects and gate selectors, the plugins (each by the sha256 of its whole module graph
 *    and its content digest), the policy packs (by their text), the waivers and the day they are
 *    judged on, the moment of the run when a pack rule calls `today()` or `now()` (its verdict
 *    depends on when it runs, so such a run reuses nothing), the registry folders and where
 *    they were set, and the rule set's digest, which names all of that again as the outputs do;
 * 3. per file ({@link FileKey}): the path as given and the sha256 of its text;
 * 4. per file, every registry lookup its check made — tool contracts and workflows, those of
 *    sub-workflows too, each by `<kind> <ref>` — answering the same now: the content hash of the
 *    document it resolves to, the same conflict, or still `absent` (context: `recordedLookups`
 *    in check-context.ts; answers: `FolderRegistry.answer`).
 *
 * The output format, `--quiet`, colour, `--max-warnings` and `--sarif-category` are not in the
 * key: the cache holds each file's outcome, and the report is rendered from the outcomes on
 * every run, so a warm run prints what a cold one does, byte for byte.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { contentHash } from "../model/index.js";
import type { RunSettings } from "./settings.js";
import { provenanceOf } from "./settings.js";
import { packageVersion } from "./version.js";

let code: string | undefined;

/**
 * agentflow's version and the sha256 of the files beside this module: for the built CLI, the
 * whole bundle (dist/cli-bundle), so that a change to any rule without a new version number
 * still invalidates every cached result.
 */
export function codeKey(): string {
  if (code !== undefined) return code;
  const hash = createHash("sha256").update(packageVersion());
  const dir = dirname(fileURLToPath(import.meta.url));
  for (const name of readdirSync(dir).sort()) {
    const file = join(dir, name);
    if (!statSync(file).isFile()) continue;
    hash.update(`\0${name}\0`).update(readFileSync(file));
  }
  code = `${packageVersion()} ${hash.digest("hex")}`;
  return code;
}

/** The command a cached outcome belongs to: `gate` reads every file as a BPMN process. */
export type CachedCommand = "check" | "gate";

/**
 * The key of a run's settings: item 2 of this module's list. `now` is the moment of the run, in
 * the key only when a pack rule reads the clock.
 */
export function runKey(
  command: CachedCommand,
  cwd: string,
  settings: RunSettings,
  now: Date = new Date(),
): string {
  const provenance = provenanceOf(settings);
  return contentHash({
    command,
    cwd,
    config: settings.config,
    configChain: settings.configChain,
    preset: settings.preset,
    workflowRules: settings.workflowRules,
    bpmnRules: settings.bpmnRules,
    camundaAgents: settings.camundaAgents,
    toolEffects: settings.toolEffects ?? {},
    gates: settings.gates ?? [],
    plugins: (settings.plugins ?? []).map((p) => ({
      name: p.name,
      file: p.file,
      sha256: p.sha256,
      digest: p.digest,
    })),
    packs: (settings.packs ?? []).map((p) => ({ source: p.source, text: p.text })),
    waivers: settings.ruleSetWaivers,
    // Only when a waiver is in force, as the outputs' provenance: the day waivers are judged on.
    today: provenance.today ?? null,
    // FEEL's today() and now() read the system clock, not --today: to the millisecond, so that
    // a result that depends on the moment is never reused at another one.
    clock: settings.readsClock === true ? now.toISOString() : null,
    registry: settings.registry,
    registrySource: settings.registrySource,
    ruleSet: provenance.ruleSet.digest,
  });
}

/** A file's key: item 3 of this module's list. */
export interface FileKey {
  /** The path as given (outputs name the file so). */
  readonly file: string;
  /** The sha256 of its text, hex. */
  readonly sha256: string;
}
