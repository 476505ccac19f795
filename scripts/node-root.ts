/**
 * The root entry of Node's bundle (bundle-lib.ts), written here rather than taken from tsc's
 * `dist/index.js`: an `import "agentflow"` evaluates only the values and classes it exports; each
 * function forwards to a bundle of the file declaring it (`dist/node/lazy/<file>.js`), loaded by
 * `require` at the function's first call, so that a first `simulate` loads what `simulate` runs
 * and not the reports, the importers, the BPMN reader or XState (docs/performance.md,
 * "Start-up"). `require` of an ES module needs Node 20.19 (package.json's engines); all bundles
 * come from one esbuild run and share their chunks, so a module loaded this way is the one a
 * subpath's `import` gives.
 *
 * A value cannot be forwarded without changing what it is (an array read through a proxy is no
 * array to `Array.isArray`, a class through one no class to `extends`): values, classes and
 * functions carrying properties are imported at load from the file declaring them, and a string
 * or a number is written as its value.
 */
import { readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Plugin } from "esbuild";
import type { DeclarationLookup } from "./declarations.js";

/** The root entry's re-exported names; anything else in it is a build error (it would be lost). */
export function reExportedNames(text: string): string[] {
  const body = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const statement = /export\s*\{([^}]*)\}\s*from\s*"(\.\/[^"]+)";/g;
  const names = [...body.matchAll(statement)].flatMap(([, list = ""]) =>
    list
      .split(",")
      .map((n) => n.trim())
      .filter((n) => n !== ""),
  );
  const rest = body.replace(statement, "").trim();
  if (rest !== "") throw new Error(`the root entry has more than re-exports: ${rest.slice(0, 80)}`);
  const renamed = names.find((n) => !/^[A-Za-z_$][\w$]*$/.test(n));
  if (renamed !== undefined) throw new Error(`the root entry renames an export: ${renamed}`);
  return names;
}

/** Whether `value` is a function a forwarder can stand for: no class, no properties of its own. */
function isPlainFunction(value: unknown): boolean {
  return (
    typeof value === "function" &&
    !/^class\b/.test(Function.prototype.toString.call(value)) &&
    Object.keys(value).length === 0
  );
}

/** What the root entry imports at load, and what it loads at a first call. */
export interface RootPlan {
  /** Statements of the entry that run at import: values, classes, strings and numbers. */
  readonly atLoad: readonly string[];
  /**
   * The bundles a function is loaded from: the entry's name (`lazy/simulate/simulate`, built
   * into `dist/node/lazy/simulate/simulate.js`), the declaring file and the functions it gives
   * (the name each has there, and the root's name).
   */
  readonly lazy: ReadonlyMap<string, { file: string; names: [local: string, name: string][] }>;
}

/** Reads tsc's root entry `tscEntry` (in `outDir`) into a {@link RootPlan}. */
export async function rootPlan(
  tscEntry: string,
  outDir: string,
  lookup: DeclarationLookup,
): Promise<RootPlan> {
  const names = reExportedNames(readFileSync(tscEntry, "utf8"));
  const declared = lookup(tscEntry);
  const loaded = (await import(pathToFileURL(resolve(tscEntry)).href)) as Record<string, unknown>;
  const atLoad: string[] = [];
  const lazy = new Map<string, { file: string; names: [string, string][] }>();
  for (const name of names) {
    const value = loaded[name];
    if (typeof value === "string" || typeof value === "number") {
      atLoad.push(`export const ${name} = ${JSON.stringify(value)};`);
      continue;
    }
    const declaration = declared?.get(name);
    if (declaration === undefined) throw new Error(`TypeScript finds no declaration of ${name}`);
    if (isPlainFunction(value)) {
      const entry = `lazy/${relative(outDir, declaration.file).replace(/\.js$/, "")}`;
      const group = lazy.get(entry) ?? { file: declaration.file, names: [] };
      group.names.push([declaration.local, name]);
      lazy.set(entry, group);
    } else {
      const local = declaration.local === name ? name : `${declaration.local} as ${name}`;
      atLoad.push(`export { ${local} } from ${JSON.stringify(declaration.file)};`);
    }
  }
  return { atLoad, lazy };
}

/** The root entry's source: {@link RootPlan.atLoad}, then a forwarder per function. */
export function rootEntrySource(plan: RootPlan): string {
  // A require of its own: the bundle's shared `require` belongs to a chunk and resolves from there.
  const lines = [
    'import { createRequire as __agentflowRootRequire } from "node:module";',
    "const __agentflowLoad = __agentflowRootRequire(import.meta.url);",
    ...plan.atLoad,
  ];
  [...plan.lazy].forEach(([entry, { names }], index) => {
    const load = `__agentflowBundle${String(index)}`;
    lines.push(
      `let ${load}Loaded;`,
      `const ${load} = () => (${load}Loaded ??= __agentflowLoad(${JSON.stringify(`./${entry}.js`)}));`,
      ...names.map(
        ([local, name]) =>
          `export function ${name}(...args) { return ${load}().${local}.apply(this, args); }`,
      ),
    );
  });
  return lines.join("\n");
}

const NAMESPACE = "agentflow-node-root";

/** The specifier bundle-lib.ts gives esbuild for the root entry. */
export const NODE_ROOT_ENTRY = `${NAMESPACE}:index`;

/** Serves {@link NODE_ROOT_ENTRY} as {@link rootEntrySource} writes it from `plan`. */
export function nodeRoot(plan: RootPlan, resolveDir: string): Plugin {
  return {
    name: "agentflow-node-root",
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${NAMESPACE}:`) }, (args) => ({
        path: args.path,
        namespace: NAMESPACE,
      }));
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, () => ({
        contents: rootEntrySource(plan),
        resolveDir,
        loader: "js",
      }));
    },
  };
}
