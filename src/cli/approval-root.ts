/**
 * Naming an approval's inputs: each by its POSIX path relative to the repository root, so that
 * an approval made in one clone verifies in another, from any working directory. The root is
 * `--root`, else the git repository of where the inputs are (the nearest folder with `.git`),
 * else their project root (the nearest with `package.json`), else the working directory. The
 * git root comes first so that, in a monorepo, the root is one folder whichever package's path
 * is named first and wherever the command runs.
 */
import { existsSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { nearestAbove, projectRoot } from "./config.js";
import { UsageError } from "./io.js";
import { isInside } from "./plugins.js";

/** The folder a path given on the command line starts in (a glob's, a missing file's: its folder). */
function folderOf(path: string, cwd: string): string {
  const abs = resolve(cwd, path);
  const info = statSync(abs, { throwIfNoEntry: false });
  return info?.isDirectory() === true ? abs : dirname(abs);
}

/** The nearest folder at or above `dir` holding `.git` (a folder in a clone, a file in a worktree). */
function gitRoot(dir: string): string | undefined {
  return nearestAbove(dir, (at) => existsSync(join(at, ".git")));
}

/**
 * The repository root, absolute: `option` (`--root`) when given, else the git root of the first
 * of `starts` (paths, resolved from `cwd`) that is in a git repository, else the project root of
 * the first that has one, else `cwd`.
 */
export function repositoryRoot(
  option: string | undefined,
  starts: readonly string[],
  cwd: string,
): string {
  if (option !== undefined) {
    const root = resolve(cwd, option);
    if (statSync(root, { throwIfNoEntry: false })?.isDirectory() !== true) {
      throw new UsageError(`--root '${option}' is not a folder`);
    }
    return root;
  }
  const folders = starts.map((start) => folderOf(start, cwd));
  for (const folder of folders) {
    const found = gitRoot(folder);
    if (found !== undefined) return found;
  }
  for (const folder of folders) {
    const found = projectRoot(folder);
    if (found !== undefined) return found;
  }
  return cwd;
}

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

const posix = (path: string): string => (sep === "/" ? path : path.split(sep).join("/"));

/**
 * The subject name of `path` (as the working directory reaches it): its POSIX path relative to
 * `root`, `.` for the root itself. A path outside the root, by name and with links resolved, is
 * a {@link UsageError} naming it: the approval could not name it so that another clone finds it.
 * So is a path inside it by name that a symbolic link leads out of it: what an approval covers is
 * what the repository holds, and an approval, untrusted until verified, must not make `verify`
 * read a file elsewhere on the machine.
 */
export function subjectName(root: string, cwd: string, path: string): string {
  const abs = resolve(cwd, path);
  const realRoot = realOrResolved(root);
  const realPath = realOrResolved(abs);
  if (isInside(root, abs)) {
    if (realPath !== abs && !isInside(realRoot, realPath)) {
      throw new UsageError(
        `'${path}' leads outside the repository root ${root} (a symbolic link to '${realPath}'): an approval covers only what the repository holds`,
      );
    }
    return posix(relative(root, abs)) || ".";
  }
  if (isInside(realRoot, realPath)) return posix(relative(realRoot, realPath)) || ".";
  throw new UsageError(
    `'${path}' is outside the repository root ${root}: an approval names every input relative to the root (set it with --root)`,
  );
}

/**
 * Why `name` is not a name an approval records (a POSIX path relative to the root, each segment
 * a name), or undefined when it is one. On POSIX a backslash is a character of a file name; on
 * Windows it is the separator: a name holding one means another file there, and `verify` refuses
 * it, so `approve` must not write it.
 */
export function plainNameProblem(name: string): string | undefined {
  if (name === ".") return undefined;
  if (name.includes("\\")) return "holds a backslash (a folder separator on Windows)";
  if (name.startsWith("/")) return "is an absolute path";
  if (name.split("/").some((s) => s === "" || s === "." || s === "..")) {
    return "has an empty, '.' or '..' segment";
  }
  return undefined;
}

/**
 * The check of a name an approval records, the one `verify`, `approve --sign` and `report
 * --approval` apply before reading anything it names, and `approve` before recording it: a plain
 * name ({@link plainNameProblem}) that stays inside `root` once symbolic links are resolved. A
 * name that is not plain is a {@link UsageError} worded by `refusal(why)`; one a link leads out
 * of the root is {@link subjectName}'s.
 */
export function assertRecordedName(
  root: string,
  cwd: string,
  name: string,
  refusal: (why: string) => string,
): void {
  const why = plainNameProblem(name);
  if (why !== undefined) throw new UsageError(refusal(why));
  subjectName(root, cwd, fromRoot(root, cwd, name));
}

/**
 * The path the working directory reaches a subject `name` by: relative when it is below `cwd`,
 * else absolute (`../..` chains say less than the place itself).
 */
export function fromRoot(root: string, cwd: string, name: string): string {
  const abs = resolve(root, name);
  const rel = relative(cwd, abs);
  if (rel === "") return ".";
  return rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel) ? abs : rel;
}
