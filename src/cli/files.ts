/**
 * Finding and reading the files a command is given: files as named, directories walked in sorted
 * order (stable output), skipping `node_modules` and dot-folders.
 */
import type { Dirent } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { extname, join } from "node:path";
import { UsageError } from "./io.js";

/** The extensions read as documents, with the syntax they imply. */
export const DOCUMENT_EXTENSIONS: Readonly<Record<string, "json" | "yaml">> = {
  ".json": "json",
  ".yaml": "yaml",
  ".yml": "yaml",
};

function describe(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === "ENOENT") return "no such file or directory";
  if (code === "EACCES") return "permission denied";
  if (code === "EISDIR") return "is a directory";
  return error instanceof Error ? error.message : String(error);
}

/** BPMN process files, which `check` and `gate` read (a registry folder does not). */
export const PROCESS_EXTENSION = ".bpmn";

/** What a walk collects besides workflow documents. */
export interface CollectOptions {
  /** Also collect `.bpmn` process files. */
  readonly processes?: boolean;
}

/**
 * Simulation fixtures (`*.fixtures.json`, `*.fixtures.yaml`) live next to workflows but are
 * inputs, not documents, so a folder walk leaves them out; named explicitly, they are read.
 */
function isDocumentName(name: string): boolean {
  const ext = extname(name);
  return (
    Object.hasOwn(DOCUMENT_EXTENSIONS, ext) && !name.slice(0, -ext.length).endsWith(".fixtures")
  );
}

/**
 * The names in a folder listing that a walk visits (sub-folders and documents), sorted by code
 * unit so that output is stable, with the sub-folders among them. A separate function so that
 * the walk holds names while it recurses, never the listing's entry objects.
 */
function visitNames(
  entries: readonly Dirent[],
  processes: boolean,
): { readonly names: string[]; readonly folders: ReadonlySet<string> } {
  const names: string[] = [];
  const folders = new Set<string>();
  for (const entry of entries) {
    const name = entry.name;
    if (name.startsWith(".") || name === "node_modules") continue;
    if (entry.isDirectory()) folders.add(name);
    else if (!entry.isFile()) continue;
    else if (!isDocumentName(name) && !(processes && extname(name) === PROCESS_EXTENSION)) continue;
    names.push(name);
  }
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { names, folders };
}

/** Appends the documents below `dir` to `out`, depth first; `out` is all the walk builds. */
async function walk(dir: string, out: string[], processes: boolean): Promise<void> {
  const { names, folders } = visitNames(await readdir(dir, { withFileTypes: true }), processes);
  for (const name of names) {
    const path = join(dir, name);
    if (folders.has(name)) await walk(path, out, processes);
    else out.push(path);
  }
}

/**
 * Expands the paths a user gave into document files. A missing path or a file with an
 * extension agentflow does not read is a {@link UsageError}.
 */
export async function collectFiles(
  paths: readonly string[],
  options: CollectOptions = {},
): Promise<string[]> {
  const processes = options.processes === true;
  const kinds = processes ? ".json, .yaml, .yml or .bpmn" : ".json, .yaml or .yml";
  const out: string[] = [];
  for (const path of paths) {
    let info;
    try {
      info = await stat(path);
    } catch (error) {
      throw new UsageError(`cannot read '${path}': ${describe(error)}`);
    }
    if (info.isDirectory()) {
      const before = out.length;
      await walk(path, out, processes);
      if (out.length === before) throw new UsageError(`'${path}' holds no ${kinds} file`);
    } else if (
      Object.hasOwn(DOCUMENT_EXTENSIONS, extname(path)) ||
      (processes && extname(path) === PROCESS_EXTENSION)
    ) {
      out.push(path);
    } else {
      throw new UsageError(`'${path}': unknown file type (expected ${kinds})`);
    }
  }
  return out;
}

/** Reads a file as UTF-8, turning file-system errors into a {@link UsageError}. */
export async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read '${path}': ${describe(error)}`);
  }
}

/** How many files {@link readTexts} reads ahead of the one being checked. */
export const READ_AHEAD = 8;

/** A read that has finished, either way; never a rejected promise left waiting in a queue. */
type Read = { readonly text: string } | { readonly error: UsageError };

function startRead(path: string): Promise<Read> {
  return readFile(path, "utf8").then(
    (text) => ({ text }),
    (error: unknown) => ({ error: new UsageError(`cannot read '${path}': ${describe(error)}`) }),
  );
}

/**
 * Reads `paths` in order, one text per step, with up to `ahead` reads in flight so that the disk
 * works while the caller checks: at most `ahead` texts are held at a time, whatever the number
 * of files. A file that cannot be read is a {@link UsageError} when its turn comes.
 */
export async function* readTexts(
  paths: readonly string[],
  ahead: number = READ_AHEAD,
): AsyncGenerator<{ readonly file: string; readonly text: string }, void, undefined> {
  const pending: Promise<Read>[] = [];
  let next = 0;
  for (const file of paths) {
    while (next < paths.length && pending.length < Math.max(1, ahead)) {
      pending.push(startRead(paths[next] ?? ""));
      next += 1;
    }
    const read = await pending.shift();
    if (read === undefined) return;
    if ("error" in read) throw read.error;
    yield { file, text: read.text };
  }
}
