/**
 * Where a specifier in a plugin's code leads, for pinning its module graph (plugin-graph.ts):
 * the files Node could load for it, as a set. Relative paths resolve as `import` (a URL, exact)
 * or `require` (`createRequire(file).resolve`: extensions, `index.js`) does. A package's
 * `exports` and `imports` are read under every condition set a Node >= 20 loader uses — `node`,
 * `node-addons`, `import` or `require`, with and without `module-sync` (on since Node 20.19) —
 * and every target that exists is returned: a digest that does not depend on the Node version
 * that computed it, and no file Node might load left out. Node's `import.meta.resolve(spec,
 * parent)` would be the exact answer for one version, but takes no parent without a flag.
 */
import { readFileSync, statSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** How a specifier is loaded: an `import` (static or dynamic) or a `require` call. */
export type LoadKind = "import" | "require";

const BASE = ["node", "node-addons", "default"];
const CONDITION_SETS: Readonly<Record<LoadKind, readonly ReadonlySet<string>[]>> = {
  import: [new Set([...BASE, "import"]), new Set([...BASE, "import", "module-sync"])],
  require: [new Set([...BASE, "require"]), new Set([...BASE, "require", "module-sync"])],
};

/** A specifier's resolution failed: the reason, for a message that names the importer. */
export class UnresolvedSpecifier extends Error {}

/** True for an existing regular file. */
function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The first target of a conditional export (Node's order: the object's keys, an array's
 * entries; a nested object that matches nothing lets the next key try). A work list, not
 * recursion: the nesting is the package's to choose. `null` is "not exported".
 */
function conditionalTarget(value: unknown, conditions: ReadonlySet<string>): string | undefined {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const at = stack.pop();
    if (typeof at === "string") return at;
    if (at === null) return undefined;
    const next: unknown[] = Array.isArray(at)
      ? at
      : typeof at === "object"
        ? Object.entries(at as Record<string, unknown>)
            .filter(([key]) => conditions.has(key))
            .map(([, v]) => v)
        : [];
    for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]);
  }
  return undefined;
}

/** The target `map` (an `exports` or `imports` object) gives `key`: exact, else `*` patterns. */
function mappedTarget(
  map: Readonly<Record<string, unknown>>,
  key: string,
  conditions: ReadonlySet<string>,
): string | undefined {
  if (Object.hasOwn(map, key) && !key.includes("*")) return conditionalTarget(map[key], conditions);
  let best: { prefix: string; value: unknown; match: string } | undefined;
  for (const [pattern, value] of Object.entries(map)) {
    const star = pattern.indexOf("*");
    if (star < 0 || pattern.slice(star + 1).includes("*")) continue;
    const [prefix, suffix] = [pattern.slice(0, star), pattern.slice(star + 1)];
    if (key.length < pattern.length || !key.startsWith(prefix) || !key.endsWith(suffix)) continue;
    // Node takes the pattern with the longest prefix.
    if (best !== undefined && best.prefix.length >= prefix.length) continue;
    best = { prefix, value, match: key.slice(prefix.length, key.length - suffix.length) };
  }
  if (best === undefined) return undefined;
  const match = best.match;
  return conditionalTarget(best.value, conditions)?.replaceAll("*", match);
}

/** A package manifest's fields this module reads; `undefined` when it cannot be read. */
function manifest(
  file: string,
): { name?: unknown; exports?: unknown; imports?: unknown } | undefined {
  if (!isFile(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, "utf8")) as { name?: unknown; exports?: unknown };
  } catch {
    throw new UnresolvedSpecifier(`${file} is not valid JSON`);
  }
}

/** `exports` as a map from subpaths (Node's sugar: a string, an array or bare conditions). */
function exportsMap(exports: unknown): Readonly<Record<string, unknown>> {
  const sugar =
    typeof exports !== "object" ||
    exports === null ||
    Array.isArray(exports) ||
    !Object.keys(exports).some((k) => k.startsWith("."));
  return sugar ? { ".": exports } : (exports as Record<string, unknown>);
}

/** Every existing file `map` gives `key` under `kind`'s condition sets, from `dir`. */
function mappedFiles(
  map: Readonly<Record<string, unknown>>,
  key: string,
  dir: string,
  kind: LoadKind,
  from: string,
): string[] {
  const out = new Set<string>();
  for (const conditions of CONDITION_SETS[kind]) {
    const target = mappedTarget(map, key, conditions);
    if (target === undefined) continue;
    if (target.startsWith("./")) out.add(resolve(dir, target));
    // An `imports` entry may name a package: it resolves as that package does.
    else if (key.startsWith("#")) for (const f of resolveBare(target, from, kind)) out.add(f);
  }
  const files = [...out].filter(isFile);
  if (files.length === 0) {
    throw new UnresolvedSpecifier(`the package in ${dir} maps '${key}' to no file`);
  }
  return files;
}

/** The files a bare specifier (`pkg`, `@scope/pkg/sub`, `#internal`) resolves to from `from`. */
function resolveBare(spec: string, from: string, kind: LoadKind): string[] {
  const parts = spec.split("/");
  const name = parts.slice(0, spec.startsWith("@") ? 2 : 1).join("/");
  const subpath = `.${spec.slice(name.length)}`;
  // The package scope `from` is in: its `imports`, or its own `exports` (a self-reference).
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    const scope = manifest(join(dir, "package.json"));
    if (scope !== undefined) {
      if (spec.startsWith("#")) {
        const imports = scope.imports;
        if (typeof imports !== "object" || imports === null || Array.isArray(imports)) {
          throw new UnresolvedSpecifier(`${join(dir, "package.json")} has no "imports"`);
        }
        return mappedFiles(imports as Record<string, unknown>, spec, dir, kind, from);
      }
      if (scope.name === name && scope.exports !== undefined) {
        return mappedFiles(exportsMap(scope.exports), subpath, dir, kind, from);
      }
      break;
    }
    if (dirname(dir) === dir) break;
  }
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    const folder = join(dir, "node_modules", name);
    const pkg = manifest(join(folder, "package.json"));
    if (pkg?.exports !== undefined) {
      return mappedFiles(exportsMap(pkg.exports), subpath, folder, kind, from);
    }
    if (pkg !== undefined || dirname(dir) === dir) break;
  }
  // No `exports`: `main`, extensions and `index.js`, where `import` and `require` agree.
  return [requireResolve(spec, from)];
}

/** `createRequire(from).resolve(spec)`, its failure as an {@link UnresolvedSpecifier}. */
function requireResolve(spec: string, from: string): string {
  try {
    return createRequire(from).resolve(spec);
  } catch (error) {
    const reason = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
    throw new UnresolvedSpecifier(reason);
  }
}

/**
 * The files `spec`, loaded by `kind` from the module file `from`, can be: none for a built-in
 * module (`node:fs`, `fs`). An {@link UnresolvedSpecifier} when it leads to no file, or to
 * something that is not a file agentflow can hash (a `data:` or `https:` URL).
 */
export function resolveSpecifier(spec: string, from: string, kind: LoadKind): string[] {
  if (spec.startsWith("node:") || isBuiltin(spec)) return [];
  if (/^[a-z][a-z0-9+.-]*:/i.test(spec) && !spec.startsWith("file:")) {
    throw new UnresolvedSpecifier(`a module loaded from a URL is not a file agentflow can pin`);
  }
  const path = spec.startsWith("./") || spec.startsWith("../") || spec === "." || spec === "..";
  if (kind === "import" && (path || isAbsolute(spec) || spec.startsWith("file:"))) {
    // An `import` specifier is a URL relative to the importer: no extension is tried.
    const file = fileURLToPath(new URL(spec, pathToFileURL(from)));
    if (!isFile(file)) throw new UnresolvedSpecifier(`${file} does not exist`);
    return [file];
  }
  if (path || isAbsolute(spec)) return [requireResolve(spec, from)];
  return resolveBare(spec, from, kind);
}
