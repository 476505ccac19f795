/**
 * The root entry of Node's bundle (bundle-lib.ts), written here rather than taken from tsc's
 * `dist/index.js`: an `import "agentflow"` evaluates only the values and classes it exports; each
 * function forwards to a bundle of the file declaring it (`dist/node/lazy/<file>.js`), loaded at
 * the function's first call, so that a first `simulate` loads what `simulate` runs and not the
 * reports, the importers, the BPMN reader or XState (docs/performance.md, "Start-up"). All
 * bundles come from one esbuild run and share their chunks, so a module loaded this way is the
 * one a subpath's `import` gives.
 *
 * An async function's bundle is loaded with `import()`. A synchronous one's must be loaded with
 * `require` of an ES module (Node 20.19+ and 22.12+: package.json's engines), which Node refuses
 * while an `import()` is still loading one of the same modules (nodejs/node#57126); the forwarder
 * then throws an error that says so and names the subpath to import the function from instead.
 * Bundlers never see this file: the exports' `module` condition gives them tsc's files.
 *
 * A value cannot be forwarded without changing what it is (an array read through a proxy is no
 * array to `Array.isArray`, a class through one no class to `extends`): values, classes and
 * functions carrying properties are imported at load from the file declaring them, and a string
 * or a finite number is written as its value.
 */
import { readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Plugin } from "esbuild";
import type { DeclarationLookup } from "./declarations.js";

/** One name tsc's root entry re-exports, and the module it comes from (`./model/index.js`). */
export interface RootName {
  readonly name: string;
  readonly from: string;
}

/** The root entry's re-exported names; anything else in it is a build error (it would be lost). */
export function reExportedNames(text: string): RootName[] {
  const body = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const statement = /export\s*\{([^}]*)\}\s*from\s*"(\.\/[^"]+)";/g;
  const names = [...body.matchAll(statement)].flatMap(([, list = "", from = ""]) =>
    list
      .split(",")
      .map((n) => n.trim())
      .filter((n) => n !== "")
      .map((name) => ({ name, from })),
  );
  const rest = body.replace(statement, "").trim();
  if (rest !== "") throw new Error(`the root entry has more than re-exports: ${rest.slice(0, 80)}`);
  const renamed = names.find(({ name }) => !/^[A-Za-z_$][\w$]*$/.test(name));
  if (renamed !== undefined) throw new Error(`the root entry renames an export: ${renamed.name}`);
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

/** A function the root forwards: its name there and in its declaring file, and how it is loaded. */
export interface ForwardedFunction {
  /** The name its declaring file exports it by. */
  readonly local: string;
  /** The root's name for it. */
  readonly name: string;
  /** The subpath that exports it too (`agentflow/simulate`), named when loading it fails. */
  readonly subpath: string;
  /** An async function: its bundle is loaded with `import()`. */
  readonly async: boolean;
}

/** What the root entry imports at load, and what it loads at a first call. */
export interface RootPlan {
  /** Statements of the entry that run at import: values, classes, strings and numbers. */
  readonly atLoad: readonly string[];
  /**
   * The bundles functions are loaded from, by entry name (`lazy/simulate/simulate`, built into
   * `dist/node/lazy/simulate/simulate.js`): the declaring file and the functions it gives.
   */
  readonly lazy: ReadonlyMap<string, { file: string; functions: ForwardedFunction[] }>;
}

/** `./simulate/index.js` → `agentflow/simulate`. */
const subpathOf = (from: string): string =>
  `agentflow/${from.replace(/^\.\//, "").replace(/\/index\.js$/, "")}`;

/** A value written into the entry as itself, or `undefined` when it must be imported. */
function literal(value: unknown): string | undefined {
  if (typeof value === "string") return JSON.stringify(value);
  // JSON would write Infinity and NaN as null, and -0 as 0.
  if (typeof value === "number" && Number.isFinite(value) && !Object.is(value, -0)) {
    return JSON.stringify(value);
  }
  return undefined;
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
  const lazy = new Map<string, { file: string; functions: ForwardedFunction[] }>();
  for (const { name, from } of names) {
    const value = loaded[name];
    const written = literal(value);
    if (written !== undefined) {
      atLoad.push(`export const ${name} = ${written};`);
      continue;
    }
    const declaration = declared?.get(name);
    if (declaration === undefined) throw new Error(`TypeScript finds no declaration of ${name}`);
    if (isPlainFunction(value)) {
      const entry = `lazy/${relative(outDir, declaration.file).replace(/\.js$/, "")}`;
      const group = lazy.get(entry) ?? { file: declaration.file, functions: [] };
      group.functions.push({
        local: declaration.local,
        name,
        subpath: subpathOf(from),
        async: Object.prototype.toString.call(value) === "[object AsyncFunction]",
      });
      lazy.set(entry, group);
    } else {
      const local = declaration.local === name ? name : `${declaration.local} as ${name}`;
      atLoad.push(`export { ${local} } from ${JSON.stringify(declaration.file)};`);
    }
  }
  return { atLoad, lazy };
}

/**
 * Loads a synchronous function's bundle, or throws an error that says why and what to do: the
 * usual cause is Node refusing to `require` a module an `import()` is still loading.
 */
const LOAD_SYNC = `function __agentflowLoadSync(path, name, subpath) {
  try {
    return __agentflowLoad(path);
  } catch (cause) {
    throw new Error(
      "agentflow: the code of " + name + " could not be loaded (" + (cause instanceof Error ? cause.message : String(cause)) + "). " +
        "The root entry loads a function's code at its first call with require(), which Node refuses while an import() is still loading the same modules; " +
        "call " + name + " again once that import has finished, or import it from " + subpath + ".",
      { cause },
    );
  }
}`;

/** The root entry's source: {@link RootPlan.atLoad}, then a forwarder per function. */
export function rootEntrySource(plan: RootPlan): string {
  // A literal require() would be bundled by esbuild; createRequire's is left to Node.
  const lines = [
    'import { createRequire as __agentflowRootRequire } from "node:module";',
    "const __agentflowLoad = __agentflowRootRequire(import.meta.url);",
    LOAD_SYNC,
    ...plan.atLoad,
  ];
  [...plan.lazy].forEach(([entry, { file, functions }], index) => {
    const load = `__agentflowBundle${String(index)}`;
    const path = JSON.stringify(`./${entry}.js`);
    if (functions.some((f) => !f.async)) {
      lines.push(
        `let ${load}Loaded;`,
        `const ${load} = (name, subpath) => (${load}Loaded ??= __agentflowLoadSync(${path}, name, subpath));`,
      );
    }
    for (const f of functions) {
      if (f.async) {
        // A dynamic import of the declaring file, which is an entry: esbuild points it at
        // that entry's bundle.
        lines.push(
          `export async function ${f.name}(...args) { return (await import(${JSON.stringify(file)})).${f.local}.apply(this, args); }`,
        );
      } else {
        lines.push(
          `export function ${f.name}(...args) { return ${load}(${JSON.stringify(f.name)}, ${JSON.stringify(f.subpath)}).${f.local}.apply(this, args); }`,
        );
      }
    }
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
