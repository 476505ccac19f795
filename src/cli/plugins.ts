/**
 * Loading the plugins `agentflow.config.json` names (`"plugins": { "acme": "./policy/acme.js" }`).
 * Loading a plugin runs its code, as ESLint's loading of `eslint.config.js` does
 * (docs/policies.md, "Loading plugins runs their code"): so only what the config names is
 * loaded, and only from inside the repository the config belongs to — a path or a package that
 * resolves outside it (a `../` path, a package linked in from elsewhere) is refused before any
 * of its code runs. A plugin is pinned by its whole module graph (plugin-graph.ts), not by its
 * entry file alone: code it imports is code it runs.
 */
import { realpathSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import type { AnyRule, Plugin } from "../rules/index.js";
import { namespacedRules, pluginDigest, pluginProblem } from "../rules/internal.js";
import { UsageError } from "./io.js";
import { resolvePackage } from "./package-resolve.js";
import { pluginGraph } from "./plugin-graph.js";

/** Where a plugin's module is, as plain data (what a worker thread is given to load it again). */
export interface PluginSource {
  /** The name the config gives it: its rules are `<name>/<CODE>`. */
  readonly name: string;
  /** The module file, absolute and real (links resolved). */
  readonly file: string;
  /** The repository root it was located in, real: the graph's files are named from it. */
  readonly root: string;
  /** Every file of its module graph (plugin-graph.ts), absolute and real, sorted; `file` too. */
  readonly files: readonly string[];
  /** `sha256:` of its module graph (`PluginGraph.sha256`): what the rule set's digest names. */
  readonly sha256: string;
  /** The plugin's content as agentflow sees it (`pluginDigest`): a worker checks it loaded the same. */
  readonly digest: string;
}

/** A plugin loaded and checked, with its rules namespaced. */
export interface LoadedPlugin {
  readonly source: PluginSource;
  readonly plugin: Plugin;
  /** Its rules, as `<name>/<CODE>`, checked by `defineRule`. */
  readonly rules: readonly AnyRule[];
}

/** True when `file` is `root` or below it (both absolute and real). */
export function isInside(root: string, file: string): boolean {
  const rel = relative(root, file);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** A path (`./x.js`, `../x.js`, `/abs/x.js`), not a package name. */
function isPath(spec: string): boolean {
  return spec.startsWith("./") || spec.startsWith("../") || spec === "." || isAbsolute(spec);
}

/** The module file a plugin entry names, absolute; a {@link UsageError} when it resolves to none. */
export function pluginModuleFile(spec: string, configDir: string, where: string): string {
  if (isPath(spec)) return resolve(configDir, spec);
  try {
    return createRequire(join(configDir, "agentflow.config.json")).resolve(spec);
  } catch (error) {
    // A package whose `exports` offer `import` only: CommonJS resolution refuses what ESM takes.
    const found = resolvePackage(spec, configDir);
    if (found !== undefined) return found;
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new UsageError(`${where}: cannot find the package '${spec}' (${reason ?? ""})`);
  }
}

/**
 * Where each plugin the config names is, checked to be inside `root` (the repository the config
 * belongs to), with its module graph: every file its code can load, each inside `root` too, and
 * loaded by literal specifiers only (plugin-graph.ts). Nothing is run yet.
 */
export function locatePlugins(
  plugins: Readonly<Record<string, string>>,
  configFile: string,
  configDir: string,
  root: string,
): Omit<PluginSource, "digest">[] {
  const realRoot = realpathSync(root);
  return Object.entries(plugins).map(([name, spec]) => {
    const where = `${configFile}: plugin '${name}'`;
    const outside = (file: string, top: string): UsageError =>
      new UsageError(
        `${where}: '${spec}' resolves to ${file}, outside the repository (${top}); a config loads plugins from inside its repository only, since loading one runs its code`,
      );
    const file = pluginModuleFile(spec, configDir, where);
    // Refused before anything is read: a path out of the repository, then (links resolved) a
    // file that is really elsewhere.
    if (!isInside(root, file) && !isInside(realRoot, file)) throw outside(file, root);
    let real: string;
    try {
      real = realpathSync(file);
    } catch {
      throw new UsageError(`${where}: '${spec}' does not exist (looked for ${file})`);
    }
    if (!isInside(realRoot, real)) throw outside(real, realRoot);
    // Not a FIFO or a folder: hashing (and importing) one would block or fail obscurely.
    if (!statSync(real).isFile()) throw new UsageError(`${where}: ${real} is not a file`);
    const graph = pluginGraph(real, realRoot, where);
    return { name, file: real, root: realRoot, files: graph.files, sha256: graph.sha256 };
  });
}

/** The plugin a module exports: its default export when that is one, else the namespace. */
function pluginOf(namespace: Record<string, unknown>, where: string): Plugin {
  const fromDefault =
    namespace.default === undefined ? undefined : pluginProblem(namespace.default, where);
  if (namespace.default !== undefined && fromDefault === undefined) {
    return namespace.default as Plugin;
  }
  const fromNamespace = pluginProblem(namespace, where);
  if (fromNamespace === undefined) return namespace as unknown as Plugin;
  throw new UsageError(fromDefault ?? fromNamespace);
}

/** Why a plugin's import is given up when nothing is left that could settle it. */
const NEVER_LOADS =
  "its module never finished loading: a top-level await in it, or in a module it imports, waits on something that never settles";

/**
 * Imports a module, or fails with a {@link UsageError} when the event loop drains while the
 * import is pending: a top-level await that can never settle would otherwise end the process
 * with Node's exit 13 and no word. (One that waits on a timer or a socket keeps the loop alive
 * and is not caught: a plugin is trusted code, and nothing bounds how long it runs.)
 */
async function importUnlessStuck(url: string): Promise<Record<string, unknown>> {
  let drained: (() => void) | undefined;
  const stuck = new Promise<never>((_, reject) => {
    drained = () => {
      reject(new UsageError(NEVER_LOADS));
    };
  });
  const listener = (): void => drained?.();
  process.once("beforeExit", listener);
  try {
    return (await Promise.race([import(url), stuck])) as Record<string, unknown>;
  } finally {
    process.off("beforeExit", listener);
  }
}

/** Imports one plugin module and checks it (its shape, every rule's meta). */
export async function loadPlugin(
  source: Omit<PluginSource, "digest">,
  configFile: string,
): Promise<LoadedPlugin> {
  const where = `${configFile}: plugin '${source.name}' (${source.file})`;
  let namespace: Record<string, unknown>;
  try {
    namespace = await importUnlessStuck(pathToFileURL(source.file).href);
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`${where}: ${error.message}`);
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`${where}: cannot be loaded: ${reason}`);
  }
  const plugin = pluginOf(namespace, where);
  let rules: AnyRule[];
  try {
    rules = namespacedRules(source.name, plugin);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`${where}: ${reason}`);
  }
  return { source: { ...source, digest: pluginDigest(plugin) }, plugin, rules };
}

/** The digest of a plugin's module graph now, or why there is none. */
function graphNow(source: PluginSource): string {
  try {
    return pluginGraph(source.file, source.root, `plugin '${source.name}'`).sha256;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Loads a plugin again from its {@link PluginSource} (a worker thread), refusing one whose
 * content is not what the main thread loaded — any file of its module graph, or the graph
 * itself, changed in between — so that no file changed mid-run judges half of a run.
 */
export async function reloadPlugin(source: PluginSource): Promise<LoadedPlugin> {
  const loaded = await loadPlugin(source, `plugin '${source.name}'`);
  if (loaded.source.digest !== source.digest || graphNow(source) !== source.sha256) {
    throw new Error(`plugin '${source.name}' (${source.file}) changed while the run was going on`);
  }
  return loaded;
}
