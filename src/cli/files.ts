/**
 * Finding the files a command is given (file-read.ts reads them): files as named, glob patterns expanded
 * (`glob.ts`), directories walked in sorted order (stable output), skipping `node_modules`,
 * dot-folders and what the ignore patterns name. A dot-file is read as the same file without the
 * dot would be (file-kinds.ts). Symbolic links are followed, files and folders alike; a folder
 * reached a second time (a loop, or two links to one folder) is walked once.
 *
 * What is passed over is said, and what cannot be read fails closed: a folder below the inputs
 * that cannot be listed (or a link that cannot be followed for a reason other than leading
 * nowhere) is listed among the files, so that its read fails and reports it as unreadable
 * (`FILE_UNREADABLE`, exit 2) — what it holds is part of what was asked, and unknown. Only
 * regular files are read: a FIFO would block the read forever.
 */
import type { Dirent, Stats } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";
import { isDynamicPattern } from "tinyglobby";
import { DOCUMENT_EXTENSIONS, PROCESS_NAMES, isDocumentName, isProcessName } from "./file-kinds.js";
import { describeFsError as describe, fileIdentity as identity, oddKind } from "./fs-info.js";
import { expandGlob } from "./glob.js";
import type { IgnoreTest } from "./ignore.js";
import { UsageError } from "./io.js";

// Where the CLI's other modules and action/narrow.js (through dist) have always found them.
export * from "./file-kinds.js";

/** What a walk collects besides workflow documents. */
export interface CollectOptions {
  /** Also collect process files (`.bpmn`, `.bpmn20.xml`). */
  readonly processes?: boolean;
  /**
   * Collect only process files from folders and globs (`gate`); a file named as such is
   * read whatever its extension, as BPMN.
   */
  readonly onlyProcesses?: boolean;
  /** Paths that folder walks and globs pass over (named files are always read). */
  readonly ignored?: IgnoreTest;
  /** The folder glob patterns are relative to; the working directory by default. */
  readonly cwd?: string;
  /**
   * The command's `-o` file: folder walks and globs pass over it, so that a second run does not
   * read the first run's report as input. Named as an input, it is kept (and `-o` then refused).
   */
  readonly output?: string;
}

/** A path a folder walk passed over, and why (a broken link, a loop, a FIFO…). */
export interface SkippedPath {
  readonly path: string;
  readonly reason: string;
  /**
   * True when what the path would give was never read (a broken link, a FIFO, a device); false
   * when it was read under another name (a loop, a folder reached a second time). A registry
   * counts an unread path as an error: the document a reference names may be the one it hid.
   */
  readonly unread: boolean;
}

/** The files a command reads, in order, and the paths passed over on the way. */
export interface Collected {
  readonly files: string[];
  readonly skipped: SkippedPath[];
}

/**
 * Why a link that `stat` cannot follow leads nowhere (missing, a loop of links, a file where a
 * folder should be), or `undefined` when the failure says nothing of where it leads.
 */
function danglingReason(error: unknown): string | undefined {
  const code = (error as { code?: unknown }).code;
  if (code === "ENOENT") return "a broken symbolic link";
  if (code === "ELOOP" || code === "ENOTDIR") return describe(error);
  return undefined;
}

/** Entries of one folder, sorted by code unit so that output is stable. */
async function sortedEntries(dir: string): Promise<Dirent[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Appends the documents below `root` to `out`, depth first, in sorted order, and returns the
 * entries the ignore patterns passed over that could have held one (a folder, a link, a file of a
 * kind the command reads). Iterative (the depth of a tree of folders is the input's), with one
 * `stat` per folder and per link only.
 */
async function walk(
  root: string,
  rootInfo: Stats,
  out: Collected,
  wanted: (name: string) => boolean,
  ignored: IgnoreTest | undefined,
): Promise<string[]> {
  const passedOver: string[] = [];
  const seen = new Map<string, string>([[identity(rootInfo), root]]);
  let rootEntries: Dirent[];
  try {
    rootEntries = await sortedEntries(root);
  } catch (error) {
    // The folder was named: not listing it is the user's problem, said in the CLI's words.
    throw new UsageError(`cannot read '${root}': ${describe(error)}`);
  }
  // Each frame is a folder's remaining entries, reversed so that pop() gives the next.
  const stack: { readonly dir: string; readonly entries: Dirent[] }[] = [
    { dir: root, entries: rootEntries.reverse() },
  ];
  for (let frame = stack.at(-1); frame !== undefined; frame = stack.at(-1)) {
    const entry = frame.entries.pop();
    if (entry === undefined) {
      stack.pop();
      continue;
    }
    const name = entry.name;
    if (name === "node_modules") continue;
    // A dot-folder (`.git`, `.venv`, `.github`) is passed over; a dot-file is not (file-kinds.ts).
    // A dot-named entry can only matter as a file of a kind the command reads.
    const dotted = name.startsWith(".");
    if (dotted && entry.isDirectory()) continue;
    const path = join(frame.dir, name);
    if (ignored?.(path) === true) {
      const mayHold = !dotted && (entry.isDirectory() || entry.isSymbolicLink());
      if (wanted(name) || mayHold) passedOver.push(path);
      continue;
    }
    let info: Stats | undefined;
    if (entry.isSymbolicLink()) {
      try {
        info = await stat(path);
      } catch (error) {
        const dangling = danglingReason(error);
        if (dangling === undefined) {
          // Not followed for another reason (permission denied on the way): it may lead to a
          // folder of documents, so it is listed as an input, whose read says why it failed.
          // A dot-named one would be passed over as a folder, so only its name can make it one.
          if (!dotted || wanted(name)) out.files.push(path);
          continue;
        }
        // It leads nowhere; reported only when its name is one the command reads, so that
        // `gate` says nothing of a broken `notes.json` it would never read.
        if (wanted(name)) out.skipped.push({ path, reason: dangling, unread: true });
        continue;
      }
    }
    const isDirectory = info?.isDirectory() ?? entry.isDirectory();
    if (isDirectory) {
      // A dot-named link to a folder is a dot-folder where the walk meets it.
      if (dotted) continue;
      try {
        info ??= await stat(path);
      } catch {
        // A folder that cannot even be looked at (its path is past the system's length limit,
        // or it went away): what it holds is unknown, so it is listed as an input, whose read
        // then fails and reports it as unreadable (exit 2), rather than left out unsaid.
        out.files.push(path);
        continue;
      }
      const first = seen.get(identity(info));
      if (first !== undefined) {
        const loop = path.startsWith(first + sep);
        out.skipped.push({
          path,
          reason: loop
            ? `a symbolic link back to '${first}', which holds it (a loop)`
            : `the same folder as '${first}', read already`,
          unread: false,
        });
        continue;
      }
      seen.set(identity(info), path);
      let entries: Dirent[];
      try {
        entries = await sortedEntries(path);
      } catch {
        // A folder that cannot be listed (permission denied) holds documents nobody has seen:
        // listed as an input, whose read reports it as unreadable (exit 2), never passed over.
        out.files.push(path);
        continue;
      }
      stack.push({ dir: path, entries: entries.reverse() });
      continue;
    }
    if (!wanted(name)) continue;
    const isFile = info?.isFile() ?? entry.isFile();
    if (isFile) out.files.push(path);
    else {
      out.skipped.push({
        path,
        reason: `${oddKind(info ?? entry)}, not a regular file`,
        unread: true,
      });
    }
  }
  return passedOver;
}

/**
 * Why a folder yields nothing: it holds no file of the kinds, or the ignore patterns passed over
 * every one it holds (said with what they passed over, so that a user sees which pattern hid it).
 */
function emptyFolder(path: string, kinds: string, passedOver: readonly string[]): string {
  if (passedOver.length === 0) return `'${path}' holds no ${kinds} file`;
  const shown = passedOver.slice(0, 3).map((p) => `'${p}'`);
  const more = passedOver.length > 3 ? ` and ${String(passedOver.length - 3)} more` : "";
  return `'${path}' holds no ${kinds} file that the ignore patterns leave: they pass over ${shown.join(", ")}${more}`;
}

/**
 * Expands the paths a user gave into document files. A missing path that is not a glob pattern,
 * a glob that matches no file, a path that is not a regular file or a folder, or a file with an
 * extension agentflow does not read is a {@link UsageError}; inside folders such paths are
 * passed over and listed in `skipped`. A folder inside them (or one a glob enters) that cannot
 * be listed is among the `files`: reading it fails, so that the run reports it as unreadable.
 */
export async function collectFiles(
  paths: readonly string[],
  options: CollectOptions = {},
): Promise<Collected> {
  const only = options.onlyProcesses === true;
  const processes = only || options.processes === true;
  const kinds = only
    ? PROCESS_NAMES
    : processes
      ? `.json, .yaml, .yml, ${PROCESS_NAMES}`
      : ".json, .yaml or .yml";
  const wanted = (name: string): boolean =>
    (!only && isDocumentName(name)) || (processes && isProcessName(name));
  const out: Collected = { files: [], skipped: [] };
  const named = new Set<string>();
  for (const path of paths) {
    let info;
    try {
      info = await stat(path);
    } catch (error) {
      // A pattern is tried as a path first: a file may be named `a[1].json`.
      if (isDynamicPattern(path)) {
        const matched = await expandGlob(path, wanted, {
          cwd: options.cwd ?? process.cwd(),
          ...(options.ignored === undefined ? {} : { ignored: options.ignored }),
        });
        if (matched.length === 0) throw new UsageError(`no ${kinds} file matches '${path}'`);
        for (const file of matched) out.files.push(file);
        continue;
      }
      throw new UsageError(`cannot read '${path}': ${describe(error)}`);
    }
    if (info.isDirectory()) {
      const before = out.files.length;
      const passedOver = await walk(path, info, out, wanted, options.ignored);
      if (out.files.length === before) throw new UsageError(emptyFolder(path, kinds, passedOver));
    } else if (!info.isFile()) {
      throw new UsageError(`cannot read '${path}': it is ${oddKind(info)}, not a regular file`);
    } else if (
      only ||
      Object.hasOwn(DOCUMENT_EXTENSIONS, extname(path)) ||
      (processes && isProcessName(path))
    ) {
      out.files.push(path);
      named.add(path);
    } else {
      throw new UsageError(`'${path}': unknown file type (expected ${kinds})`);
    }
  }
  const files = await onceEach(out.files);
  if (options.output === undefined) return { files, skipped: out.skipped };
  const output = await realOrResolved(options.output);
  const found: string[] = [];
  for (const file of files) {
    if (named.has(file) || (await realOrResolved(file)) !== output) found.push(file);
  }
  return { files: found, skipped: out.skipped };
}

async function realOrResolved(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return resolve(path);
  }
}

/**
 * The files with each real file kept once, where it first appears, as ESLint does: a file named
 * twice, matched by a glob and named, or reached again through a symbolic link (a glob follows
 * links, loops included) is checked once, so that it neither doubles its findings nor reads as
 * a second definition of itself.
 */
async function onceEach(files: readonly string[]): Promise<string[]> {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const file of files) {
    // A path that cannot be resolved is left for the read to report, in the CLI's words.
    const real = await realOrResolved(file);
    if (seen.has(real)) continue;
    seen.add(real);
    kept.push(file);
  }
  return kept;
}
