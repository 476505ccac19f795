/**
 * Finding and reading a diagram's project settings through the Modeler's file reader: the
 * nearest `agentflow.config.json` at or above the diagram's folder, no higher than the project
 * root (the nearest folder holding `.git` or `package.json`), and only in the diagram's own
 * folder when there is no project root — the rule `agentflow check` follows from the working
 * directory, so that both read the same file. Then the policy packs it names, relative to it
 * and inside the project root, compiled, and each named as no other is. Every failure is a problem
 * of the result, never a throw.
 */
import type { CompiledPack } from "../policy/index.js";
import { formatPolicyProblem, readPolicyPack } from "../policy/index.js";
import { duplicatePackProblems } from "../policy/waiver-packs.js";
import { CONFIG_FILE_NAME } from "../cli/config-types.js";
import { dirname, isInside, joinPath, resolvePath } from "./paths.js";
import type { ProjectConfig } from "./project-config.js";
import { readProjectConfig } from "./project-config.js";

/** What reading one path gives. */
export type FileRead =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "missing" }
  | { readonly kind: "folder" }
  | { readonly kind: "error"; readonly message: string };

/** Reads a file as UTF-8 text; never rejects. */
export type ReadFile = (path: string) => Promise<FileRead>;

/** A diagram's project, as far as it could be read. */
export interface ProjectRead {
  /** The config file that applies, when one does. */
  readonly config?: ProjectConfig;
  /** The packs it names, compiled (none when any pack has a problem: it is said instead). */
  readonly packs: readonly CompiledPack[];
  /** Problems beyond the config's own: a file that cannot be read, a pack that does not compile. */
  readonly problems: readonly string[];
}

async function isProjectRoot(dir: string, read: ReadFile): Promise<boolean> {
  // `.git` is a folder in a clone and a file in a worktree or a submodule.
  const git = await read(joinPath(dir, ".git"));
  if (git.kind !== "missing") return true;
  return (await read(joinPath(dir, "package.json"))).kind !== "missing";
}

interface Located {
  readonly file: string;
  readonly root: string;
  readonly read: FileRead;
}

/** The config file that applies to a diagram at `diagram`, read, or `undefined` when none does. */
async function locate(diagram: string, read: ReadFile): Promise<Located | undefined> {
  const start = dirname(diagram);
  let found: { file: string; read: FileRead } | undefined;
  for (let dir = start; ; dir = dirname(dir)) {
    if (found === undefined) {
      const file = joinPath(dir, CONFIG_FILE_NAME);
      const got = await read(file);
      if (got.kind !== "missing") found = { file, read: got };
    }
    if (await isProjectRoot(dir, read)) {
      return found === undefined ? undefined : { ...found, root: dir };
    }
    if (dirname(dir) === dir) break;
  }
  // No project root: only a config in the diagram's own folder counts (another project's, or a
  // shared folder's, could turn rules off unseen).
  return found !== undefined && dirname(found.file) === start
    ? { ...found, root: start }
    : undefined;
}

async function readPacks(
  config: ProjectConfig,
  root: string,
  read: ReadFile,
): Promise<{ packs: CompiledPack[]; problems: string[] }> {
  const problems: string[] = [];
  const packs: CompiledPack[] = [];
  const dir = dirname(config.file);
  for (const path of config.policies) {
    const file = resolvePath(dir, path);
    if (!isInside(root, file)) {
      problems.push(
        `${config.file}: policy pack '${path}' resolves to ${file}, outside the project (${root})`,
      );
      continue;
    }
    const got = await read(file);
    if (got.kind !== "text") {
      const why =
        got.kind === "error" ? got.message : `is ${got.kind === "folder" ? "a folder" : "missing"}`;
      problems.push(`${config.file}: policy pack '${path}' cannot be read (${file}): ${why}`);
      continue;
    }
    try {
      const reading = readPolicyPack(got.text, file);
      if ("problems" in reading) problems.push(...reading.problems.map(formatPolicyProblem));
      else packs.push(reading.pack);
    } catch (error) {
      // Compiling a pack's checks generates code; a window that forbids it (a strict
      // Content-Security-Policy) makes this throw, and the pack judges nothing.
      const message = error instanceof Error ? error.message : String(error);
      problems.push(`${file}: the pack cannot be compiled here: ${message}`);
    }
  }
  // Two packs of one name: either's waivers would waive the other's rules (as the CLI refuses).
  if (problems.length === 0) {
    problems.push(...duplicatePackProblems(packs).map((line) => `${config.file}: ${line}`));
  }
  // A pack with a problem judges nothing: none of them run, as `agentflow gate` refuses to run.
  return { packs: problems.length > 0 ? [] : packs, problems };
}

/**
 * Reads the project settings that apply to the diagram saved at `diagram` (an absolute path).
 */
export async function readProject(diagram: string, read: ReadFile): Promise<ProjectRead> {
  const located = await locate(diagram, read);
  if (located === undefined) return { packs: [], problems: [] };
  if (located.read.kind !== "text") {
    const why = located.read.kind === "error" ? located.read.message : "it is a folder, not a file";
    return {
      packs: [],
      problems: [`${located.file}: cannot be read: ${why}; the rules run with the defaults`],
    };
  }
  const config = readProjectConfig(located.file, located.read.text);
  const { packs, problems } = await readPacks(config, located.root, read);
  return { config, packs, problems };
}
