/**
 * `extends` in `agentflow.config.json`: a shared organisation config, named by a path or an npm
 * package, under the repository's own (docs/validation.md, "Extending a shared config"). The
 * model is ESLint's legacy `extends`: the entries apply in order, each extended file with its
 * own `extends` first, and then the file itself; later ones win. Every extended file is read and
 * checked as the config is, and a missing, unreadable, invalid or cyclic one is a usage error
 * naming the chain of files that led to it (exit 2): an organisation's rules that silently did
 * not apply would pass what they exist to block.
 */
import { basename, isAbsolute, relative, resolve } from "node:path";
import { contentHash } from "../model/index.js";
import type { AgentflowConfig, ConfigFile, ConfigRuleSetting } from "./config-types.js";
import { UsageError } from "./io.js";
import { exportTarget, findPackage, splitSpecifier } from "./package-resolve.js";
import { pluginModuleFile } from "./plugins.js";

/** What an `extends` entry names: a config file by path, one in a package, a plugin's config. */
export type ExtendsKind = "path" | "package" | "plugin-config";

/** `<plugin>/<config>`, as before shared configs: a plugin's name has no `@` and no `.json`. */
const PLUGIN_CONFIG = /^[a-z0-9][a-z0-9._-]*\/[^/]+$/;
/** An npm package name (scoped or not), optionally followed by a file inside the package. */
const PACKAGE = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*(?:\/[^/]+)*$/;

/**
 * How an `extends` entry is read: a path when it starts with `./`, `../` or `/`; a plugin's
 * config when it is `<plugin>/<config>` and does not end in `.json`; else a package (`org-config`,
 * `@org/config`, `org-config/strict.json`). `undefined` for none of them.
 */
export function extendsKind(spec: string): ExtendsKind | undefined {
  if (spec.startsWith("./") || spec.startsWith("../") || isAbsolute(spec)) return "path";
  if (PLUGIN_CONFIG.test(spec) && !spec.endsWith(".json")) return "plugin-config";
  return PACKAGE.test(spec) ? "package" : undefined;
}

/** The config file a package entry names, absolute, or why there is none. */
function packageConfig(spec: string, fromDir: string): string | { problem: string } {
  const [name, rest] = splitSpecifier(spec);
  const subpath = rest === "." ? "./agentflow.config.json" : rest;
  const found = findPackage(name, fromDir);
  if (found === undefined) {
    return { problem: `no package '${name}' in node_modules at or above ${fromDir}` };
  }
  if ("error" in found.read) {
    return { problem: `the package's ${found.manifest} cannot be read: ${found.read.error}` };
  }
  // What the package exports under that subpath, else the file itself at that place.
  return resolve(found.folder, exportTarget(found.read.pkg.exports, subpath) ?? subpath);
}

/** One file of the chain, or a plugin's config named in it, in the order they apply. */
export type ConfigLayer =
  | {
      readonly kind: "file";
      readonly file: string;
      readonly dir: string;
      readonly config: AgentflowConfig;
      readonly contentHash: string;
    }
  | { readonly kind: "plugin-config"; readonly file: string; readonly entry: string };

/** A config file read and checked on its own, without its `extends`. */
export type ReadConfig = (file: string, at: string) => Promise<ConfigFile>;

interface Frame {
  readonly own: ConfigFile;
  /** The absolute files from the config down to this one: a cycle is a file already on it. */
  readonly trail: readonly string[];
  /** The same, as shown in messages. */
  readonly shown: readonly string[];
  next: number;
  readonly layers: ConfigLayer[];
}

/** A file as the CLI shows paths: relative to `cwd` when inside it, else absolute. */
function shownPath(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? file : rel;
}

function entriesOf(config: AgentflowConfig): readonly string[] {
  const value = config.extends;
  return value === undefined ? [] : typeof value === "string" ? [value] : value;
}

/**
 * The layers of `root` and every config it extends, in the order they apply (an extended file's
 * own layers before the file that extends it). A loop over a stack, not recursion: the chain's
 * depth is the configs' to choose. A file extended on several branches is read and expanded once
 * and kept at its last place only: every merge is "later wins", so its earlier places change
 * nothing, and keeping them would grow the layers exponentially with a chain of shared files. A
 * file extending one of its own extenders is a cycle.
 */
export async function configLayers(
  root: ConfigFile,
  read: ReadConfig,
  cwd: string,
): Promise<ConfigLayer[]> {
  const rootFile = resolve(root.dir, basename(root.file));
  const expanded = new Map<string, readonly ConfigLayer[]>();
  const stack: Frame[] = [
    { own: root, trail: [rootFile], shown: [root.file], next: 0, layers: [] },
  ];
  for (;;) {
    const top = stack[stack.length - 1];
    if (top === undefined) throw new Error("the extends chain lost its root");
    const entries = entriesOf(top.own.config);
    const spec = entries[top.next];
    if (spec !== undefined) {
      top.next += 1;
      const chain = `${top.shown.join(" → ")}: extends '${spec}'`;
      const kind = extendsKind(spec);
      if (kind === undefined) {
        throw new UsageError(
          `${chain}: is neither a path ("./org.config.json"), a package ("@org/agentflow-config", "org-config/strict.json") nor a plugin's config ("<plugin>/<config>")`,
        );
      }
      if (kind === "plugin-config") {
        top.layers.push({ kind, file: top.own.file, entry: spec });
        continue;
      }
      const found = kind === "path" ? resolve(top.own.dir, spec) : packageConfig(spec, top.own.dir);
      if (typeof found !== "string") throw new UsageError(`${chain}: ${found.problem}`);
      const shown = shownPath(found, cwd);
      if (top.trail.includes(found)) {
        throw new UsageError(
          `${[...top.shown, shown].join(" → ")}: extends forms a cycle (${shown} extends itself through this chain)`,
        );
      }
      const known = expanded.get(found);
      if (known !== undefined) {
        top.layers.push(...known);
        continue;
      }
      let own;
      try {
        own = await read(shown, found);
      } catch (error) {
        if (!(error instanceof UsageError)) throw error;
        throw new UsageError(`${chain}: ${error.message}`);
      }
      stack.push({
        own,
        trail: [...top.trail, found],
        shown: [...top.shown, shown],
        next: 0,
        layers: [],
      });
      continue;
    }
    stack.pop();
    const { file, dir, config } = top.own;
    top.layers.push({ kind: "file", file, dir, config, contentHash: top.own.contentHash });
    const layers = lastOfEach(top.layers);
    const parent = stack[stack.length - 1];
    if (parent === undefined) return layers;
    expanded.set(top.trail[top.trail.length - 1] ?? file, layers);
    parent.layers.push(...layers);
  }
}

/** `layers` with each file's layer, and each plugin config of a file, kept at its last place. */
function lastOfEach(layers: readonly ConfigLayer[]): ConfigLayer[] {
  const keyOf = (layer: ConfigLayer): string =>
    layer.kind === "file" ? `file\0${layer.file}` : `plugin\0${layer.file}\0${layer.entry}`;
  const last = new Map(layers.map((layer, at) => [keyOf(layer), at]));
  return layers.filter((layer, at) => last.get(keyOf(layer)) === at);
}

/** A rule-setting layer of the merged config, in the order it applies. */
export type RuleLayer =
  | {
      readonly kind: "rules";
      readonly file: string;
      readonly rules: Readonly<Record<string, ConfigRuleSetting>>;
    }
  | { readonly kind: "plugin-config"; readonly file: string; readonly entry: string };

/** The merged config, and what a merge cannot keep in a config's shape. */
export interface MergedConfig {
  /** The settings, with every path made relative to the root config's folder. */
  readonly config: AgentflowConfig;
  /** The rule layers: `rules` of each file and plugin configs, in the order they apply. */
  readonly ruleLayers: readonly RuleLayer[];
  /** The folder the winning `ignores` are relative to (the file that declared them). */
  readonly ignoresDir: string;
}

/** `path` (relative to `from`) made relative to `to`; an absolute path stays as it is. */
function rebased(path: string, from: string, to: string): string {
  if (from === to || isAbsolute(path)) return path;
  const rel = relative(to, resolve(from, path));
  return rel === "" ? "." : rel;
}

/** A plugin entry of `from`'s config as the root config must name it to load the same file. */
function rebasedPlugin(spec: string, from: string, to: string, where: string): string {
  if (from === to) return spec;
  const file = pluginModuleFile(spec, from, where);
  const rel = relative(to, file);
  return rel.startsWith("..") || isAbsolute(rel) ? rel : `./${rel}`;
}

/**
 * Merges the layers, later over earlier: `rules` by code (rule-setting layers), `plugins`,
 * `toolEffects` and `policy` by key, every other setting (lists included) replaced whole. Paths
 * in a file (registry, policies, plugins) are relative to that file, so they are rebased onto
 * `rootDir`; `ignores` keep the folder of the file that declared them.
 */
export function mergeLayers(layers: readonly ConfigLayer[], rootDir: string): MergedConfig {
  let merged: Record<string, unknown> = {};
  const ruleLayers: RuleLayer[] = [];
  let ignoresDir = rootDir;
  for (const layer of layers) {
    if (layer.kind === "plugin-config") {
      ruleLayers.push(layer);
      continue;
    }
    const { config, dir, file } = layer;
    const next: Record<string, unknown> = { ...merged };
    if (config.preset !== undefined) next.preset = config.preset;
    if (config.rules !== undefined) ruleLayers.push({ kind: "rules", file, rules: config.rules });
    if (config.plugins !== undefined) {
      const plugins = { ...(merged.plugins as Record<string, string> | undefined) };
      for (const [name, spec] of Object.entries(config.plugins)) {
        plugins[name] = rebasedPlugin(spec, dir, rootDir, `${file}: plugin '${name}'`);
      }
      next.plugins = plugins;
    }
    if (config.policies !== undefined) {
      next.policies = config.policies.map((p) => rebased(p, dir, rootDir));
    }
    if (config.registry !== undefined) {
      const list = typeof config.registry === "string" ? [config.registry] : config.registry;
      const paths = list.map((p) => rebased(p, dir, rootDir));
      next.registry = typeof config.registry === "string" ? paths[0] : paths;
    }
    if (config.ignores !== undefined) {
      next.ignores = config.ignores;
      ignoresDir = dir;
    }
    if (config.waivers !== undefined) next.waivers = config.waivers;
    if (config.gates !== undefined) next.gates = config.gates;
    if (config.toolEffects !== undefined) {
      next.toolEffects = { ...(merged.toolEffects as object | undefined), ...config.toolEffects };
    }
    if (config.policy !== undefined) {
      next.policy = { ...(merged.policy as object | undefined), ...config.policy };
    }
    merged = next;
  }
  return { config: merged, ruleLayers, ignoresDir };
}

/**
 * The hash a run names its config by: the file's own for a config that extends no file (as
 * before shared configs), else of every file of the chain, in order, by its place relative to
 * the root config and its content, so that a change in a shared config changes it too.
 */
export function chainHash(layers: readonly ConfigLayer[], rootDir: string): string | undefined {
  const files = layers.flatMap((l) => (l.kind === "file" ? [l] : []));
  if (files.length === 1) return undefined;
  return contentHash({
    chain: files.map((f) => ({
      file: relative(rootDir, resolve(f.dir, basename(f.file))),
      contentHash: f.contentHash,
    })),
  });
}
