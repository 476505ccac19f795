/**
 * A config plugin's module graph: every file its code can load, so that a plugin is pinned by
 * all of them, not by its entry file alone. Static `import` / `export … from`, `import("…")`
 * (and `import.source` / `import.defer`) are read with es-module-lexer. CommonJS `require` is
 * found by a regex, not by cjs-module-lexer: that one (present in node_modules only as a
 * dependency of a dev tool) reports a module's exports, not the modules it requires. The regex,
 * {@link REQUIRE_CALL}, matches the identifier `require` (or `module.require`) followed by `(`;
 * each match is rewritten in place to `import ` (blank-padded to the same length, so offsets and
 * lines hold) and es-module-lexer then says which are calls in code — not in a comment, a string
 * or a regex — and whether their argument is a string literal. A load whose specifier is not a literal
 * cannot be pinned, so the plugin is refused (fail closed), and so is a file outside the
 * repository. The walk is a work list: each file once, whatever the cycles.
 */
import { createHash } from "node:crypto";
import { readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, extname, isAbsolute, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { initSync, parse } from "es-module-lexer";
import { UsageError } from "./io.js";
import type { LoadKind } from "./plugin-resolve.js";
import { resolveSpecifier, UnresolvedSpecifier } from "./plugin-resolve.js";

/** A plugin's module graph, pinned. */
export interface PluginGraph {
  /** Every file of the graph, absolute and real, sorted: the entry and all it can load. */
  readonly files: readonly string[];
  /**
   * `sha256:` over the sorted lines `<root-relative POSIX path>\0<sha256 hex of its bytes>\n`,
   * one per file: what the rule set names, equal wherever the repository is checked out.
   */
  readonly sha256: string;
}

/**
 * `require(` as a call of the CommonJS `require` (or `module.require`), comments allowed before
 * the parenthesis; not a property (`x.require(`) nor part of a longer name (`myrequire(`).
 */
export const REQUIRE_CALL =
  /(?<![\w$.#])(?:module\s*\.\s*)?require(?=(?:\s|\/\*[\s\S]*?\*\/|\/\/[^\n]*\n)*\()/g;

/**
 * The running agentflow's built code (`<package>/dist/`), which a plugin imports for
 * `defineRule` (`agentflow/rules`): it is not part of the graph, since it is the code doing the
 * pinning and every output names its version — so a plugin's digest does not depend on where
 * agentflow is installed. Another copy of agentflow (one the repository holds and this run is
 * not) is ordinary code, pinned like any package.
 */
let ownCode: { readonly dir: string | undefined } | undefined;

/** `<agentflow's package folder>/dist/`, real, found from this module; `undefined` if none. */
function findOwnCode(): string | undefined {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as unknown;
      if ((manifest as { name?: unknown }).name === "agentflow") {
        return `${realpathSync(join(dir, "dist"))}${sep}`;
      }
    } catch {
      // No manifest here, or no dist/ beside it (nothing of agentflow's to leave out).
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** Files read as data, not code: their bytes are pinned, and they load nothing. */
const DATA_FILES = new Set([".json", ".node", ".wasm"]);

let lexerReady = false;

/** The line (from 1) of `index` in `text`. */
function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < index; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** One load in a module's code: what it names, how, and where. */
interface Load {
  readonly spec: string | undefined;
  readonly kind: LoadKind;
  /** Where the load starts in the text (its line is counted only for a refusal). */
  readonly offset: number;
}

/** The loads in a module's source text. */
function loadsOf(text: string, file: string, where: string): Load[] {
  const requires = new Set<number>();
  const rewritten = text.replace(REQUIRE_CALL, (match: string, offset: number) => {
    // `module.require` is rewritten as blanks then `import `: the keyword where `require` was.
    requires.add(offset + match.length - 7);
    return `${" ".repeat(match.length - 7)}import `;
  });
  if (!lexerReady) {
    initSync();
    lexerReady = true;
  }
  let imports: ReturnType<typeof parse>[0];
  try {
    [imports] = parse(rewritten, file);
  } catch (error) {
    const at = (error as { idx?: unknown }).idx;
    const line = typeof at === "number" ? `:${String(lineOf(text, at))}` : "";
    throw new UsageError(
      `${where}: ${file}${line}: cannot be read as JavaScript, so what it loads cannot be pinned`,
    );
  }
  // `import.meta` (d === -2) loads nothing.
  return imports
    .filter((i) => i.d !== -2)
    .map((i) => ({
      spec: i.n,
      kind: requires.has(i.ss) ? ("require" as const) : ("import" as const),
      offset: i.ss,
    }));
}

/** `sha256` hex of bytes. */
function hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The real files `load`, in `file`, leads to; a {@link UsageError} when it cannot be pinned. */
function loadedFiles(
  load: Load,
  file: string,
  text: string,
  root: string,
  where: string,
): string[] {
  // The line is counted only for a refusal: a large module's loads stay linear.
  const at = (): string => `${where}: ${file}:${String(lineOf(text, load.offset))}`;
  const { spec } = load;
  if (spec === undefined) {
    const call = load.kind === "require" ? "require(…)" : "import(…)";
    throw new UsageError(
      `${at()}: ${call} of a computed specifier: agentflow cannot tell what it loads, so it cannot pin the plugin (load plugin code with string literals only)`,
    );
  }
  const out: string[] = [];
  try {
    for (const next of resolveSpecifier(spec, file, load.kind)) {
      const real = realpathOf(next);
      ownCode ??= { dir: findOwnCode() };
      if (ownCode.dir !== undefined && real.startsWith(ownCode.dir)) continue;
      const rel = relative(root, real);
      if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
        throw new UsageError(
          `${at()}: '${spec}' resolves to ${real}, outside the repository (${root}); a config loads plugins from inside its repository only, since loading one runs its code`,
        );
      }
      out.push(real);
    }
  } catch (error) {
    if (!(error instanceof UnresolvedSpecifier)) throw error;
    throw new UsageError(
      `${at()}: cannot resolve '${spec}' (${error.message}), so the plugin cannot be pinned`,
    );
  }
  return out;
}

/** A file's real path; an {@link UnresolvedSpecifier} when there is none. */
function realpathOf(file: string): string {
  try {
    const real = realpathSync(file);
    if (statSync(real).isFile()) return real;
  } catch {
    // Gone, or a broken link: not a file either.
  }
  throw new UnresolvedSpecifier(`${file} is not a file`);
}

/** A file's bytes; a {@link UsageError} naming it when it cannot be read. */
function bytesOf(file: string, where: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`${where}: ${file} cannot be read (${reason})`);
  }
}

/**
 * The module graph of the plugin whose entry is `entry` (absolute, real, inside `root`, which is
 * real too). `where` names the config and the plugin in every refusal: a load whose specifier
 * is not a string literal, one that resolves to no file, a file outside `root`, a file that is
 * not JavaScript.
 */
export function pluginGraph(entry: string, root: string, where: string): PluginGraph {
  const hashes = new Map<string, string>([[entry, ""]]);
  const todo = [entry];
  for (let file = todo.pop(); file !== undefined; file = todo.pop()) {
    const bytes = bytesOf(file, where);
    hashes.set(file, hex(bytes));
    if (DATA_FILES.has(extname(file))) continue;
    const text = bytes.toString("utf8");
    for (const load of loadsOf(text, file, where)) {
      for (const next of loadedFiles(load, file, text, root, where)) {
        if (hashes.has(next)) continue;
        hashes.set(next, "");
        todo.push(next);
      }
    }
  }
  const files = [...hashes.keys()].sort();
  return {
    files,
    sha256: graphDigest(
      files.map((f) => [f, hashes.get(f) ?? ""]),
      root,
    ),
  };
}

/** The digest {@link PluginGraph.sha256} describes, of `[file, sha256 hex]` pairs. */
function graphDigest(entries: readonly (readonly [string, string])[], root: string): string {
  const lines = entries
    .map(([file, hash]) => `${relative(root, file).split(sep).join("/")}\0${hash}\n`)
    .sort();
  return `sha256:${createHash("sha256").update(lines.join("")).digest("hex")}`;
}
