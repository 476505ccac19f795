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
function splitSpecifier(spec: string): [string, string] {
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

/**
 * The absolute file `import(spec)` would load from a module in `fromDir`, or `undefined` when
 * no package of that name is found (or it exports no such entry).
 */
export function resolvePackage(spec: string, fromDir: string): string | undefined {
  const [name, subpath] = splitSpecifier(spec);
  for (let dir = resolve(fromDir); ; dir = dirname(dir)) {
    const folder = join(dir, "node_modules", name);
    const manifest = join(folder, "package.json");
    if (existsSync(manifest)) {
      let pkg: { exports?: unknown; main?: unknown };
      try {
        pkg = JSON.parse(readFileSync(manifest, "utf8")) as typeof pkg;
      } catch {
        return undefined;
      }
      const target =
        pkg.exports !== undefined
          ? exportTarget(pkg.exports, subpath)
          : subpath === "."
            ? typeof pkg.main === "string"
              ? pkg.main
              : "index.js"
            : subpath;
      return target === undefined ? undefined : resolve(folder, target);
    }
    if (dirname(dir) === dir) return undefined;
  }
}
