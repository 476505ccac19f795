/**
 * Finding an npm package's ES module entry from a folder, for a plugin named by package: the
 * `import` side of Node's resolution (`node_modules` upward, the package's `exports` with the
 * `import`, `node` and `default` conditions, else `main`). `createRequire().resolve` is tried
 * first; this covers the packages whose `exports` offer `import` only, which CommonJS
 * resolution refuses.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** The conditions an `import` from Node matches, as Node's ESM loader has them. */
const CONDITIONS = new Set(["import", "node", "default"]);

/** `@scope/name/sub` → `["@scope/name", "./sub"]`; `name` → `["name", "."]`. */
export function splitSpecifier(spec: string): [string, string] {
  const parts = spec.split("/");
  const length = spec.startsWith("@") ? 2 : 1;
  const name = parts.slice(0, length).join("/");
  const rest = parts.slice(length).join("/");
  return [name, rest === "" ? "." : `./${rest}`];
}

/**
 * The target of a conditional export: the first key (in the object's order) whose condition
 * matches, followed down nested condition objects; arrays give their first usable target.
 * A loop over a work list, not recursion: the nesting is the package's to choose.
 */
function conditionalTarget(value: unknown): string | undefined {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const at = stack.pop();
    if (typeof at === "string") return at;
    if (Array.isArray(at)) {
      // Reversed onto the stack so that the first entry is tried first.
      for (let i = at.length - 1; i >= 0; i--) stack.push(at[i]);
      continue;
    }
    if (typeof at !== "object" || at === null) continue;
    const key = Object.keys(at).find((k) => CONDITIONS.has(k));
    if (key !== undefined) stack.push((at as Record<string, unknown>)[key]);
  }
  return undefined;
}

/** The file `exports` maps `subpath` to, or `undefined` when it maps none. */
export function exportTarget(exports: unknown, subpath: string): string | undefined {
  if (typeof exports === "string" || Array.isArray(exports)) {
    return subpath === "." ? conditionalTarget(exports) : undefined;
  }
  if (typeof exports !== "object" || exports === null) return undefined;
  const map = exports as Record<string, unknown>;
  const bySubpath = Object.keys(map).some((k) => k.startsWith("."));
  if (!bySubpath) return subpath === "." ? conditionalTarget(map) : undefined;
  return Object.hasOwn(map, subpath) ? conditionalTarget(map[subpath]) : undefined;
}

/** A package's fields that say which of its files an import loads. */
export interface PackageManifest {
  readonly exports?: unknown;
  readonly main?: unknown;
}

/** An installed package: its folder, and its package.json read, or why it cannot be read. */
export interface FoundPackage {
  readonly folder: string;
  readonly manifest: string;
  readonly read: { readonly pkg: PackageManifest } | { readonly error: string };
}

/**
 * The package `name` as Node finds it from `fromDir` (`node_modules` at or above it), or
 * `undefined` when none is installed there.
 */
export function findPackage(name: string, fromDir: string): FoundPackage | undefined {
  for (let dir = resolve(fromDir); ; dir = dirname(dir)) {
    const folder = join(dir, "node_modules", name);
    const manifest = join(folder, "package.json");
    if (existsSync(manifest)) {
      try {
        const pkg = JSON.parse(readFileSync(manifest, "utf8")) as PackageManifest;
        return { folder, manifest, read: { pkg } };
      } catch (error) {
        return {
          folder,
          manifest,
          read: { error: error instanceof Error ? error.message : String(error) },
        };
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The absolute file `import(spec)` would load from a module in `fromDir`, or `undefined` when
 * no package of that name is found (or it exports no such entry).
 */
export function resolvePackage(spec: string, fromDir: string): string | undefined {
  const [name, subpath] = splitSpecifier(spec);
  const found = findPackage(name, fromDir);
  if (found === undefined || !("pkg" in found.read)) return undefined;
  const { pkg } = found.read;
  const target =
    pkg.exports !== undefined
      ? exportTarget(pkg.exports, subpath)
      : subpath === "."
        ? typeof pkg.main === "string"
          ? pkg.main
          : "index.js"
        : subpath;
  return target === undefined ? undefined : resolve(found.folder, target);
}
