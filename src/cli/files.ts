/**
 * Finding and reading the files a command is given: files as named, directories walked in sorted
 * order (stable output), skipping `node_modules` and dot-folders.
 */
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

async function walk(dir: string, out: string[], processes: boolean): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await walk(path, out, processes);
    else if (!entry.isFile()) continue;
    else if (isDocumentName(entry.name)) out.push(path);
    else if (processes && extname(entry.name) === PROCESS_EXTENSION) out.push(path);
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
