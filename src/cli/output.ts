/**
 * Writing a command's `-o` file so that it never destroys what the run read, and never writes
 * anywhere but the file it names (docs/ci.md, "Where -o writes"):
 *
 * - it may not be any file the same run reads (an input, the config file, a registry document,
 *   a fixtures file), compared by identity (device and inode), so that another name for the
 *   file — a relative path, a symbolic or a hard link — is the same file;
 * - a symbolic link is not written through: its target could be anything (a link committed to
 *   the repository can point at a file outside it). Only the system's own device names under
 *   `/dev` that lead to a character device (`/dev/stdout` on a terminal, `/dev/stderr`) are;
 * - a regular file is replaced atomically: the text goes to a new file in the same folder,
 *   which is renamed over it, so a failed write leaves the old report whole and no partial
 *   file behind. The new file keeps the old one's permissions. A hard link elsewhere keeps the
 *   old content: only the name given is replaced;
 * - a character device (`/dev/null`) is written to, as a shell redirection would.
 */
import { randomBytes } from "node:crypto";
import type { Stats } from "node:fs";
import { lstat, open, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import { describeFsError, fileIdentity, oddKind } from "./fs-info.js";
import { UsageError } from "./io.js";

/** A file a run reads, and what it is to the run, for the refusal's message. */
export interface ReadFile {
  readonly path: string;
  /** What it is, as the refusal says it: `the config file`, `a registry document`… */
  readonly role: string;
  /** Added to the refusal: how to overwrite it all the same, when that is allowed. */
  readonly hint?: string;
}

/** What a run reads, by kind; {@link readsOf} lists them as {@link ReadFile}s. */
export interface RunReads {
  /** The files given on the command line, as collected (`check`, `gate`, `report`, `convert`…). */
  readonly inputs?: readonly string[];
  /** The config file used (`settings.configFile`). */
  readonly configFile?: string | undefined;
  /** The registry loaded (its `files`). */
  readonly registry?: { readonly files: readonly string[] } | undefined;
  /** `--fixtures`. */
  readonly fixtures?: string | undefined;
  /** Any other file the run reads (a policy pack…), with what it is. */
  readonly others?: readonly ReadFile[];
}

/** Every file of `reads`, each with its role. */
export function readsOf(reads: RunReads): ReadFile[] {
  const out: ReadFile[] = [];
  for (const path of reads.inputs ?? []) out.push({ path, role: "one of the input files" });
  if (reads.configFile !== undefined) out.push({ path: reads.configFile, role: "the config file" });
  for (const path of reads.registry?.files ?? []) {
    out.push({ path, role: "a document of the registry" });
  }
  if (reads.fixtures !== undefined) out.push({ path: reads.fixtures, role: "the fixtures file" });
  out.push(...(reads.others ?? []));
  return out;
}

async function statOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch {
    return undefined;
  }
}

async function lstatOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch {
    return undefined;
  }
}

/**
 * Refuses, as a {@link UsageError} naming both, an `output` that is one of `reads` by identity:
 * the same file by any name (a symbolic link, a hard link, `./x`). Nothing is refused when
 * `output` does not exist yet: no file the run read can be there.
 */
export async function assertOutputSpares(
  output: string,
  reads: readonly ReadFile[],
): Promise<void> {
  const target = await statOrUndefined(output);
  if (target === undefined) return;
  const id = fileIdentity(target);
  for (const read of reads) {
    const info = await statOrUndefined(read.path);
    if (info === undefined || fileIdentity(info) !== id) continue;
    throw overwriteRefusal("-o", output, read, "writing it");
  }
}

/**
 * The refusal to write `path` (as `flag` names it: `-o`, `--cache-location`) over `read`, a file
 * the run reads, found to be the same file: one wording for every output a run writes.
 */
export function overwriteRefusal(
  flag: string,
  path: string,
  read: ReadFile,
  writing: string,
): UsageError {
  const which = read.path === path ? read.role : `${read.role} '${read.path}' by another name`;
  return new UsageError(
    `${flag} '${path}' is ${which}, which this run reads; ${writing} would replace what was read${read.hint ?? ""}`,
  );
}

/** How the `-o` path is written: a new or replaced regular file, or a device written in place. */
type OutputKind =
  { readonly kind: "file"; readonly mode: number | undefined } | { readonly kind: "device" };

/** Whether `path` is one of the system's own names under `/dev` (`/dev/stdout`, `/dev/fd/1`). */
function isSystemDeviceName(path: string): boolean {
  return resolve(path).startsWith(`${sep}dev${sep}`);
}

/** Why the folder `-o` would be written in cannot hold it, or undefined when it can. */
async function folderProblem(path: string): Promise<string | undefined> {
  const folder = dirname(path);
  try {
    const info = await stat(folder);
    return info.isDirectory() ? undefined : `'${folder}' is not a folder`;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT") return `its folder '${folder}' does not exist`;
    return describeFsError(error);
  }
}

/**
 * What `path` is as an output, refusing what may not be written: an empty path, a folder that
 * does not exist, a directory, a FIFO or socket, and a symbolic link (but for the system's
 * device names under `/dev` that lead to a character device).
 */
async function outputKind(path: string): Promise<OutputKind> {
  if (path.trim() === "") {
    throw new UsageError("-o needs a file name, got an empty path (is a variable unset?)");
  }
  const entry = await lstatOrUndefined(path);
  if (entry?.isSymbolicLink() === true) {
    const target = await statOrUndefined(path);
    if (isSystemDeviceName(path) && target !== undefined) {
      if (target.isCharacterDevice()) return { kind: "device" };
      throw new UsageError(
        `cannot write '${path}': it leads to ${target.isFile() ? "a regular file" : oddKind(target)}, not a terminal or a device; leave out -o to print the report on stdout`,
      );
    }
    const where =
      target === undefined
        ? "a broken symbolic link"
        : `a symbolic link to '${await realpath(path).catch(() => "?")}'`;
    throw new UsageError(
      `cannot write '${path}': it is ${where}; -o writes only the file it names, never through a link (name the target itself, or remove the link)`,
    );
  }
  if (entry === undefined || entry.isFile()) {
    const problem = await folderProblem(path);
    if (problem !== undefined) throw new UsageError(`cannot write '${path}': ${problem}`);
    return { kind: "file", mode: entry === undefined ? undefined : entry.mode & 0o7777 };
  }
  if (entry.isCharacterDevice()) return { kind: "device" };
  if (entry.isDirectory()) throw new UsageError(`cannot write '${path}': it is a directory`);
  throw new UsageError(`cannot write '${path}': it is ${oddKind(entry)}, not a regular file`);
}

/**
 * Checks, before any work, that the `-o` file can be written where it is meant to go (see
 * {@link writeOutput} for what is refused), so that a mistake is said now, not after a whole
 * run's checking. Whether it is a file the run reads is known once the run has read its
 * settings, registry and inputs: {@link assertOutputSpares}.
 */
export async function checkOutputPath(path: string): Promise<void> {
  await outputKind(path);
}

/** What {@link writeOutput} must not overwrite. */
export interface WriteGuard {
  /** The one file the command read (`convert`): refused unless `force`. */
  readonly input?: string;
  /** The files given on the command line (`check`, `gate`). */
  readonly inputs?: readonly string[];
  /** Every other file the run read, with its role ({@link readsOf}). */
  readonly reads?: readonly ReadFile[];
  /** Overwrite `input` all the same (`convert --force`); never any other file read. */
  readonly force?: boolean;
}

/** The files a guard protects. */
function guarded(guard: WriteGuard): ReadFile[] {
  const out: ReadFile[] = [];
  if (guard.input !== undefined && guard.force !== true) {
    out.push({
      path: guard.input,
      role: "the input file",
      hint: " (add --force to overwrite it)",
    });
  }
  out.push(...readsOf({ inputs: guard.inputs ?? [] }), ...(guard.reads ?? []));
  return out;
}

/**
 * Writes `text` to a new file beside `path` and renames it over `path`: the rename replaces the
 * name in one step (a reader sees the old file or the new one, never half of one). The new file
 * is opened exclusively, so a link planted at its name is not followed; on any failure it is
 * removed and `path` is left as it was.
 */
async function replaceAtomically(
  path: string,
  text: string,
  mode: number | undefined,
): Promise<void> {
  const temp = join(dirname(path), `.agentflow-${randomBytes(8).toString("hex")}.tmp`);
  // Not created (nothing to remove) when this fails.
  const handle = await open(temp, "wx", 0o666);
  try {
    try {
      await handle.writeFile(text);
      if (mode !== undefined) await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}

/**
 * Writes a command's output file, or refuses as a {@link UsageError}: an empty path, a folder
 * that does not exist, what is not a regular file or a character device, a symbolic link (but
 * `/dev/stdout` and the like), and any file the run read (`guard`). A regular file is replaced
 * atomically; a failed write says why in the CLI's words and leaves the old file whole.
 */
export async function writeOutput(
  path: string,
  text: string,
  guard: WriteGuard = {},
): Promise<void> {
  // What the path is first, as checkOutputPath says it before a run: a link is refused as a
  // link (naming its target) whatever it leads to; then every other name of a file read.
  const kind = await outputKind(path);
  await assertOutputSpares(path, guarded(guard));
  try {
    if (kind.kind === "device") await writeFile(path, text);
    else await replaceAtomically(path, text, kind.mode);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const reason =
      code === "ENOENT" ? `its folder '${dirname(path)}' does not exist` : describeFsError(error);
    throw new UsageError(`cannot write '${path}': ${reason}`);
  }
}
