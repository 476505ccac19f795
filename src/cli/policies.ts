/**
 * Reading the policy packs `agentflow.config.json` names (`"policies": ["policy/bank.policy.yaml"]`):
 * paths relative to the config, inside its repository, read with the FIFO-safe reader and
 * compiled. A pack that does not compile judges nothing, so any problem in any pack is a usage
 * error listing every problem, one compiler-style line each (exit 2), never a silent pass.
 */
import { realpathSync } from "node:fs";
import { relative, resolve } from "node:path";
import type { CompiledPack } from "../policy/index.js";
import { formatPolicyProblem, readPolicyPack } from "../policy/index.js";
import { readText } from "./file-read.js";
import { UsageError } from "./io.js";
import { isInside } from "./plugins.js";

/** A pack as plain data (what a worker thread is given to compile it again). */
export interface PackSource {
  /** The file as the CLI shows paths (relative to the working directory when inside it). */
  readonly source: string;
  readonly text: string;
}

/** The path of `file` as the CLI shows it: relative to `cwd`, else absolute. */
function shown(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel === "" || rel.startsWith("..") ? file : rel;
}

/**
 * Reads the packs the config names. Paths are relative to `configDir` and must resolve inside
 * `root`; every problem of every pack is gathered into one {@link UsageError}.
 */
export async function readPacks(
  paths: readonly string[],
  configFile: string,
  configDir: string,
  root: string,
  cwd: string,
): Promise<{ readonly sources: PackSource[]; readonly packs: CompiledPack[] }> {
  const realRoot = realpathSync(root);
  const sources: PackSource[] = [];
  for (const path of paths) {
    const file = resolve(configDir, path);
    const source = shown(file, cwd);
    const outside = (at: string, top: string): UsageError =>
      new UsageError(
        `${configFile}: policy pack '${path}' resolves to ${at}, outside the repository (${top})`,
      );
    if (!isInside(root, file) && !isInside(realRoot, file)) throw outside(file, root);
    let real: string;
    try {
      real = realpathSync(file);
    } catch {
      throw new UsageError(
        `${configFile}: policy pack '${path}' does not exist (looked for ${source})`,
      );
    }
    // Links resolved: a pack linked in from elsewhere is not the repository's policy.
    if (!isInside(realRoot, real)) throw outside(real, realRoot);
    sources.push({ source, text: await readText(file, "the policy pack ") });
  }
  const problems: string[] = [];
  const packs: CompiledPack[] = [];
  for (const { source, text } of sources) {
    const reading = readPolicyPack(text, source);
    if ("problems" in reading) problems.push(...reading.problems.map(formatPolicyProblem));
    else packs.push(reading.pack);
  }
  if (problems.length > 0) throw new UsageError(problems.join("\n"));
  return { sources, packs };
}

/**
 * Compiles packs again from their text (a worker thread). They compiled on the main thread, so
 * a problem here is no user mistake but a bug; it is thrown as one.
 */
export function compilePacks(sources: readonly PackSource[]): CompiledPack[] {
  return sources.map(({ source, text }) => {
    const reading = readPolicyPack(text, source);
    if ("problems" in reading) {
      throw new Error(
        `policy pack ${source} no longer compiles: ${reading.problems.map(formatPolicyProblem).join("; ")}`,
      );
    }
    return reading.pack;
  });
}
