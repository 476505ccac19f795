/**
 * Glob patterns expanded into files, with tinyglobby (a well-kept globber, on fdir). The crawl
 * goes through a file system of ours that notes every folder it could not list: tinyglobby
 * passes over such a folder without a word, and what it holds is part of what the pattern asks
 * for, so it is returned among the matches, for the read to report as unreadable (fail closed).
 * So is a link it could not follow (into a folder that cannot be entered) where the pattern may
 * reach it: tinyglobby drops such a link before matching. A pattern that climbs out of the
 * working directory (`../*\/*.bpmn`, or an absolute one) is crawled from the folder it climbs to:
 * tinyglobby 0.2 leaves the working directory's own files out of such a pattern's matches
 * (SuperchupuDev/tinyglobby#128), which would judge a subset of what was asked without a word.
 */
import type { Dirent } from "node:fs";
import { readdir, realpath } from "node:fs";
import { realpath as realpathOf } from "node:fs/promises";
import { isAbsolute, join, normalize, relative, resolve } from "node:path";
import type { GlobOptions as CrawlOptions } from "tinyglobby";
import picomatch from "picomatch";
import { glob } from "tinyglobby";
import { ALWAYS_IGNORED } from "./ignore.js";
import type { IgnoreTest } from "./ignore.js";

/** Where a pattern is expanded and what it passes over. */
export interface GlobOptions {
  /** The folder a relative pattern is relative to. */
  readonly cwd: string;
  /** Paths passed over (node_modules and .git always are). */
  readonly ignored?: IgnoreTest;
}

type ReaddirCallback = (error: NodeJS.ErrnoException | null, entries: Dirent[]) => void;
type RealpathCallback = (error: NodeJS.ErrnoException | null, resolved: string) => void;

/**
 * Failures that leave nothing unread: the folder is not there (any more), or it is reached
 * through a loop of links, whose folders are read under their other names.
 */
const NOTHING_UNREAD = new Set(["ENOENT", "ENOTDIR", "ELOOP"]);

/** The file system a crawl uses. */
type CrawlFs = NonNullable<CrawlOptions["fs"]>;

/**
 * The `readdir` and `realpath` tinyglobby crawls with, and the folders it could not list, each
 * named by the path the pattern reaches it by: fdir lists a linked folder by its real path, so
 * the link that led there is named instead.
 */
function watchedFs(): {
  readonly fs: CrawlFs;
  readonly unlisted: string[];
  readonly unresolved: string[];
} {
  const unlisted: string[] = [];
  const unresolved: string[] = [];
  const linkOf = new Map<string, string>();
  const watchedReaddir = (path: string, options: unknown, callback: ReaddirCallback): void => {
    readdir(path, options as { withFileTypes: true }, (error, entries) => {
      if (error !== null && !NOTHING_UNREAD.has(error.code ?? "")) {
        const bare = path.endsWith("/") && path.length > 1 ? path.slice(0, -1) : path;
        unlisted.push(linkOf.get(bare) ?? bare);
      }
      callback(error, entries);
    });
  };
  // fdir resolves each link it meets with realpath and drops one it cannot resolve, before any
  // matching: a link into a folder that cannot be entered (EACCES) is noted here, as it is met.
  const watchedRealpath = (path: string, callback: RealpathCallback): void => {
    realpath(path, (error, resolved) => {
      if (error === null && !linkOf.has(resolved)) linkOf.set(resolved, path);
      if (error !== null && !NOTHING_UNREAD.has(error.code ?? "")) unresolved.push(path);
      callback(error, resolved);
    });
  };
  // Typed as node's overloaded functions; fdir calls only these two forms of them.
  const fs = { readdir: watchedReaddir, realpath: watchedRealpath } as unknown as CrawlFs;
  return { fs, unlisted, unresolved };
}

/**
 * Whether a link that could not be resolved may be what `pattern` asks for: a file it matches,
 * or a folder it would go into (a `**`, or a deeper pattern whose leading segments match the
 * link's path). What the link points to cannot be told, so both are assumed (fail closed).
 */
function mayMatch(pattern: string, path: string, wanted: (name: string) => boolean): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  if (wanted(name) && picomatch(pattern, { dot: true })(path)) return true;
  const segments = pattern.split("/");
  if (segments.includes("**")) return true;
  const depth = path.split("/").length;
  return (
    segments.length > depth && picomatch(segments.slice(0, depth).join("/"), { dot: false })(path)
  );
}

/** A segment naming a dot-folder: `.github`, not `.` or `..`. */
const isDotName = (segment: string): boolean =>
  segment.startsWith(".") && segment !== "." && segment !== "..";

/**
 * Whether a match stays clear of dot-folders, or goes only into those the pattern names (a
 * segment of its own starting with `.`, such as `.github/**`). A dot-FILE matches as any file
 * does: a walk reads it as the same file without the dot would be read (files.ts), and an engine
 * deploying `**\/*.bpmn` deploys it; dot-folders are passed over, as a walk passes them over.
 */
function clearOfDotFolders(
  file: string,
  dotSegments: readonly ((s: string) => boolean)[],
): boolean {
  const segments = file.split("/");
  for (let i = 0; i < segments.length - 1; i++) {
    const segment = segments[i] ?? "";
    if (isDotName(segment) && !dotSegments.some((named) => named(segment))) return false;
  }
  return true;
}

/**
 * Where a pattern is crawled from and what is matched there: from the folder it climbs to when it
 * starts above the working directory (its static base, unescaped and normalised, so that
 * `ci/../../x` and `../Finance \(EU\)` climb too: `..` or absolute), else from the working
 * directory. A pattern whose climbing is inside braces (`{../a,../b}/*.bpmn`) is left to
 * tinyglobby, which then matches nothing there: a usage error, never a subset.
 */
function crawlFrom(
  pattern: string,
  cwd: string,
): { readonly cwd: string; readonly pattern: string; readonly base: string } {
  const { base, glob: rest } = picomatch.scan(pattern);
  const folder = normalize(base.replace(/\\(.)/g, "$1"));
  const climbs = isAbsolute(folder) || folder === ".." || folder.startsWith("../");
  if (!climbs || rest === "" || base === "") return { cwd, pattern, base: "" };
  return { cwd: resolve(cwd, folder), pattern: rest, base: folder };
}

/**
 * Files a glob pattern matches whose name is `wanted`, and folders it entered but could not list,
 * sorted by code unit; node_modules and .git never. Relative to `cwd` unless the pattern is
 * absolute, as tinyglobby returns them.
 */
export async function expandGlob(
  pattern: string,
  wanted: (name: string) => boolean,
  options: GlobOptions,
): Promise<string[]> {
  const absolute = isAbsolute(pattern);
  const watched = watchedFs();
  const dotSegments = pattern
    .split("/")
    .filter(isDotName)
    .map((segment) => picomatch(segment, { dot: true }));
  const crawl = crawlFrom(pattern, options.cwd);
  const found = await glob(crawl.pattern, {
    cwd: crawl.cwd,
    absolute,
    onlyFiles: true,
    dot: true,
    expandDirectories: false,
    followSymbolicLinks: true,
    // Not crawled at all when the pattern names no dot-folder (`.cache` may be large).
    ignore: dotSegments.length === 0 ? [...ALWAYS_IGNORED, "**/.*/**"] : [...ALWAYS_IGNORED],
    fs: watched.fs,
  });
  // Back to paths as the pattern gives them: relative to the working directory, or absolute.
  const matches = absolute || crawl.base === "" ? found : found.map((f) => join(crawl.base, f));
  const ignored = options.ignored;
  // The ignore globs above are relative to the working directory; a pattern reaching outside it
  // (`../x/**`, `/abs/**`) is kept out of these folders by its segments.
  const never = (file: string): boolean =>
    file.split("/").some((segment) => segment === "node_modules" || segment === ".git");
  const kept = matches.filter(
    (file) =>
      wanted(file.slice(file.lastIndexOf("/") + 1)) &&
      !never(file) &&
      clearOfDotFolders(file, dotSegments) &&
      ignored?.(file) !== true,
  );
  const asGiven = (path: string): string =>
    absolute ? path : relative(resolve(options.cwd), path) || ".";
  const unlisted = watched.unlisted
    .map(asGiven)
    .filter((path) => !never(path) && ignored?.(path) !== true);
  // A link that could not be followed is among the matches, for the read to report unreadable.
  const unresolved = watched.unresolved
    .map(asGiven)
    .filter((path) => mayMatch(pattern, path, wanted) && !never(path) && ignored?.(path) !== true);
  const files = await unlinkedFirst(kept, options.cwd);
  return [...files, ...new Set([...unlisted, ...unresolved])].sort((a, b) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
}

/**
 * One path per real file among a glob's matches: a glob follows symbolic links, loops included
 * (`a/self/x.json`, `a/up/a/x.json`), so the file's own path is kept when it is among them, and
 * otherwise the first.
 */
async function unlinkedFirst(matches: readonly string[], cwd: string): Promise<string[]> {
  const chosen = new Map<string, string>();
  for (const file of matches) {
    let path: string;
    try {
      path = await realpathOf(resolve(cwd, file));
    } catch {
      path = resolve(cwd, file);
    }
    if (!chosen.has(path) || resolve(cwd, file) === path) chosen.set(path, file);
  }
  return [...chosen.values()];
}
